import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test-support/createTestApp';
import { parseSettings } from '../../shared/settings/parseSettings';
import type { StatsReport } from '../../shared/stats/statsTypes';
import { buildApp } from '../app';

/*
 * Retention with the default settings: raw statistics and search analytics older than `server.stats.retentionDays`
 * (400) are deleted when the server starts (and hourly), while the daily summaries the owner's insights read are
 * kept. Rows of long ago are written straight into the tables (no request can be sent in the past); a second app
 * on the same database is the restart that applies retention. On SQLite and, under `npm run test:postgres`, on
 * PostgreSQL.
 */

const OWNER_TOKEN = 'owner-token-0123456789-abcdefgh';
const DAY_MS = 86_400_000;
const dayAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
const OLD = dayAgo(500);
const RECENT = dayAgo(300);

let shop: TestApp;
let restarted: FastifyInstance | undefined;
beforeEach(async () => {
  // This app's own start-up passes may still be running on PostgreSQL while the test writes its rows: it keeps
  // everything, so only the restart below (with the default settings) applies retention.
  shop = await createTestApp({
    settings: { server: { ownerToken: OWNER_TOKEN, stats: { retentionDays: 100_000 } } },
  });
});
afterEach(async () => {
  await restarted?.close();
  await shop.close();
});

async function recordLongAgo(day: string, query: string) {
  const at = Date.parse(`${day}T12:00:00Z`);
  await shop.query(
    `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type,
       source_type, source, entry_page)
     VALUES (?, 'v1', ?, ?, 1, 'Chrome', 'Linux', 'Desktop', 'typein', '(direct)', '/shop/')`,
    [day, at, at],
  );
  await shop.query(
    `INSERT INTO search_queries (query, results, source, session_hash, created_at, updated_at)
     VALUES (?, 3, 'results', 's1', ?, ?)`,
    [query, at, at],
  );
  // Hits last: a summary started meanwhile (it begins at the first day with hits) sees the whole day.
  await shop.query(
    `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
       referrer_host, source_type, source, browser, os, device_type)
     VALUES (?, ?, 'v1', '/shop/', 'archive', 0, '', '', '', 'typein', '(direct)', 'Chrome', 'Linux', 'Desktop')`,
    [at, day],
  );
}

const owner = { host: 'shop.test', authorization: `Bearer ${OWNER_TOKEN}` };
async function get<T>(app: FastifyInstance, url: string): Promise<T> {
  const response = await app.inject({ url, headers: owner });
  expect(response.statusCode).toBe(200);
  return response.json() as T;
}
const oneDay = (day: string) => `range=custom&from=${day}&to=${day}`;

describe('statistics retention', () => {
  it('deletes raw hits and searches older than 400 days at start and keeps the daily summaries', async () => {
    await recordLongAgo(OLD, 'wool socks');
    await recordLongAgo(RECENT, 'linen shirt');

    restarted = await buildApp({
      config: parseSettings({ server: { ownerToken: OWNER_TOKEN } }),
      repositories: shop.repositories,
      secret: TEST_SECRET,
      assets: { scripts: [], styles: [], preloads: [] },
      dataDir: shop.dataDir,
    });
    await restarted.ready();
    const app = restarted;
    await vi.waitFor(
      async () => expect(await shop.query('SELECT day FROM stats_hits')).toEqual([{ day: RECENT }]),
      // On PostgreSQL the pass first summarizes 500 days, a transaction each, beside the insights start-up summary.
      { timeout: 30_000, interval: 100 },
    );

    // Raw rows: the old day's are gone, those within 400 days stay.
    const raw = (day: string) => get<StatsReport>(app, `/wp-json/stats/v1/report?from=${day}&to=${day}`);
    expect(await raw(OLD)).toMatchObject({ views: 0, visitors: 0 });
    expect(await raw(RECENT)).toMatchObject({ views: 1, visitors: 1 });
    expect(await shop.query('SELECT query FROM search_queries')).toEqual([{ query: 'linen shirt' }]);
    const searches = (day: string) =>
      get<{ searches: { top: { query: string }[] } }>(app, `/insights/api/searches?${oneDay(day)}`);
    expect((await searches(OLD)).searches.top).toEqual([]);
    expect((await searches(RECENT)).searches.top.map((row) => row.query)).toEqual(['linen shirt']);

    // The daily summaries outlive the raw rows: the owner's insights still show the old day.
    const visitors = await get<{ visitors: { daily: { day: string; visitors: number; views: number }[] } }>(
      app,
      `/insights/api/visitors?${oneDay(OLD)}`,
    );
    expect(visitors.visitors.daily).toEqual([{ day: OLD, visitors: 1, views: 1 }]);
  }, 45_000);
});
