import type { DayRange } from '../../shared/dates/dayRange';
import type { SourcesPanel, VisitorsPanel } from '../../shared/insights/insightsTypes';

/*
 * What the SQLite and PostgreSQL insights repositories share once their queries have answered: day arithmetic
 * (days are UTC `YYYY-MM-DD`) and the assembly of the panels' rows.
 */

const DAY_MS = 86_400_000;
/** Rows in each top list of a panel. */
export const TOP = 20;

export const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
export const previousDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** Every day of the range, zeros where nothing was recorded (charts need the gaps). */
export function fillDays(range: DayRange, daily: VisitorsPanel['daily']): VisitorsPanel['daily'] {
  const byDay = new Map(daily.map((row) => [row.day, row]));
  const all: VisitorsPanel['daily'] = [];
  for (let day = range.from; day <= range.to; day = nextDay(day))
    all.push(byDay.get(day) ?? { day, visitors: 0, views: 0 });
  return all;
}

type SourceRow = SourcesPanel['rows'][number];
/** A visit source's orders, before its visitors join them. */
export type SourceOrderRow = Pick<SourceRow, 'sourceType' | 'source' | 'orders' | 'revenue' | 'buyers'>;
export interface SourceVisitorRow {
  sourceType: string;
  source: string;
  visitors: number;
}

/**
 * The sources panel's query parameters: finished days' visitors from the daily summary (@cf–@ct), today's from
 * the raw visitors (@of–@ot), orders by their creation time (@start–@end) and their visit's day (@from–@to).
 */
export function sourcesParams(range: DayRange, today: string) {
  return {
    closed: { cf: range.from, ct: range.to < today ? range.to : previousDay(today) },
    open: { of: range.from > today ? range.from : today, ot: range.to },
    period: { start: `${range.from}T00:00:00.000Z`, end: `${nextDay(range.to)}T00:00:00.000Z` },
    days: { from: range.from, to: range.to },
  };
}

/**
 * Order statuses that are not a sale: never counted as orders, revenue or a purchase. The back office sets them;
 * every figure reads them at report time, so an order cancelled today leaves the figures at once.
 */
export const UNCOUNTED_ORDER_STATUSES = ['cancelled', 'refunded', 'failed'] as const;
const UNCOUNTED = UNCOUNTED_ORDER_STATUSES.map((status) => `'${status}'`).join(', ');
/** An SQL condition on `o` (orders): the order counts. */
export const COUNTED_ORDER_SQL = `o.status NOT IN (${UNCOUNTED})`;

/** Counted orders of the range (parameters: `period`); `a` is their attribution, `v` their visit, both optional. */
export const PAID_ORDERS_SQL = `FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
      LEFT JOIN order_visits v ON v.order_id = o.id
      WHERE o.created_at >= @start AND o.created_at < @end AND ${COUNTED_ORDER_SQL}`;

/** Each campaign's counted orders and revenue, as the checkout's attribution recorded it (parameters: `period`). */
export const CAMPAIGN_ROWS_SQL = `SELECT COALESCE(a.source_type, 'unknown') AS "sourceType", COALESCE(NULLIF(a.utm_source, ''), '(none)') AS source,
           COALESCE(NULLIF(a.utm_medium, ''), '(none)') AS medium, COALESCE(NULLIF(a.utm_campaign, ''), '(none)') AS campaign,
           COUNT(*) AS orders, SUM(o.total) AS revenue ${PAID_ORDERS_SQL}
         GROUP BY 1, 2, 3, 4`;

/**
 * Each visit source's counted orders, revenue and buyers (distinct visitors of a day); orders without a recorded
 * visit are left out here and counted as unattributed (parameters: `period`).
 */
export const SOURCE_ORDER_ROWS_SQL = `SELECT v.source_type AS "sourceType", v.source AS source, COUNT(*) AS orders,
           SUM(o.total) AS revenue, COUNT(DISTINCT v.day || ' ' || v.visitor_hash) AS buyers ${PAID_ORDERS_SQL}
           AND v.order_id IS NOT NULL
         GROUP BY 1, 2`;

/** Counted orders of the range without a recorded visit (parameters: `period`). */
export const UNATTRIBUTED_ORDERS_SQL = `SELECT COUNT(*) AS orders, COALESCE(SUM(o.total), 0) AS revenue ${PAID_ORDERS_SQL}
           AND v.order_id IS NULL`;

