import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsReport } from '../../shared/stats/statsTypes';
import type { Repositories } from '../db/ports';
import { openShopProcesses, type ShopProcesses } from '../testing/shopProcesses';
import { DESKTOP_USER_AGENT as DESKTOP, sendStatsRequest } from '../testing/statsHit';

/*
 * Several server processes on one database: two app instances, each with its own connection (pool),
 * share the statistics rate limit and the cap on online visitors per address, under concurrent requests too, and
 * answer "online now" the same. On SQLite (two connections to one file) and,
 * under `npm run test:postgres`, on one PostgreSQL database (two pools).
 */

const OWNER_TOKEN = 'owner-token-0123456789abcdef';
const LIMIT = 10;
const ONLINE_PER_ADDRESS = 3;

let shop: ShopProcesses;
let apps: FastifyInstance[];

beforeAll(async () => {
  shop = await openShopProcesses(2, {
    server: {
      ownerToken: OWNER_TOKEN,
      stats: { rateLimitPerMinute: LIMIT, onlinePerAddress: ONLINE_PER_ADDRESS, onlineFlushMs: 3_600_000 },
    },
  });
  apps = shop.apps;
}, 60_000);

afterAll(async () => {
  await shop.close();
});

function send(app: FastifyInstance, path: string, ip: string, userAgent = DESKTOP) {
  return sendStatsRequest(app, path.endsWith('/online') ? 'online' : 'hit', { ip, userAgent });
}

/** The limit counts per minute: start a burst early in a minute so it cannot straddle two. */
async function startOfAMinute() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 50));
}

describe('two app instances on one database', () => {
  it('share one statistics rate limit instead of allowing each its own', async () => {
    await startOfAMinute();
    const statuses: number[] = [];
    // Alternating between the instances, as a round-robin balancer would.
    for (let i = 0; i < 2 * LIMIT; i++)
      statuses.push(
        (await send(apps[i % 2] as FastifyInstance, '/wp-json/stats/v1/hit', '203.0.113.5')).statusCode,
      );
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(statuses.slice(LIMIT)).toEqual(Array(LIMIT).fill(429));
    // Another visitor has a limit of their own.
    expect((await send(apps[1] as FastifyInstance, '/wp-json/stats/v1/hit', '198.51.100.9')).statusCode).toBe(
      200,
    );
  }, 70_000);

  it('share the per-address limit under concurrent hits, whatever user agent each claims', async () => {
    await startOfAMinute();
    const responses = await Promise.all(
      Array.from({ length: 3 * LIMIT }, (_, i) =>
        send(apps[i % 2] as FastifyInstance, '/wp-json/stats/v1/hit', '203.0.113.6', `${DESKTOP} Flood/${i}`),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(200), ...Array(2 * LIMIT).fill(429)]);
  }, 70_000);

  it('count concurrent requests exactly across both', async () => {
    const [first, second] = shop.repositories as [Repositories, Repositories];
    const counts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).stats.countRequest('visitor-x', 42)),
    );
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(await first.stats.countRequest('visitor-x', 43)).toBe(1);
  });

  it('report the same visitors online, whichever instance each ping reached', async () => {
    const report = async (app: FastifyInstance) =>
      (
        await app.inject({
          url: '/wp-json/stats/v1/report',
          headers: { host: 'shop.test', authorization: `Bearer ${OWNER_TOKEN}` },
        })
      ).json() as StatsReport;
    const before = (await report(apps[0] as FastifyInstance)).onlineNow;
    // Flushes are an hour apart here: only what the first ping stores can make both instances agree.
    expect((await send(apps[0] as FastifyInstance, '/wp-json/stats/v1/online', '192.0.2.1')).statusCode).toBe(
      200,
    );
    expect((await send(apps[1] as FastifyInstance, '/wp-json/stats/v1/online', '192.0.2.2')).statusCode).toBe(
      200,
    );
    expect((await send(apps[1] as FastifyInstance, '/wp-json/stats/v1/online', '192.0.2.1')).statusCode).toBe(
      200,
    );
    const [fromFirst, fromSecond] = await Promise.all(apps.map(report));
    expect(fromFirst?.onlineNow).toBe(before + 2);
    expect(fromSecond?.onlineNow).toBe(before + 2);
  });

  it('let one address add at most onlinePerAddress visitors under concurrent pings to both', async () => {
    const report = async () =>
      (
        (
          await (apps[0] as FastifyInstance).inject({
            url: '/wp-json/stats/v1/report',
            headers: { host: 'shop.test', authorization: `Bearer ${OWNER_TOKEN}` },
          })
        ).json() as StatsReport
      ).onlineNow;
    const before = await report();
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        send(apps[i % 2] as FastifyInstance, '/wp-json/stats/v1/online', '192.0.2.50', `${DESKTOP} Tab/${i}`),
      ),
    );
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    expect(await report()).toBe(before + ONLINE_PER_ADDRESS);
  });
});
