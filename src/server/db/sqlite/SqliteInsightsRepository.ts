import type Database from 'better-sqlite3';
import type { DayRange } from '../../../shared/dates/dayRange';
import type {
  CountRow,
  SearchesPanel,
  SearchQueryRow,
  SourcesPanel,
  VisitorsPanel,
} from '../../../shared/insights/insightsTypes';
import { fillDays, nextDay, previousDay, sourceRows, TOP } from '../insightsRows';
import type { InsightsRepository } from '../ports';

/**
 * The owner's insights. Closed days (before `today`) are read from the daily summary tables of
 * migration 0009, built on first need; today from the raw statistics. Both halves of every query use the same
 * SQL shape, so a figure does not change when its day closes.
 */
export class SqliteInsightsRepository implements InsightsRepository {
  #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
  }

  /** Summarizes every closed day with hits that has no summary yet (one transaction per day). */
  async summarizeBefore(today: string): Promise<number> {
    const db = this.#db;
    const first = db.prepare('SELECT MIN(day) FROM stats_hits').pluck().get() as string | null;
    if (!first) return 0;
    const last = previousDay(today);
    const done = new Set(
      db
        .prepare('SELECT day FROM insights_days WHERE day BETWEEN ? AND ?')
        .pluck()
        .all(first, last) as string[],
    );
    const summarize = db.transaction((day: string) => {
      // Another process may have summarized it since the read above (the write lock is held from here on).
      if (db.prepare('SELECT 1 FROM insights_days WHERE day = ?').get(day)) return;
      const views = db.prepare('SELECT COUNT(*) FROM stats_hits WHERE day = ?').pluck().get(day) as number;
      const visitors = db
        .prepare('SELECT COUNT(*) FROM stats_visitors WHERE day = ?')
        .pluck()
        .get(day) as number;
      db.prepare('INSERT INTO insights_days (day, views, visitors) VALUES (?, ?, ?)').run(
        day,
        views,
        visitors,
      );
      db.prepare(
        `INSERT INTO insights_daily_pages (day, page, views)
         SELECT day, page, COUNT(*) FROM stats_hits WHERE day = ? GROUP BY page`,
      ).run(day);
      db.prepare(
        `INSERT INTO insights_daily_referrers (day, host, views)
         SELECT day, referrer_host, COUNT(*) FROM stats_hits WHERE day = ? AND referrer_host <> ''
         GROUP BY referrer_host`,
      ).run(day);
      db.prepare(
        `INSERT INTO insights_daily_visitors (day, device_type, source_type, source, visitors)
         SELECT day, device_type, source_type, source, COUNT(*) FROM stats_visitors WHERE day = ?
         GROUP BY device_type, source_type, source`,
      ).run(day);
    });
    let count = 0;
    for (let day = first; day <= last; day = nextDay(day)) {
      if (done.has(day)) continue;
      summarize.immediate(day);
      count += 1;
    }
    return count;
  }

  async visitors(range: DayRange, { today, onlineSince }: { today: string; onlineSince: number }) {
    await this.summarizeBefore(today);
    const db = this.#db;
    const closed = { from: range.from, to: range.to < today ? range.to : previousDay(today) };
    const open = { from: range.from > today ? range.from : today, to: range.to };
    const rows = (sql: string, params: object) => db.prepare(sql).all(params) as CountRow[];
    const merged = (summary: string, raw: string) =>
      rows(
        `SELECT label, SUM(count) AS count FROM (${summary} UNION ALL ${raw})
         GROUP BY label ORDER BY count DESC, label LIMIT ${TOP}`,
        { cf: closed.from, ct: closed.to, of: open.from, ot: open.to },
      );
    const daily = db
      .prepare(
        `SELECT day, visitors, views FROM insights_days WHERE day BETWEEN @cf AND @ct
         UNION ALL
         SELECT @of AS day,
           (SELECT COUNT(*) FROM stats_visitors WHERE day BETWEEN @of AND @ot) AS visitors,
           (SELECT COUNT(*) FROM stats_hits WHERE day BETWEEN @of AND @ot) AS views
         WHERE @of <= @ot
         ORDER BY day`,
      )
      .all({ cf: closed.from, ct: closed.to, of: open.from, ot: open.to }) as VisitorsPanel['daily'];
    const panel: VisitorsPanel = {
      daily: fillDays(range, daily),
      online: db
        .prepare('SELECT COUNT(*) FROM stats_online WHERE last_seen >= ?')
        .pluck()
        .get(onlineSince) as number,
      topPages: merged(
        'SELECT page AS label, views AS count FROM insights_daily_pages WHERE day BETWEEN @cf AND @ct',
        'SELECT page AS label, 1 AS count FROM stats_hits WHERE day BETWEEN @of AND @ot',
      ),
      topReferrers: merged(
        'SELECT host AS label, views AS count FROM insights_daily_referrers WHERE day BETWEEN @cf AND @ct',
        `SELECT referrer_host AS label, 1 AS count FROM stats_hits
         WHERE day BETWEEN @of AND @ot AND referrer_host <> ''`,
      ),
      devices: merged(
        'SELECT device_type AS label, visitors AS count FROM insights_daily_visitors WHERE day BETWEEN @cf AND @ct',
        'SELECT device_type AS label, 1 AS count FROM stats_visitors WHERE day BETWEEN @of AND @ot',
      ),
      // Events are few next to hits: read raw over the whole range.
      downloads: rows(
        `SELECT file_name AS label, COUNT(*) AS count FROM stats_events
         WHERE day BETWEEN @from AND @to AND name = 'file_download'
         GROUP BY file_name ORDER BY count DESC, label LIMIT ${TOP}`,
        range,
      ),
      outboundLinks: rows(
        `SELECT target_url AS label, COUNT(*) AS count FROM stats_events
         WHERE day BETWEEN @from AND @to AND name = 'outbound_link'
         GROUP BY target_url ORDER BY count DESC, label LIMIT ${TOP}`,
        range,
      ),
    };
    return panel;
  }

  async searches(range: DayRange, { sessionHash }: { sessionHash: (sessionId: string) => string }) {
    return readSearches(this.#db, range, sessionHash);
  }

  async sources(range: DayRange, { today }: { today: string }): Promise<SourcesPanel> {
    await this.summarizeBefore(today);
    const db = this.#db;
    const closed = { cf: range.from, ct: range.to < today ? range.to : previousDay(today) };
    const open = { of: range.from > today ? range.from : today, ot: range.to };
    const period = { start: `${range.from}T00:00:00.000Z`, end: `${nextDay(range.to)}T00:00:00.000Z` };
    // Orders that count as revenue: not cancelled; the ones without attribution are `(unknown)`.
    const paid = `FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
      WHERE o.created_at >= @start AND o.created_at < @end AND o.status <> 'cancelled'`;
    const orderRows = db
      .prepare(
        `SELECT COALESCE(a.source_type, 'unknown') AS sourceType, COALESCE(NULLIF(a.utm_source, ''), '(none)') AS source,
           COALESCE(NULLIF(a.utm_medium, ''), '(none)') AS medium, COALESCE(NULLIF(a.utm_campaign, ''), '(none)') AS campaign,
           COUNT(*) AS orders, SUM(o.total) AS revenue ${paid}
         GROUP BY 1, 2, 3, 4`,
      )
      .all(period) as {
      sourceType: string;
      source: string;
      medium: string;
      campaign: string;
      orders: number;
      revenue: number;
    }[];
    const visitorRows = db
      .prepare(
        `SELECT source_type AS sourceType, source, SUM(visitors) AS visitors FROM (
           SELECT source_type, source, visitors FROM insights_daily_visitors WHERE day BETWEEN @cf AND @ct
           UNION ALL
           SELECT source_type, source, 1 FROM stats_visitors WHERE day BETWEEN @of AND @ot)
         GROUP BY 1, 2`,
      )
      .all({ ...closed, ...open }) as { sourceType: string; source: string; visitors: number }[];
    const rows = sourceRows(orderRows, visitorRows);
    const daily = db
      .prepare(
        `SELECT substr(o.created_at, 1, 10) AS day, COALESCE(a.source_type, 'unknown') AS sourceType,
           SUM(o.total) AS revenue ${paid} GROUP BY 1, 2 ORDER BY 1, 2`,
      )
      .all(period) as SourcesPanel['daily'];
    const currency =
      (db.prepare(`SELECT o.currency ${paid} LIMIT 1`).pluck().get(period) as string | undefined) ?? '';
    return { rows, daily, currency };
  }
}

