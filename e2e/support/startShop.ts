import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';

export interface RunningShop {
  url: string;
  dataDir: string;
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
  if (settings) {
    const path = join(dataDir, 'settings.json');
    writeFileSync(path, JSON.stringify(settings));
    env.SHOP_CONFIG = path;
  }
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
    dataDir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
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
