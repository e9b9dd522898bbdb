import type { DayRange } from '../../shared/dates/dayRange';
import type { InsightsPanels } from './insightsPanels';
import { toCsv } from './toCsv';

/** The tables the owner can download, each from one panel. */
export const EXPORT_TABLES = [
  'daily',
  'pages',
  'referrers',
  'downloads',
  'outbound',
  'devices',
  'sources',
  'campaigns',
  'revenue-daily',
  'searches',
  'zero-results',
  'purchased-searches',
] as const;
type ExportTable = (typeof EXPORT_TABLES)[number];

/** The download's file name: the table and its days, so exports of several ranges sit side by side. */
export function exportFileName(table: ExportTable, range: DayRange): string {
  return `insights-${table}-${range.from}-${range.to}.csv`;
}

/**
 * One table of a panel as CSV. Money is in major units (the shop's currency decimals) for spreadsheets, times are
 * ISO 8601.
 */
export async function exportTable(
  panels: InsightsPanels,
  table: ExportTable,
  range: DayRange,
  currencyDecimals: number,
): Promise<string> {
  const major = (minor: number) => minor / 10 ** currencyDecimals;
  const counts = (label: string, rows: { label: string; count: number }[]) =>
    toCsv(
      [label, 'count'],
      rows.map((row) => [row.label, row.count]),
    );
  if (table === 'searches' || table === 'zero-results' || table === 'purchased-searches') {
    const searches = await panels.searches(range);
    if (table === 'purchased-searches')
      return toCsv(
        ['query', 'orders'],
        searches.purchased.map((row) => [row.query, row.orders]),
      );
    return toCsv(
      ['query', 'searches', 'results', 'last_seen'],
      (table === 'searches' ? searches.top : searches.zeroResults).map((row) => [
        row.query,
        row.count,
        row.results,
        new Date(row.lastSeen).toISOString(),
      ]),
    );
  }
  if (table === 'sources' || table === 'campaigns' || table === 'revenue-daily') {
    const sources = await panels.sources(range);
    if (table === 'revenue-daily')
      return toCsv(
        ['day', 'source_type', 'revenue'],
        sources.daily.map((row) => [row.day, row.sourceType, major(row.revenue)]),
      );
    if (table === 'campaigns')
      return toCsv(
        ['source_type', 'source', 'medium', 'campaign', 'orders', 'revenue'],
        sources.campaigns.map((row) => [
          row.sourceType,
          row.source,
          row.medium,
          row.campaign,
          row.orders,
          major(row.revenue),
        ]),
      );
    // The unattributed orders are the last row: the column totals are the panel's totals.
    return toCsv(
      ['source_type', 'source', 'visitors', 'buyers', 'orders', 'revenue', 'conversion_rate'],
      [
        ...sources.rows.map((row) => [
          row.sourceType,
          row.source,
          row.visitors,
          row.buyers,
          row.orders,
          major(row.revenue),
          row.conversionRate,
        ]),
        ['unattributed', '', '', '', sources.unattributed.orders, major(sources.unattributed.revenue), ''],
      ],
    );
  }
  const visitors = await panels.visitors(range);
  if (table === 'daily')
    return toCsv(
      ['day', 'visitors', 'views'],
      visitors.daily.map((row) => [row.day, row.visitors, row.views]),
    );
  if (table === 'pages') return counts('page', visitors.topPages);
  if (table === 'referrers') return counts('referrer', visitors.topReferrers);
  if (table === 'downloads') return counts('file', visitors.downloads);
  if (table === 'outbound') return counts('url', visitors.outboundLinks);
  return counts('device', visitors.devices);
}
