import type Database from 'better-sqlite3';
import type { DayRange } from '../../../shared/dates/dayRange';
import type {
  CountRow,
  SearchesPanel,
  SearchQueryRow,
  SourcesPanel,
  VisitorsPanel,
} from '../../../shared/insights/insightsTypes';
import {
  CAMPAIGN_ROWS_SQL,
  DAILY_REVENUE_SQL,
  fillDays,
  latestSearches,
  nextDay,
  PAID_ORDERS_SQL,
  PURCHASED_SEARCHES_SQL,
  previousDay,
  SOURCE_ORDER_ROWS_SQL,
  SOURCE_VISITOR_ROWS_SQL,
  type SourceOrderRow,
  type SourceVisitorRow,
  searchWindow,
  sortPurchased,
  sourceRows,
  sourcesParams,
  TOP,
  UNATTRIBUTED_ORDERS_SQL,
} from '../insightsRows';
import type { InsightsRepository, OrderLink, SearchCartAdd } from '../ports';
import { withoutBusyWait } from './withoutBusyWait';

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

  async searches(range: DayRange) {
    return readSearches(this.#db, range);
  }

  async linkOrder(link: OrderLink): Promise<void> {
    const db = this.#db;
    // Fails at once when busy (withoutBusyWait): the caller's retry queue tries again.
    withoutBusyWait(db, () =>
      db
        .transaction(() => {
          db.prepare(
            `INSERT INTO order_visits (order_id, day, visitor_hash, source_type, source)
         SELECT @orderId, day, visitor_hash, source_type, source FROM stats_visitors
         WHERE day = @day AND visitor_hash = @visitorHash
         ON CONFLICT (order_id) DO NOTHING`,
          ).run(link);
          db.prepare(
            'UPDATE search_cart_adds SET order_id = @orderId WHERE session_hash = @sessionHash AND order_id IS NULL',
          ).run(link);
        })
        .immediate(),
    );
  }

  async sessionSearches(sessionHashes: readonly string[], since: number, until: number, limit: number) {
    // Per session hash, newest first along search_queries_session_created, stopping at `limit`.
    const latest = this.#db.prepare(
      `SELECT id, query, created_at FROM search_queries
       WHERE session_hash = ? AND created_at >= ? AND created_at <= ? AND results > 0
       ORDER BY created_at DESC, id DESC LIMIT ?`,
    );
    const rows = sessionHashes.flatMap(
      (hash) => latest.all(hash, since, until, limit) as { id: number; query: string; created_at: number }[],
    );
    return latestSearches(rows, limit);
  }

  async recordCartAdds(adds: readonly SearchCartAdd[]): Promise<void> {
    const insert = this.#db.prepare(
      `INSERT INTO search_cart_adds (query_id, session_hash, product_id, created_at)
       VALUES (@queryId, @sessionHash, @productId, @createdAt)`,
    );
    // Fails at once when busy (withoutBusyWait): the caller's retry queue tries again.
    withoutBusyWait(this.#db, () =>
      this.#db
        .transaction(() => {
          for (const add of adds) insert.run(add);
        })
        .immediate(),
    );
  }

  async plainRows(sql: string, params: Record<string, unknown>) {
    const statement = this.#db.prepare(sql);
    if (!statement.reader) throw new Error('The figures check only reads.');
    return statement.all(params) as Record<string, unknown>[];
  }

  async sources(range: DayRange, { today }: { today: string }): Promise<SourcesPanel> {
    await this.summarizeBefore(today);
    const db = this.#db;
    const { closed, open, period } = sourcesParams(range, today);
    const orderRows = db.prepare(SOURCE_ORDER_ROWS_SQL).all(period) as SourceOrderRow[];
    const visitorRows = db.prepare(SOURCE_VISITOR_ROWS_SQL).all({ ...closed, ...open }) as SourceVisitorRow[];
    const rows = sourceRows(orderRows, visitorRows);
    const unattributed = db.prepare(UNATTRIBUTED_ORDERS_SQL).get(period) as SourcesPanel['unattributed'];
    const campaigns = db
      .prepare(`${CAMPAIGN_ROWS_SQL} ORDER BY revenue DESC, orders DESC, 1, 2, 3, 4`)
      .all(period) as SourcesPanel['campaigns'];
    const daily = db.prepare(`${DAILY_REVENUE_SQL} ORDER BY 1, 2`).all(period) as SourcesPanel['daily'];
    const currency =
      (db.prepare(`SELECT o.currency ${PAID_ORDERS_SQL} LIMIT 1`).pluck().get(period) as
        | string
        | undefined) ?? '';
    return { rows, unattributed, campaigns, daily, currency };
  }
}

/** The searches panel's queries (search_queries is small next to hits: read raw, by its own time index). */
function readSearches(db: Database.Database, range: DayRange): SearchesPanel {
  const window = searchWindow(range);
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
  const purchased = sortPurchased(
    db
      .prepare(PURCHASED_SEARCHES_SQL)
      .all(sourcesParams(range, range.to).period) as SearchesPanel['purchased'],
  );
  return { top, zeroResults, purchased };
}
