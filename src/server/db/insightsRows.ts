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
/** A campaign's orders and revenue, before its source's visitors join them. */
export type SourceOrderRow = Omit<SourceRow, 'visitors' | 'conversionRate'>;
export interface SourceVisitorRow {
  sourceType: string;
  source: string;
  visitors: number;
}

/**
 * The sources panel's query parameters: finished days' visitors from the daily summary (@cf–@ct), today's from
 * the raw visitors (@of–@ot), and orders by their creation time (@start–@end).
 */
export function sourcesParams(range: DayRange, today: string) {
  return {
    closed: { cf: range.from, ct: range.to < today ? range.to : previousDay(today) },
    open: { of: range.from > today ? range.from : today, ot: range.to },
    period: { start: `${range.from}T00:00:00.000Z`, end: `${nextDay(range.to)}T00:00:00.000Z` },
  };
}

/** Orders that count as revenue: not cancelled; the ones without attribution are `(unknown)`. */
export const PAID_ORDERS_SQL = `FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
      WHERE o.created_at >= @start AND o.created_at < @end AND o.status <> 'cancelled'`;

/** Each campaign's paid orders and revenue (both engines; parameters: `period`). */
export const SOURCE_ORDER_ROWS_SQL = `SELECT COALESCE(a.source_type, 'unknown') AS "sourceType", COALESCE(NULLIF(a.utm_source, ''), '(none)') AS source,
           COALESCE(NULLIF(a.utm_medium, ''), '(none)') AS medium, COALESCE(NULLIF(a.utm_campaign, ''), '(none)') AS campaign,
           COUNT(*) AS orders, SUM(o.total) AS revenue ${PAID_ORDERS_SQL}
         GROUP BY 1, 2, 3, 4`;

/** Each source's visitors: the summary for finished days, the raw rows for today (parameters: `closed`, `open`). */
export const SOURCE_VISITOR_ROWS_SQL = `SELECT source_type AS "sourceType", source, SUM(visitors) AS visitors FROM (
           SELECT source_type, source, visitors FROM insights_daily_visitors WHERE day BETWEEN @cf AND @ct
           UNION ALL
           SELECT source_type, source, 1 FROM stats_visitors WHERE day BETWEEN @of AND @ot) merged
         GROUP BY 1, 2`;

/**
 * The sources table: each campaign's orders beside its source's visitors, then the sources that brought visitors
 * but no order (conversion 0), by revenue then visitors.
 */
export function sourceRows(
  orderRows: readonly SourceOrderRow[],
  visitorRows: readonly SourceVisitorRow[],
): SourceRow[] {
  const key = (row: { sourceType: string; source: string }) => `${row.sourceType}\u0000${row.source}`;
  const visitorsOf = new Map(visitorRows.map((row) => [key(row), row.visitors]));
  // One campaign's orders are a share of its source's visitors; the visitors column is the source's.
  const rows = orderRows.map((row): SourceRow => {
    const visitors = visitorsOf.get(key(row)) ?? 0;
    visitorsOf.delete(key(row));
    return { ...row, visitors, conversionRate: visitors > 0 ? row.orders / visitors : null };
  });
  for (const row of visitorRows) {
    if (!visitorsOf.has(key(row))) continue;
    rows.push({
      sourceType: row.sourceType,
      source: row.source,
      medium: '(none)',
      campaign: '(none)',
      orders: 0,
      revenue: 0,
      visitors: row.visitors,
      conversionRate: 0,
    });
  }
  return rows.sort((a, b) => b.revenue - a.revenue || b.visitors - a.visitors);
}
