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
import { queryNamed } from './namedQuery';
import { inTransaction, type PgPool } from './openPostgres';

/**
 * The PostgreSQL twin of SqliteInsightsRepository, query for query. Labels sort with COLLATE "C" (byte order, as
 * SQLite's BINARY collation), camelCase aliases are quoted, day parameters are cast to text.
 */
export class PgInsightsRepository implements InsightsRepository {
  #pool: PgPool;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  #rows<R extends object>(sql: string, params: Record<string, unknown>): Promise<R[]> {
    return queryNamed<R>(this.#pool, sql, params);
  }

  /** Summarizes every closed day with hits that has no summary yet (one transaction per day). */
  async summarizeBefore(today: string): Promise<number> {
    const [firstRow] = await this.#rows<{ first: string | null }>(
      'SELECT MIN(day) AS first FROM stats_hits',
      {},
    );
    const first = firstRow?.first;
    if (!first) return 0;
    const last = previousDay(today);
    const done = new Set(
      (
        await this.#rows<{ day: string }>(
          'SELECT day FROM insights_days WHERE day BETWEEN @first AND @last',
          {
            first,
            last,
          },
        )
      ).map((row) => row.day),
    );
    let count = 0;
    for (let day = first; day <= last; day = nextDay(day)) {
      if (done.has(day)) continue;
      const summarized = await inTransaction(this.#pool, async (client) => {
        // Another process may be summarizing the same day: the key makes it wait, then do nothing.
        const claimed = await queryNamed(
          client,
          `INSERT INTO insights_days (day, views, visitors)
           SELECT @day, (SELECT COUNT(*) FROM stats_hits WHERE day = @day),
             (SELECT COUNT(*) FROM stats_visitors WHERE day = @day)
           ON CONFLICT (day) DO NOTHING RETURNING day`,
          { day },
        );
        if (claimed.length === 0) return false;
        await queryNamed(
          client,
          `INSERT INTO insights_daily_pages (day, page, views)
           SELECT day, page, COUNT(*) FROM stats_hits WHERE day = @day GROUP BY day, page`,
          { day },
        );
        await queryNamed(
          client,
          `INSERT INTO insights_daily_referrers (day, host, views)
           SELECT day, referrer_host, COUNT(*) FROM stats_hits WHERE day = @day AND referrer_host <> ''
           GROUP BY day, referrer_host`,
          { day },
        );
        await queryNamed(
          client,
          `INSERT INTO insights_daily_visitors (day, device_type, source_type, source, visitors)
           SELECT day, device_type, source_type, source, COUNT(*) FROM stats_visitors WHERE day = @day
           GROUP BY day, device_type, source_type, source`,
          { day },
        );
        return true;
      });
      if (summarized) count += 1;
    }
    return count;
  }

  async visitors(range: DayRange, { today, onlineSince }: { today: string; onlineSince: number }) {
    await this.summarizeBefore(today);
    const closed = { from: range.from, to: range.to < today ? range.to : previousDay(today) };
    const open = { from: range.from > today ? range.from : today, to: range.to };
    const days = { cf: closed.from, ct: closed.to, of: open.from, ot: open.to };
    const merged = (summary: string, raw: string) =>
      this.#rows<CountRow>(
        `SELECT label, SUM(count) AS count FROM (${summary} UNION ALL ${raw}) merged
         GROUP BY label ORDER BY count DESC, label COLLATE "C" LIMIT ${TOP}`,
        days,
      );
    const events = (name: string, column: string) =>
      this.#rows<CountRow>(
        `SELECT ${column} AS label, COUNT(*) AS count FROM stats_events
         WHERE day BETWEEN @from AND @to AND name = '${name}'
         GROUP BY ${column} ORDER BY count DESC, ${column} COLLATE "C" LIMIT ${TOP}`,
        { from: range.from, to: range.to },
      );
    const [daily, online, topPages, topReferrers, devices, downloads, outboundLinks] = await Promise.all([
      this.#rows<VisitorsPanel['daily'][number]>(
        `SELECT day, visitors, views FROM insights_days WHERE day BETWEEN @cf AND @ct
         UNION ALL
         SELECT @of::text AS day,
           (SELECT COUNT(*) FROM stats_visitors WHERE day BETWEEN @of AND @ot) AS visitors,
           (SELECT COUNT(*) FROM stats_hits WHERE day BETWEEN @of AND @ot) AS views
         WHERE @of::text <= @ot::text
         ORDER BY day`,
        days,
      ),
      this.#rows<{ n: number }>('SELECT COUNT(*) AS n FROM stats_online WHERE last_seen >= @since', {
        since: onlineSince,
      }),
      merged(
        'SELECT page AS label, views AS count FROM insights_daily_pages WHERE day BETWEEN @cf AND @ct',
        'SELECT page AS label, 1 AS count FROM stats_hits WHERE day BETWEEN @of AND @ot',
      ),
      merged(
        'SELECT host AS label, views AS count FROM insights_daily_referrers WHERE day BETWEEN @cf AND @ct',
        `SELECT referrer_host AS label, 1 AS count FROM stats_hits
         WHERE day BETWEEN @of AND @ot AND referrer_host <> ''`,
      ),
      merged(
        'SELECT device_type AS label, visitors AS count FROM insights_daily_visitors WHERE day BETWEEN @cf AND @ct',
        'SELECT device_type AS label, 1 AS count FROM stats_visitors WHERE day BETWEEN @of AND @ot',
      ),
      // Events are few next to hits: read raw over the whole range.
      events('file_download', 'file_name'),
      events('outbound_link', 'target_url'),
    ]);
    const panel: VisitorsPanel = {
      daily: fillDays(range, daily),
      online: online[0]?.n ?? 0,
      topPages,
      topReferrers,
      devices,
      downloads,
      outboundLinks,
    };
    return panel;
  }

  async searches(range: DayRange, { sessionHash }: { sessionHash: (sessionId: string) => string }) {
    const window = {
      start: Date.parse(`${range.from}T00:00:00Z`),
      end: Date.parse(`${nextDay(range.to)}T00:00:00Z`),
    };
    // The result count of a query's latest search in the range, as SQLite's bare column beside max() gives it.
    const all = await this.#rows<SearchQueryRow>(
      `SELECT query, COUNT(*) AS count, MAX(updated_at) AS "lastSeen",
         (array_agg(results ORDER BY updated_at DESC))[1] AS results
       FROM search_queries WHERE updated_at >= @start AND updated_at < @end GROUP BY query`,
      window,
    );
    all.sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen || a.query.localeCompare(b.query));
    const top = all.slice(0, TOP);
    const zeroResults = all.filter((row) => row.results === 0).slice(0, TOP);
    const orders = await this.#rows<{ sessionId: string; createdAt: string }>(
      `SELECT session_id AS "sessionId", created_at AS "createdAt" FROM orders
       WHERE session_id IS NOT NULL AND created_at >= @start AND created_at < @end AND status <> 'cancelled'`,
      { start: `${range.from}T00:00:00.000Z`, end: `${nextDay(range.to)}T00:00:00.000Z` },
    );
    const purchases = new Map<string, number>();
    for (const order of orders) {
      const led = await this.#rows<{ query: string }>(
        'SELECT DISTINCT query FROM search_queries WHERE session_hash = @hash AND created_at <= @at',
        { hash: sessionHash(order.sessionId), at: Date.parse(order.createdAt) },
      );
      for (const { query } of led) purchases.set(query, (purchases.get(query) ?? 0) + 1);
    }
    const purchased = [...purchases]
      .map(([query, count]) => ({ query, orders: count }))
      .sort((a, b) => b.orders - a.orders || a.query.localeCompare(b.query))
      .slice(0, TOP);
    const panel: SearchesPanel = { top, zeroResults, purchased };
    return panel;
  }

  async sources(range: DayRange, { today }: { today: string }): Promise<SourcesPanel> {
    await this.summarizeBefore(today);
    const closed = { cf: range.from, ct: range.to < today ? range.to : previousDay(today) };
    const open = { of: range.from > today ? range.from : today, ot: range.to };
    const period = { start: `${range.from}T00:00:00.000Z`, end: `${nextDay(range.to)}T00:00:00.000Z` };
    // Orders that count as revenue: not cancelled; the ones without attribution are `(unknown)`.
    const paid = `FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
      WHERE o.created_at >= @start AND o.created_at < @end AND o.status <> 'cancelled'`;
    const [orderRows, visitorRows, daily, currencyRows] = await Promise.all([
      this.#rows<{
        sourceType: string;
        source: string;
        medium: string;
        campaign: string;
        orders: number;
        revenue: number;
      }>(
        `SELECT COALESCE(a.source_type, 'unknown') AS "sourceType", COALESCE(NULLIF(a.utm_source, ''), '(none)') AS source,
           COALESCE(NULLIF(a.utm_medium, ''), '(none)') AS medium, COALESCE(NULLIF(a.utm_campaign, ''), '(none)') AS campaign,
           COUNT(*) AS orders, SUM(o.total) AS revenue ${paid}
         GROUP BY 1, 2, 3, 4`,
        period,
      ),
      this.#rows<{ sourceType: string; source: string; visitors: number }>(
        `SELECT source_type AS "sourceType", source, SUM(visitors) AS visitors FROM (
           SELECT source_type, source, visitors FROM insights_daily_visitors WHERE day BETWEEN @cf AND @ct
           UNION ALL
           SELECT source_type, source, 1 FROM stats_visitors WHERE day BETWEEN @of AND @ot) merged
         GROUP BY 1, 2`,
        { ...closed, ...open },
      ),
      this.#rows<SourcesPanel['daily'][number]>(
        `SELECT substr(o.created_at, 1, 10) AS day, COALESCE(a.source_type, 'unknown') AS "sourceType",
           SUM(o.total) AS revenue ${paid} GROUP BY 1, 2
         ORDER BY substr(o.created_at, 1, 10), COALESCE(a.source_type, 'unknown') COLLATE "C"`,
        period,
      ),
      this.#rows<{ currency: string }>(`SELECT o.currency ${paid} LIMIT 1`, period),
    ]);
    const rows = sourceRows(orderRows, visitorRows);
    return { rows, daily, currency: currencyRows[0]?.currency ?? '' };
  }
}
