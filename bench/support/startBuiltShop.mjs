// The built shop (dist/server/main.js) in its own process on a free loopback port with a fresh data dir, as it
// runs in production: benchmarks measure the server they would ship, and their own work (Lighthouse's trace
// processing, autocannon's bookkeeping) does not share its event loop.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `env` adds to the server's environment (DATABASE_URL for the PostgreSQL benchmark). */
export async function startBuiltShop(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: '', ...env },
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
  };
}

/** A shopper's cookie jar over fetch: keeps Set-Cookie values and sends them back, follows no redirects. */
export function createCookieJar() {
  const cookies = new Map();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    store(response) {
      this.storeLines(response.headers.getSetCookie());
    },
    storeLines(lines) {
      for (const line of lines) {
        const [pair] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        if (value === '' || /expires=thu, 01 jan 1970/i.test(line)) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
  };
}

/** The cookies of a shopper who has one mug in the cart, so cart, checkout and fragments have a line to show. */
export async function cookieWithCartItem(base) {
  const jar = createCookieJar();
  const response = await fetch(`${base}/?wc-ajax=add_to_cart`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'product_id=1021&quantity=1',
  });
  if (!response.ok) throw new Error(`add_to_cart answered ${response.status}`);
  jar.store(response);
  return jar.header();
}
