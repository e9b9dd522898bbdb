import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { sendStatsRequest } from '../../../test-support/statsHit';
import type { StatsReport } from '../../shared/stats/statsTypes';

/*
 * One client flooding the statistics (all requests public, from one machine): the rate limit is per client address
 * whatever user agent each request claims, bots included; one address adds at most `onlinePerAddress` visitors to
 * "online now"; bot hits are kept as daily counts, never one row each. On SQLite and, under
 * `npm run test:postgres`, on PostgreSQL.
 */

const OWNER_TOKEN = 'owner-token-0123456789-abcdefgh';
const LIMIT = 30;
const ONLINE_PER_ADDRESS = 5; // the documented default
const ATTACKER = '203.0.113.66';

let shop: TestApp;
beforeEach(async () => {
  shop = await createTestApp({
    settings: { server: { ownerToken: OWNER_TOKEN, stats: { rateLimitPerMinute: LIMIT } } },
  });
});
afterEach(async () => {
  await shop.close();
});

/** A browser user agent no request has sent before. */
const browser = (n: number) =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + n}.0.${n}.0 Safari/537.36`;

function send(path: 'hit' | 'online', { ip = ATTACKER, userAgent = browser(0) } = {}) {
  return sendStatsRequest(shop.app, path, { ip, userAgent });
}

async function report(): Promise<StatsReport> {
  const response = await shop.app.inject({
    url: '/wp-json/stats/v1/report',
    headers: { host: 'shop.test', authorization: `Bearer ${OWNER_TOKEN}` },
  });
  return response.json() as StatsReport;
}

/** The limit counts per minute: start a burst early in a minute so it cannot straddle two. */
async function startOfAMinute() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}

async function statuses(count: number, request: (i: number) => ReturnType<typeof send>) {
  const answered: number[] = [];
  for (let i = 0; i < count; i++) answered.push((await request(i)).statusCode);
  return answered;
}

describe('one address flooding the statistics', () => {
  it('is limited per address whatever user agent each hit claims; another address is not affected', async () => {
    await startOfAMinute();
    const answered = await statuses(200, (i) => send('hit', { userAgent: browser(i) }));
    expect(answered.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(answered.slice(LIMIT)).toEqual(Array(200 - LIMIT).fill(429));
    const other = await send('hit', { ip: '198.51.100.23', userAgent: browser(999) });
    expect(other.statusCode).toBe(200);
    expect((await report()).views).toBe(LIMIT + 1);
  }, 70_000);

  it('counts bot hits against the same limit', async () => {
    await startOfAMinute();
    const answered = await statuses(LIMIT + 10, (i) => send('hit', { userAgent: `FloodBot/${i}.0` }));
    expect(answered.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(answered.slice(LIMIT)).toEqual(Array(10).fill(429));
  }, 70_000);

  it('treats the addresses of one IPv6 /64 as one client', async () => {
    await startOfAMinute();
    const answered = await statuses(LIMIT + 5, (i) =>
      send('hit', { ip: `2001:db8:1:2::${(i + 1).toString(16)}`, userAgent: browser(i) }),
    );
    expect(answered.slice(LIMIT)).toEqual(Array(5).fill(429));
    const otherNetwork = await send('hit', { ip: '2001:db8:1:3::1' });
    expect(otherNetwork.statusCode).toBe(200);
  }, 70_000);

  it(`adds at most ${ONLINE_PER_ADDRESS} visitors to "online now" from one address`, async () => {
    const before = (await report()).onlineNow;
    const answered = await statuses(100, (i) => send('online', { userAgent: browser(i) }));
    expect(answered).toEqual(Array(100).fill(200));
    expect((await report()).onlineNow).toBe(before + ONLINE_PER_ADDRESS);
    // Those counted stay online with their next pings; another address counts on its own.
    for (let i = 0; i < ONLINE_PER_ADDRESS; i++)
      expect((await send('online', { userAgent: browser(i) })).statusCode).toBe(200);
    expect((await send('online', { ip: '198.51.100.24' })).statusCode).toBe(200);
    expect((await report()).onlineNow).toBe(before + ONLINE_PER_ADDRESS + 1);
  });

  it('keeps bot hits as daily counts per bot family, not a row each', async () => {
    const bots = [
      ...Array.from(
        { length: 12 },
        (_, i) => `Mozilla/5.0 (compatible; Googlebot/2.${i}; +http://www.google.com/bot.html)`,
      ),
      ...Array.from({ length: 6 }, (_, i) => `curl/8.${i}.0`),
      ...Array.from({ length: 6 }, (_, i) => `RandomCrawler${i}/1.0 (+https://crawler.example/bot)`),
    ];
    // Each from its own address, so the rate limit plays no part.
    for (const [i, userAgent] of bots.entries()) {
      const response = await send('hit', { ip: `198.51.100.${i + 1}`, userAgent });
      expect(response.json()).toEqual({ status: true, excluded: 'bot' });
    }
    const result = await report();
    expect(result.views).toBe(0);
    expect(result.exclusions).toEqual([{ reason: 'bot', count: bots.length }]);
    expect(result.bots).toEqual([
      { agent: 'googlebot', count: 12 },
      { agent: 'curl', count: 6 },
      { agent: 'other', count: 6 },
    ]);
    const rows = await shop.query('SELECT * FROM stats_exclusion_days');
    expect(rows).toHaveLength(3);
    expect(JSON.stringify(rows)).not.toMatch(/Googlebot\/2|curl\/8|RandomCrawler/);
  });
});
