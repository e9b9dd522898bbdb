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

/**
 * The sources table: each campaign's orders beside its source's visitors, then the sources that brought visitors
 * but no order (conversion 0), by revenue then visitors.
 */
export function sourceRows(
  orderRows: readonly Omit<SourceRow, 'visitors' | 'conversionRate'>[],
  visitorRows: readonly { sourceType: string; source: string; visitors: number }[],
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
