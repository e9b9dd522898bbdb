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
import { queryNamed } from './namedQuery';
import { inTransaction, type PgPool } from './openPostgres';
import { withoutLockWait } from './withoutLockWait';

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

  async searches(range: DayRange) {
    const window = searchWindow(range);
    // The result count of a query's latest search in the range, as SQLite's bare column beside max() gives it.
    const [all, purchased] = await Promise.all([
      this.#rows<SearchQueryRow>(
        `SELECT query, COUNT(*) AS count, MAX(updated_at) AS "lastSeen",
           (array_agg(results ORDER BY updated_at DESC))[1] AS results
         FROM search_queries WHERE updated_at >= @start AND updated_at < @end GROUP BY query`,
        window,
      ),
      this.#rows<SearchesPanel['purchased'][number]>(
        PURCHASED_SEARCHES_SQL,
        sourcesParams(range, range.to).period,
      ),
    ]);
    all.sort((a, b) => b.count - a.count || b.lastSeen - a.lastSeen || a.query.localeCompare(b.query));
    const panel: SearchesPanel = {
      top: all.slice(0, TOP),
      zeroResults: all.filter((row) => row.results === 0).slice(0, TOP),
      purchased: sortPurchased(purchased),
    };
    return panel;
  }

  async linkOrder(link: OrderLink): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      await withoutLockWait(client);
      await queryNamed(
        client,
        `INSERT INTO order_visits (order_id, day, visitor_hash, source_type, source)
         SELECT @orderId, day, visitor_hash, source_type, source FROM stats_visitors
         WHERE day = @day AND visitor_hash = @visitorHash
         ON CONFLICT (order_id) DO NOTHING`,
        { ...link },
      );
      await queryNamed(
        client,
        'UPDATE search_cart_adds SET order_id = @orderId WHERE session_hash = @sessionHash AND order_id IS NULL',
        { orderId: link.orderId, sessionHash: link.sessionHash },
      );
    });
  }

  async sessionSearches(sessionHashes: readonly string[], since: number, until: number, limit: number) {
    if (sessionHashes.length === 0) return [];
    // Per session hash, newest first along search_queries_session_created, stopping at `limit`.
    const rows = await this.#rows<{ id: number; query: string; created_at: number | string }>(
      `SELECT latest.id, latest.query, latest.created_at FROM unnest(@hashes::text[]) AS session (hash)
       CROSS JOIN LATERAL (
         SELECT id, query, created_at FROM search_queries
         WHERE session_hash = session.hash AND created_at >= @since AND created_at <= @until AND results > 0
         ORDER BY created_at DESC, id DESC LIMIT @limit
       ) AS latest`,
      { hashes: [...sessionHashes], since, until, limit },
    );
    return latestSearches(rows, limit);
  }

  async recordCartAdds(adds: readonly SearchCartAdd[]): Promise<void> {
    if (adds.length === 0) return;
    await inTransaction(this.#pool, async (client) => {
      await withoutLockWait(client);
      for (const add of adds)
        await queryNamed(
          client,
          `INSERT INTO search_cart_adds (query_id, session_hash, product_id, created_at)
           VALUES (@queryId, @sessionHash, @productId, @createdAt)`,
          { ...add },
        );
    });
  }

  async plainRows(sql: string, params: Record<string, unknown>) {
    return inTransaction(this.#pool, async (client) => {
      // The figures check only reads.
      await client.query('SET TRANSACTION READ ONLY');
      return queryNamed(client, sql, params);
    });
  }

  async sources(range: DayRange, { today }: { today: string }): Promise<SourcesPanel> {
    await this.summarizeBefore(today);
    const { closed, open, period } = sourcesParams(range, today);
    const [orderRows, visitorRows, unattributed, campaigns, daily, currencyRows] = await Promise.all([
      this.#rows<SourceOrderRow>(SOURCE_ORDER_ROWS_SQL, period),
      this.#rows<SourceVisitorRow>(SOURCE_VISITOR_ROWS_SQL, { ...closed, ...open }),
      this.#rows<SourcesPanel['unattributed']>(UNATTRIBUTED_ORDERS_SQL, period),
      this.#rows<SourcesPanel['campaigns'][number]>(
        `SELECT * FROM (${CAMPAIGN_ROWS_SQL}) campaigns ORDER BY revenue DESC, orders DESC,
           "sourceType" COLLATE "C", source COLLATE "C", medium COLLATE "C", campaign COLLATE "C"`,
        period,
      ),
      this.#rows<SourcesPanel['daily'][number]>(
        `SELECT * FROM (${DAILY_REVENUE_SQL}) daily ORDER BY day, "sourceType" COLLATE "C"`,
        period,
      ),
      this.#rows<{ currency: string }>(`SELECT o.currency ${PAID_ORDERS_SQL} LIMIT 1`, period),
    ]);
    return {
      rows: sourceRows(orderRows, visitorRows),
      unattributed: unattributed[0] ?? { orders: 0, revenue: 0 },
      campaigns,
      daily,
      currency: currencyRows[0]?.currency ?? '',
    };
  }
}
