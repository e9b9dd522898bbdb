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

function order(id: number, createdAt: string, total: number, attribution?: { type: string; source: string }) {
  db.prepare(
    `INSERT INTO orders (id, order_key, status, currency, subtotal, total, payment_method, billing, created_at)
     VALUES (?, ?, 'processing', 'USD', ?, ?, 'cod', '{}', ?)`,
  ).run(id, `wc_order_${id}`, total, total, createdAt);
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
  it('joins order attribution with the visitors of the same source', async () => {
    hit('2026-03-01', '/a/', 'v1', { source_type: 'organic', source: 'google' });
    hit('2026-03-02', '/a/', 'v2', { source_type: 'organic', source: 'google' });
    hit('2026-03-02', '/a/', 'v3', { source_type: 'referral', source: 'example.org' });
    order(1, '2026-03-02T10:00:00.000Z', 2500, { type: 'organic', source: 'google' });
    order(2, '2026-03-03T10:00:00.000Z', 1000);
    order(3, '2026-02-27T10:00:00.000Z', 9999, { type: 'organic', source: 'google' });
    const panel = await insights.sources(range, { today: '2026-03-03' });
    expect(panel.rows).toEqual([
      {
        sourceType: 'organic',
        source: 'google',
        medium: 'organic',
        campaign: '(none)',
        orders: 1,
        revenue: 2500,
        visitors: 2,
        conversionRate: 0.5,
      },
      {
        sourceType: 'unknown',
        source: '(none)',
        medium: '(none)',
        campaign: '(none)',
        orders: 1,
        revenue: 1000,
        visitors: 0,
        conversionRate: null,
      },
      {
        sourceType: 'referral',
        source: 'example.org',
        medium: '(none)',
        campaign: '(none)',
        orders: 0,
        revenue: 0,
        visitors: 1,
        conversionRate: 0,
      },
    ]);
    expect(panel.daily).toEqual([
      { day: '2026-03-02', sourceType: 'organic', revenue: 2500 },
      { day: '2026-03-03', sourceType: 'unknown', revenue: 1000 },
    ]);
  });
});