/** The searches panel's queries (search_queries is small next to hits: read raw, by its own time index). */
export function readSearches(
  db: Database.Database,
  range: DayRange,
  sessionHash: (sessionId: string) => string,
): SearchesPanel {
  const window = {
    start: Date.parse(`${range.from}T00:00:00Z`),
    end: Date.parse(`${nextDay(range.to)}T00:00:00Z`),
  };
  // One pass: with a single max() SQLite reads the bare column `results` from the row holding it, i.e. the
  // query's latest search in the range (its result count is that of its latest search, as the engine reports it).
  const all = db
    .prepare(
      `SELECT query, COUNT(*) AS count, MAX(updated_at) AS lastSeen, results
       FROM search_queries WHERE updated_at >= @start AND updated_at < @end GROUP BY query`,
    )
    .all(window) as SearchQueryRow[];
  all.sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen || a.query.localeCompare(b.query));
  const top = all.slice(0, TOP);
  const zeroResults = all.filter((row) => row.results === 0).slice(0, TOP);
  // Orders of the range with a session: their sessions' searches made before the order.
  const orders = db
    .prepare(
      `SELECT session_id AS sessionId, created_at AS createdAt FROM orders
       WHERE session_id IS NOT NULL AND created_at >= ? AND created_at < ? AND status <> 'cancelled'`,
    )
    .all(`${range.from}T00:00:00.000Z`, `${nextDay(range.to)}T00:00:00.000Z`) as {
    sessionId: string;
    createdAt: string;
  }[];
  const led = db.prepare(
    'SELECT DISTINCT query FROM search_queries WHERE session_hash = ? AND created_at <= ?',
  );
  const purchases = new Map<string, number>();
  for (const order of orders)
    for (const query of led
      .pluck()
      .all(sessionHash(order.sessionId), Date.parse(order.createdAt)) as string[])
      purchases.set(query, (purchases.get(query) ?? 0) + 1);
  const purchased = [...purchases]
    .map(([query, count]) => ({ query, orders: count }))
    .sort((a, b) => b.orders - a.orders || a.query.localeCompare(b.query))
    .slice(0, TOP);
  return { top, zeroResults, purchased };
}