/** Revenue per day per visit source type, `unattributed` without a visit (parameters: `period`). */
export const DAILY_REVENUE_SQL = `SELECT substr(o.created_at, 1, 10) AS day, COALESCE(v.source_type, 'unattributed') AS "sourceType",
           SUM(o.total) AS revenue ${PAID_ORDERS_SQL} GROUP BY 1, 2`;

/** Each source's visitors: the summary for finished days, the raw rows for today (parameters: `closed`, `open`). */
export const SOURCE_VISITOR_ROWS_SQL = `SELECT source_type AS "sourceType", source, SUM(visitors) AS visitors FROM (
           SELECT source_type, source, visitors FROM insights_daily_visitors WHERE day BETWEEN @cf AND @ct
           UNION ALL
           SELECT source_type, source, 1 FROM stats_visitors WHERE day BETWEEN @of AND @ot) merged
         GROUP BY 1, 2`;

/**
 * The sources table: each visit source's visitors beside the orders its visitors placed, by revenue then
 * visitors. A buyer is one of the source's visitors, so the conversion rate (buyers ÷ visitors) is at most 100%.
 */
export function sourceRows(
  orderRows: readonly SourceOrderRow[],
  visitorRows: readonly SourceVisitorRow[],
): SourceRow[] {
  const key = (row: { sourceType: string; source: string }) => `${row.sourceType}\u0000${row.source}`;
  const ordersOf = new Map(orderRows.map((row) => [key(row), row]));
  const rows = visitorRows.map((row): SourceRow => {
    const bought = ordersOf.get(key(row));
    ordersOf.delete(key(row));
    const visitors = Number(row.visitors);
    const buyers = Number(bought?.buyers ?? 0);
    return {
      sourceType: row.sourceType,
      source: row.source,
      visitors,
      buyers,
      orders: Number(bought?.orders ?? 0),
      revenue: Number(bought?.revenue ?? 0),
      conversionRate: visitors > 0 ? buyers / visitors : null,
    };
  });
  // A visit whose visitor row is gone from both summary and raw tables cannot happen (the summary is built from
  // the rows the order's visit was read from); kept visible rather than dropped if it ever does.
  for (const row of ordersOf.values())
    rows.push({
      ...row,
      orders: Number(row.orders),
      revenue: Number(row.revenue),
      buyers: Number(row.buyers),
      visitors: 0,
      conversionRate: null,
    });
  return rows.sort(
    (a, b) =>
      b.revenue - a.revenue ||
      b.visitors - a.visitors ||
      a.sourceType.localeCompare(b.sourceType) ||
      a.source.localeCompare(b.source),
  );
}

/** The searches panel's window in Unix ms: the range's first day through its last. */
export function searchWindow(range: DayRange) {
  return {
    start: Date.parse(`${range.from}T00:00:00Z`),
    end: Date.parse(`${nextDay(range.to)}T00:00:00Z`),
  };
}

/**
 * Searches that led to a purchase: a search that found products, then an add-to-cart of one of them in the same
 * session (search_cart_adds), then that session's counted order in the range. One order counts once per query
 * (parameters: `period`).
 */
export const PURCHASED_SEARCHES_SQL = `SELECT q.query AS query, COUNT(DISTINCT c.order_id) AS orders
         FROM search_cart_adds c JOIN search_queries q ON q.id = c.query_id JOIN orders o ON o.id = c.order_id
         WHERE q.results > 0 AND o.created_at >= @start AND o.created_at < @end AND ${COUNTED_ORDER_SQL}
         GROUP BY q.query`;

/** The purchasing queries, most orders first, the top ones. */
export function sortPurchased(rows: readonly { query: string; orders: number | string }[]) {
  return rows
    .map((row) => ({ query: row.query, orders: Number(row.orders) }))
    .sort((a, b) => b.orders - a.orders || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0))
    .slice(0, TOP);
}

/** The latest `limit` of several sessions' searches (each list newest first), oldest first. */
export function latestSearches(
  rows: readonly { id: number; query: string; created_at: number | string }[],
  limit: number,
): { id: number; query: string }[] {
  return [...rows]
    .sort((a, b) => Number(b.created_at) - Number(a.created_at) || Number(b.id) - Number(a.id))
    .slice(0, limit)
    .sort((a, b) => Number(a.id) - Number(b.id))
    .map(({ id, query }) => ({ id: Number(id), query }));
}
