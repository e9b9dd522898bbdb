import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openShopProcesses, type ShopProcesses } from '../../../../test-support/shopProcesses';

/*
 * A crawler of search URLs against two server processes sharing one database (SQLite under `npm test`, PostgreSQL
 * under `npm run test:postgres`): every search is answered, but only `server.stats.recordedSearchesPerMinute` of
 * its client's are recorded, whichever process answered them (the cap is counted in the shared limiter); the rest
 * are counted as capped on /healthz, none as dropped. A person searching meanwhile from another address is recorded
 * whole, their typing burst as one row. The flood's searches are written in batches, not one transaction each.
 */

const CAP = 60;
const FLOOD = 300;
const CRAWLER = '198.51.100.9';
const PERSON = '203.0.113.4';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0';
let shop: ShopProcesses;

beforeAll(async () => {
  // The cap's window is a clock minute: the flood must not straddle two of them.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 27, 12, 0, 5) });
  // The render cache on, as a live shop runs: a cached results page still records its search.
  shop = await openShopProcesses(2, { server: { pageCache: { maxBytes: 64 * 1024 * 1024 } } });
}, 60_000);
afterAll(async () => {
  await shop?.close();
  vi.useRealTimers();
});

const app = (n: number) => shop.apps[n % 2] as FastifyInstance;

function get(n: number, url: string, ip: string, userAgent: string) {
  return app(n).inject({ method: 'GET', url, remoteAddress: ip, headers: { 'user-agent': userAgent } });
}

async function settled() {
  // Suggestions are recorded just after their answer (setImmediate).
  await new Promise((resolve) => setImmediate(resolve));
  for (const each of shop.apps) {
    await each.searchAnalytics.flush();
    await each.durableWrites.idle();
  }
}

async function rows(where: string): Promise<number> {
  const [row] = await shop.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM search_queries WHERE ${where}`,
  );
  return Number(row?.n);
}

describe('search analytics under a flood of searches from one client', () => {
  it('answers every search, records the cap of the crawler and all of the person, in batches', {
    timeout: 120_000,
  }, async () => {
    const transactions = shop.repositories.map((repos) => vi.spyOn(repos.search, 'recordQueries'));
    const answers: number[] = [];
    for (let sent = 0; sent < FLOOD; sent += 25)
      answers.push(
        ...(
          await Promise.all(
            Array.from({ length: 25 }, (_, i) =>
              get(sent + i, '/?s=linen&post_type=product', CRAWLER, 'crawler/1.0'),
            ),
          )
        ).map((answer) => answer.statusCode),
      );
    expect(answers).toEqual(Array(FLOOD).fill(200));

    // A person on another address, after the crawler reached its cap: five results pages and one typing burst.
    for (const [n, query] of ['mug', 'tote', 'cap', 'belt', 'scarf'].entries())
      expect((await get(n, `/?s=${query}&post_type=product`, PERSON, BROWSER)).statusCode).toBe(200);
    // Typed into one process (two processes may commit a burst's keystrokes in either order).
    for (const typed of ['h', 'ho', 'hoo', 'hood', 'hoodi', 'hoodie'])
      expect((await get(0, `/?wc-ajax=search_suggestions&s=${typed}`, PERSON, BROWSER)).statusCode).toBe(200);
    await settled();

    expect(await rows("query = 'linen'")).toBe(CAP);
    expect(await rows("query IN ('mug', 'tote', 'cap', 'belt', 'scarf')")).toBe(5);
    expect(await rows("query = 'hoodie' AND source = 'suggestions'")).toBe(1);
    const health = await Promise.all(
      shop.apps.map(async (each) => (await each.inject({ method: 'GET', url: '/healthz' })).json()),
    );
    expect(health.reduce((sum, each) => sum + each.cappedWrites.searchQueries, 0)).toBe(FLOOD - CAP);
    for (const each of health)
      expect(each.droppedWrites).toEqual({ searchQueries: 0, searchCartAdds: 0, orderLinks: 0 });
    // Batched: fewer transactions than rows recorded (one per search would be 66).
    const written = transactions.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    const recorded = transactions.reduce(
      (sum, spy) => sum + spy.mock.calls.reduce((n, [records]) => n + records.length, 0),
      0,
    );
    expect(recorded).toBe(CAP + 5 + 6);
    expect(written).toBeLessThan(CAP / 2);
  });

  it('keeps the last query of a typing burst when its keystrokes, answered by both processes, are committed out of order', async () => {
    const at = Date.now();
    const keystroke = (query: string, n: number) => ({
      query,
      results: 1,
      source: 'suggestions' as const,
      sessionHash: 'b'.repeat(32),
      now: at + n * 100,
      burstMs: 30_000,
    });
    const [first, second] = shop.repositories;
    // The second process's batch (later keystrokes) commits before the first's.
    await second?.search.recordQueries([keystroke('ho', 1), keystroke('hood', 3), keystroke('hoodie', 5)]);
    await first?.search.recordQueries([keystroke('h', 0), keystroke('hoo', 2), keystroke('hoodi', 4)]);
    const burst = await shop.query<{ query: string }>(
      'SELECT query FROM search_queries WHERE session_hash = ?',
      ['b'.repeat(32)],
    );
    expect(burst.map((row) => row.query)).toEqual(['hoodie']);
  });
});
