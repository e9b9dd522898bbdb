// The built shop (dist/server/main.js) in its own process on a free loopback port, as it runs in production. The
// one way browser tests, crash tests and benchmarks start a shop: a fresh data dir seeded with the demo catalog (or
// an existing one, to restart after a crash), optional SHOP_CONFIG settings, extra environment (DATABASE_URL),
// resolved once it listens. Several processes may share one data dir (PostgreSQL): `keepDataDir` leaves it to
// the caller to delete. `root` runs another checkout's build (a benchmark comparing two builds side by side).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startBuiltShop({
  settings,
  dataDir: existingDataDir,
  env: extraEnv = {},
  keepDataDir = false,
  root = '.',
} = {}) {
  const dataDir = existingDataDir ?? mkdtempSync(join(tmpdir(), 'shop-'));
  const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: '', ...extraEnv };
  if (settings) {
    const path = join(dataDir, 'settings.json');
    writeFileSync(path, JSON.stringify(settings));
    env.SHOP_CONFIG = path;
  }
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The shop did not start:\n${output}`)), 30_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[^\s/]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The shop exited with ${code}:\n${output}`));
    });
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  return {
    url,
    dataDir,
    child,
    /** Everything the server printed so far (startup lines included). */
    output: () => output,
    /** Stops the server gracefully and deletes its data dir (unless `keepDataDir`). */
    async stop() {
      if (!exited()) {
        const done = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        // The server gives itself 10 s to shut down gracefully; past that, it is stuck.
        const stuck = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await done;
        clearTimeout(stuck);
      }
      if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
    /** Kills the server without warning (SIGKILL), as a crash would, and keeps the data dir for a restart. */
    async kill() {
      if (exited()) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await done;
    },
  };
}
