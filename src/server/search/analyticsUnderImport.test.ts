import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { type Holder, holdPostgresTableLock, holdSqliteWriteLock } from '../../../test-support/holdDatabase';
import { Shopper } from '../../../test-support/shopper';
import { sendStatsRequest } from '../../../test-support/statsHit';
import { projectPath } from '../projectPath';

/*
 * A catalog import holds the database for seconds. Suggestions answered meanwhile must still reach the owner's search
 * analytics once it is free: none lost, none counted as dropped on /healthz.
 *
 * SQLite: the import is played by a second process holding a write transaction open on the same file (as
 * `npm run import` does while the shop runs) until the test tells it to commit. PostgreSQL: a second connection
 * holds a lock on search_queries that keeps every insert out (an import never takes one, so this is harsher).
 */

describe('search analytics while an import holds the database', () => {
  let shop: TestApp;
  let origin: string;

  beforeAll(async () => {
    shop = await createTestApp();
    await shop.app.listen({ port: 0, host: '127.0.0.1' });
    const address = shop.app.server.address();
    if (typeof address !== 'object' || !address) throw new Error('no address');
    origin = `http://127.0.0.1:${address.port}`;
  }, 60_000);
  afterAll(async () => {
    await shop?.close();
  });

  async function count(table = 'search_queries'): Promise<number> {
    const [row] = await shop.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`);
    return Number(row?.n);
  }

  function holdDatabase(): Promise<Holder> {
    return shop.databaseUrl
      ? holdPostgresTableLock(shop.databaseUrl, 'search_queries')
      : holdSqliteWriteLock(join(shop.dataDir, 'shop.sqlite'));
  }

  it('an add to cart sent meanwhile is answered once its cart is stored', { timeout: 60_000 }, async () => {
    const [mug] = await shop.query<{ id: number }>("SELECT id FROM products WHERE slug = 'cafe-au-lait-mug'");
    const shopper = new Shopper();
    const holder = shop.databaseUrl
      ? await holdPostgresTableLock(shop.databaseUrl, 'sessions')
      : await holdSqliteWriteLock(join(shop.dataDir, 'shop.sqlite'));
    const limitHit = vi.spyOn(shop.repositories.rateLimits, 'hit');
    let answered = false;
    let added: Promise<{ statusCode: number }>;
    try {
      added = shopper
        .send(shop.app, 'POST', '/?wc-ajax=add_to_cart', { product_id: String(mug?.id), quantity: '2' })
        .finally(() => {
          answered = true;
        });
      // Its first write (the new-session limit) met the held lock: it waits, unanswered.
      await vi.waitFor(() => expect(limitHit).toHaveBeenCalled(), { timeout: 10_000 });
      expect(answered).toBe(false);
    } finally {
      await holder.release();
    }
    limitHit.mockRestore();
    expect((await added).statusCode).toBe(200);
    const session = shopper.cookies.get('shop_session') as string;
    expect((await shop.repositories.sessions.get(session, Date.now()))?.cart).toEqual([
      expect.objectContaining({ productId: mug?.id, quantity: 2 }),
    ]);
  });

  it('statistics hits sent meanwhile are answered once stored: none refused, none lost', {
    timeout: 60_000,
  }, async () => {
    const before = await count('stats_hits');
    const daySalt = vi.spyOn(shop.repositories.stats, 'daySalt');
    let answered = 0;
    const holder = shop.databaseUrl
      ? await holdPostgresTableLock(shop.databaseUrl, 'stats_hits')
      : await holdSqliteWriteLock(join(shop.dataDir, 'shop.sqlite'));
    let answers: Promise<{ statusCode: number }[]>;
    try {
      answers = Promise.all(
        ['203.0.113.1', '203.0.113.2', '203.0.113.3'].map((ip) =>
          sendStatsRequest(shop.app, 'hit', { ip }).finally(() => {
            answered += 1;
          }),
        ),
      );
      // The hits reached their first write (the day's salt) while the lock was held: they wait, unanswered.
      await vi.waitFor(() => expect(daySalt).toHaveBeenCalled(), { timeout: 10_000 });
      expect(answered).toBe(0);
      expect(await count('stats_hits')).toBe(before);
    } finally {
      await holder.release();
    }
    daySalt.mockRestore();
    expect((await answers).map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    expect(await count('stats_hits')).toBe(before + 3);
  });

  it('every suggestion query sent meanwhile reaches search_queries once it is free', {
    timeout: 60_000,
  }, async () => {
    const holder = await holdDatabase();
    const queries = [
      'hoodie',
      'shirt',
      'cap',
      'belt',
      'beanie',
      'album',
      'single',
      'polo',
      'sunglasses',
      'logo',
    ];
    const sent = 30;
    try {
      for (let i = 0; i < sent; i++) {
        // Each from its own visitor (no session: keyed by address, browser and day), so each is its own row.
        const response = await fetch(
          `${origin}/?wc-ajax=search_suggestions&s=${encodeURIComponent(queries[i % queries.length] as string)}`,
          { headers: { 'user-agent': `shopper-${i}` } },
        );
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      // The recordings run after each answer (setImmediate), gathered in batches: let the last ones try while the
      // lock is still held.
      await new Promise((resolve) => setImmediate(resolve));
      await shop.app.searchAnalytics.flush();
      // The lock really kept them out: nothing is in the table yet, and they wait rather than being dropped.
      expect(await count()).toBe(0);
      expect(shop.app.durableWrites.pending()).toBeGreaterThan(0);
    } finally {
      await holder.release();
    }
    await vi.waitFor(async () => expect(await count()).toBe(sent), { timeout: 20_000, interval: 50 });
    const health = await (await fetch(`${origin}/healthz`)).json();
    expect(health.droppedWrites).toEqual({ searchQueries: 0, searchCartAdds: 0, orderLinks: 0 });
  });

  it('every suggestion query sent while a real import runs in another process reaches search_queries', {
    timeout: 120_000,
  }, async () => {
    const before = await count();
    const child = spawn(process.execPath, ['--import', 'tsx', projectPath('test-support/importInChild.ts')], {
      cwd: projectPath(),
      env: {
        ...process.env,
        DATA_DIR: shop.dataDir,
        DATABASE_URL: shop.databaseUrl ?? '',
        IMPORT_PRODUCTS: '1600',
        IMPORT_OWN_CONNECTION: '1',
      },
    });
    let output = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await vi.waitFor(() => expect(output, stderr).toContain('writing'), { timeout: 60_000, interval: 10 });
    // The import is mid-write, its transaction open: suggestions, each from its own visitor, are answered meanwhile.
    const sent = 20;
    for (let i = 0; i < sent; i++) {
      const response = await fetch(`${origin}/?wc-ajax=search_suggestions&s=mug`, {
        headers: { 'user-agent': `import-shopper-${i}` },
      });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect(output).not.toContain('done');
    child.stdin.write('go\n');
    expect(await exited, stderr).toBe(0);
    await vi.waitFor(async () => expect(await count()).toBe(before + sent), {
      timeout: 30_000,
      interval: 50,
    });
    const health = await (await fetch(`${origin}/healthz`)).json();
    expect(health.droppedWrites).toEqual({ searchQueries: 0, searchCartAdds: 0, orderLinks: 0 });
  });
});
