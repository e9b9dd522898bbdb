import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import { SqliteInsightsRepository } from './SqliteInsightsRepository';

/*
 * Owner insights queries: closed days come from the daily summaries, today from the raw statistics,
 * and a figure is the same whichever way it is read.
 */

let db: SqliteDatabase;
let insights: SqliteInsightsRepository;
let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'insights-'));
  db = openDatabase(dataDir);
  insights = new SqliteInsightsRepository(db);
});
afterEach(() => {
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function hit(day: string, page: string, visitor: string, extra: Partial<Record<string, string>> = {}) {
  const row = {
    day,
    visitor,
    page,
    referrer_host: extra.referrer_host ?? '',
    source_type: extra.source_type ?? 'typein',
    source: extra.source ?? '(direct)',
    device: extra.device ?? 'desktop',
  };
  db.prepare(
    `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
       referrer_host, source_type, source, browser, os, device_type)
     VALUES (0, @day, @visitor, @page, 'page', 0, '', '', @referrer_host, @source_type, @source, 'Chrome', 'Linux', @device)`,
  ).run(row);
  db.prepare(
    `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type,
       source_type, source, entry_page)
     VALUES (@day, @visitor, 0, 0, 1, 'Chrome', 'Linux', @device, @source_type, @source, @page)
     ON CONFLICT DO UPDATE SET hits = hits + 1`,
  ).run(row);
}

function order(
  id: number,
  createdAt: string,
  total: number,
  attribution?: { type: string; source: string },
  status = 'processing',
) {
  db.prepare(
    `INSERT INTO orders (id, order_key, status, currency, subtotal, total, payment_method, billing, created_at)
     VALUES (?, ?, ?, 'USD', ?, ?, 'cod', '{}', ?)`,
  ).run(id, `wc_order_${id}`, status, total, total, createdAt);
  if (attribution)
    db.prepare(
      `INSERT INTO order_attribution (order_id, source_type, utm_source, utm_medium, device_type)
       VALUES (?, ?, ?, 'organic', 'Desktop')`,
    ).run(id, attribution.type, attribution.source);
}

const range = { from: '2026-03-01', to: '2026-03-03' };

describe('visitors', () => {
  beforeEach(() => {
    hit('2026-03-01', '/a/', 'v1', { referrer_host: 'example.org' });
    hit('2026-03-01', '/a/', 'v1');
    hit('2026-03-02', '/b/', 'v2', { device: 'mobile' });
    hit('2026-03-03', '/a/', 'v3', { referrer_host: 'example.org', device: 'mobile' });
  });

  it('sums closed days from summaries and today from raw rows', async () => {
    const panel = await insights.visitors(range, { today: '2026-03-03', onlineSince: 0 });
    expect(panel.daily).toEqual([
      { day: '2026-03-01', visitors: 1, views: 2 },
      { day: '2026-03-02', visitors: 1, views: 1 },
      { day: '2026-03-03', visitors: 1, views: 1 },
    ]);
    expect(panel.topPages).toEqual([
      { label: '/a/', count: 3 },
      { label: '/b/', count: 1 },
    ]);
    expect(panel.topReferrers).toEqual([{ label: 'example.org', count: 2 }]);
    expect(panel.devices).toEqual([
      { label: 'mobile', count: 2 },
      { label: 'desktop', count: 1 },
    ]);
    // Only the closed days were summarized.
    expect(db.prepare('SELECT day FROM insights_days ORDER BY day').pluck().all()).toEqual([
      '2026-03-01',
      '2026-03-02',
    ]);
  });

  it('answers the same once every day is closed, and summarizes each day once', async () => {
    const open = await insights.visitors(range, { today: '2026-03-03', onlineSince: 0 });
    const closed = await insights.visitors(range, { today: '2026-03-04', onlineSince: 0 });
    expect(closed).toEqual(open);
    expect(await insights.summarizeBefore('2026-03-04')).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM insights_days').pluck().get()).toBe(3);
  });

  it('a narrower range changes the figures; empty days are zeros', async () => {
    const panel = await insights.visitors(
      { from: '2026-03-02', to: '2026-03-02' },
      { today: '2026-03-10', onlineSince: 0 },
    );
    expect(panel.daily).toEqual([{ day: '2026-03-02', visitors: 1, views: 1 }]);
    expect(panel.topPages).toEqual([{ label: '/b/', count: 1 }]);
    const empty = await insights.visitors(
      { from: '2026-02-01', to: '2026-02-02' },
      { today: '2026-03-10', onlineSince: 0 },
    );
    expect(empty.daily.map((row) => row.views)).toEqual([0, 0]);
  });
});

describe('sources and revenue', () => {
  it('divides buyers by the visitors of their own visit source; orders without a visit are unattributed', async () => {
    hit('2026-03-01', '/a/', 'v1', { source_type: 'organic', source: 'google' });
    hit('2026-03-02', '/a/', 'v2', { source_type: 'organic', source: 'google' });
    hit('2026-03-02', '/a/', 'v3', { source_type: 'referral', source: 'example.org' });
    // v2 orders three times (one of them cancelled): one buyer, two counted orders, conversion 50%, not 150%.
    order(1, '2026-03-02T10:00:00.000Z', 2500, { type: 'utm', source: 'newsletter' });
    order(4, '2026-03-02T11:00:00.000Z', 500, { type: 'utm', source: 'newsletter' });
    order(5, '2026-03-02T12:00:00.000Z', 7000, { type: 'utm', source: 'newsletter' }, 'cancelled');
    for (const id of [1, 4, 5])
      await insights.linkOrder({ orderId: id, day: '2026-03-02', visitorHash: 'v2', sessionHash: 's2' });
    // An order whose visit was not recorded, and one outside the range.
    order(2, '2026-03-03T10:00:00.000Z', 1000);
    await insights.linkOrder({ orderId: 2, day: '2026-03-03', visitorHash: 'nobody', sessionHash: 's9' });
    order(3, '2026-02-27T10:00:00.000Z', 9999, { type: 'organic', source: 'google' });
    const panel = await insights.sources(range, { today: '2026-03-03' });
    expect(panel.rows).toEqual([
      {
        sourceType: 'organic',
        source: 'google',
        visitors: 2,
        buyers: 1,
        orders: 2,
        revenue: 3000,
        conversionRate: 0.5,
      },
      {
        sourceType: 'referral',
        source: 'example.org',
        visitors: 1,
        buyers: 0,
        orders: 0,
        revenue: 0,
        conversionRate: 0,
      },
    ]);
    expect(panel.unattributed).toEqual({ orders: 1, revenue: 1000 });
    // The checkout's attribution, as recorded: the campaign table, no visitors.
    expect(panel.campaigns).toEqual([
      {
        sourceType: 'utm',
        source: 'newsletter',
        medium: 'organic',
        campaign: '(none)',
        orders: 2,
        revenue: 3000,
      },
      {
        sourceType: 'unknown',
        source: '(none)',
        medium: '(none)',
        campaign: '(none)',
        orders: 1,
        revenue: 1000,
      },
    ]);
    expect(panel.daily).toEqual([
      { day: '2026-03-02', sourceType: 'organic', revenue: 3000 },
      { day: '2026-03-03', sourceType: 'unattributed', revenue: 1000 },
    ]);
  });
});

describe('searches that led to a purchase', () => {
  function search(id: number, query: string, results: number, session: string, at: number) {
    db.prepare(
      `INSERT INTO search_queries (id, query, results, source, session_hash, created_at, updated_at)
       VALUES (?, ?, ?, 'results', ?, ?, ?)`,
    ).run(id, query, results, session, at, at);
  }

  it('needs a search that found products, an add-to-cart of one, and an order of the same session', async () => {
    const at = Date.parse('2026-03-02T09:00:00Z');
    search(1, 'mug', 3, 's1', at);
    search(2, 'anorak', 0, 's1', at + 1);
    search(3, 'linen', 5, 's2', at + 2);
    search(4, 'teapot', 2, 's1', at + 3);
    // s1 adds a product "mug" found; s2 adds nothing after its search; a zero-result row can't be recorded as
    // leading anywhere, and even if it were it would not count.
    await insights.recordCartAdds([
      { queryId: 1, sessionHash: 's1', productId: 7, createdAt: at + 10 },
      { queryId: 2, sessionHash: 's1', productId: 7, createdAt: at + 10 },
    ]);
    order(1, '2026-03-02T10:00:00.000Z', 2500);
    order(2, '2026-03-02T10:00:00.000Z', 2500);
    await insights.linkOrder({ orderId: 1, day: '2026-03-02', visitorHash: 'v1', sessionHash: 's1' });
    await insights.linkOrder({ orderId: 2, day: '2026-03-02', visitorHash: 'v2', sessionHash: 's2' });
    expect((await insights.searches(range)).purchased).toEqual([{ query: 'mug', orders: 1 }]);
    // Only searches that found something, made in the session before the add, are offered for it.
    expect(await insights.sessionSearches(['s1', 'other'], at, at + 2, 50)).toEqual([
      { id: 1, query: 'mug' },
    ]);
    // A cancelled order is no purchase.
    db.prepare("UPDATE orders SET status = 'cancelled' WHERE id = 1").run();
    expect((await insights.searches(range)).purchased).toEqual([]);
  });
});
