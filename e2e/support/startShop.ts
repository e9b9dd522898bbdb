import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import {
  createTestDatabase,
  dropDatabase,
  TEST_DATABASE_URL,
} from '../../src/server/db/postgres/testDatabase';
import { startRoundRobinProxy } from './roundRobinProxy';

/** Where a PostgreSQL-backed test shop keeps its database URL in its data dir (read by shopDatabase.ts). */
const DATABASE_URL_FILE = 'database-url';

export interface RunningShop {
  url: string;
  dataDir: string;
  /** On PostgreSQL, the server processes behind the proxy, each reachable and killable on its own. */
  processes?: { url: string; kill(): Promise<void> }[];
  /** The environment that points a CLI (dist/server/report.js…) at this shop's database. */
  env: { DATA_DIR: string; DATABASE_URL: string };
  stop(): Promise<void>;
  /** Kills the server without warning (SIGKILL), as a crash would, and keeps the data dir for a restart. */
  kill(): Promise<void>;
}

/**
 * Starts the built shop (dist/server/main.js) on a free port with a fresh data dir, seeded with the demo catalog,
 * optionally with a SHOP_CONFIG settings object. Resolves once it listens. Given `existingDataDir`, it restarts a shop
 * on that data dir instead.
 */
export async function startShop(settings?: object, existingDataDir?: string): Promise<RunningShop> {
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'shop-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  if (settings) {
    const path = join(dataDir, 'settings.json');
    writeFileSync(path, JSON.stringify(settings));
    env.SHOP_CONFIG = path;
  }
  if (TEST_DATABASE_URL) return startShopOnPostgres(env, dataDir);
  const server = await spawnServer(env);
  return {
    url: server.url,
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    kill: server.kill,
  };
}

/**
 * With TEST_DATABASE_URL set (`npm run test:e2e:postgres`), a shop is two server processes on their own ports,
 * sharing one fresh PostgreSQL database and the data dir (uploads), behind a round-robin proxy whose URL the
 * tests use. The database URL is kept in the data dir, so a restart on that data dir finds the same database.
 */
async function startShopOnPostgres(env: NodeJS.ProcessEnv, dataDir: string): Promise<RunningShop> {
  const urlFile = join(dataDir, DATABASE_URL_FILE);
  let databaseUrl: string;
  let drop: () => Promise<void>;
  if (existsSync(urlFile)) {
    databaseUrl = readFileSync(urlFile, 'utf8');
    drop = () => dropDatabase(databaseUrl);
  } else {
    const database = await createTestDatabase();
    databaseUrl = database.url;
    drop = database.drop;
    writeFileSync(urlFile, databaseUrl);
  }
  const servers = await Promise.all([1, 2].map(() => spawnServer({ ...env, DATABASE_URL: databaseUrl })));
  const proxy = await startRoundRobinProxy(servers.map((server) => server.url));
  return {
    url: proxy.url,
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
    processes: servers.map((server) => ({ url: server.url, kill: server.kill })),
    async stop() {
      await proxy.close();
      await Promise.all(servers.map((server) => server.stop()));
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      await Promise.all(servers.map((server) => server.kill()));
      await proxy.close();
    },
  };
}

/** Starts one built server process and resolves once it listens. */
async function spawnServer(
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; stop(): Promise<void>; kill(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The shop did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s/]+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The shop exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * One shop for the spec file that calls it (started before its first test, stopped after its last), so files run
 * in parallel on their own servers. Returns a getter, since the shop exists only once `beforeAll` has run.
 */
export function shopPerSpecFile(settings?: object): () => RunningShop {
  let shop: RunningShop | undefined;
  test.beforeAll(async () => {
    shop = await startShop(settings);
  });
  test.afterAll(async () => {
    await shop?.stop();
  });
  return () => {
    if (!shop) throw new Error('The shop is started in beforeAll; use it inside a test');
    return shop;
  };
}
