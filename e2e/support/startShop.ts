import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { startBuiltShop } from '../../scripts/lib/startBuiltShop.mjs';
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
  /** Stops the server(s) gracefully and deletes the data dir (and the PostgreSQL test database). */
  stop(): Promise<void>;
  /** Kills the server(s) without warning (SIGKILL), as a crash would, and keeps the data dir for a restart. */
  kill(): Promise<void>;
}

/**
 * Starts the built shop on a free port with a fresh data dir seeded with the demo catalog, optionally with a
 * SHOP_CONFIG settings object; given `existingDataDir`, it restarts a shop on that data dir instead.
 */
export async function startShop(settings?: object, existingDataDir?: string): Promise<RunningShop> {
  if (TEST_DATABASE_URL) return startShopOnPostgres(settings, existingDataDir);
  // An empty DATABASE_URL keeps the shop on SQLite even when the caller's environment names a PostgreSQL server.
  const shop = await startBuiltShop({ settings, dataDir: existingDataDir, env: { DATABASE_URL: '' } });
  return {
    url: shop.url,
    dataDir: shop.dataDir,
    env: { DATA_DIR: shop.dataDir, DATABASE_URL: '' },
    stop: shop.stop,
    kill: shop.kill,
  };
}

/**
 * With TEST_DATABASE_URL set (`npm run test:e2e:postgres`), a shop is two server processes on their own ports,
 * sharing one fresh PostgreSQL database and the data dir (uploads), behind a round-robin proxy whose URL the
 * tests use. The database URL is kept in the data dir, so a restart on that data dir finds the same database.
 */
async function startShopOnPostgres(settings?: object, existingDataDir?: string): Promise<RunningShop> {
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'shop-'));
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
  const servers = await Promise.all(
    [1, 2].map(() =>
      startBuiltShop({ settings, dataDir, env: { DATABASE_URL: databaseUrl }, keepDataDir: true }),
    ),
  );
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
