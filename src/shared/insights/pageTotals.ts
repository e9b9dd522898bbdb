import type { SourcesPanel, VisitorsPanel } from './insightsTypes';

/** The headline figures of the insights page, each the sum of its table's rows (the figures check reads these). */
export interface PageTotals {
  visitors: number;
  views: number;
  /** Visitors of the sources table (the same visitors, counted by source). */
  sourceVisitors: number;
  buyers: number;
  /** Counted orders: the sources' and the unattributed ones. */
  orders: number;
  revenue: number;
  /** buyers ÷ sourceVisitors; null without visitors. */
  conversionRate: number | null;
}

export function pageTotals(visitors: VisitorsPanel, sources: SourcesPanel): PageTotals {
  const daily = (key: 'visitors' | 'views') => visitors.daily.reduce((total, row) => total + row[key], 0);
  const rows = (key: 'visitors' | 'buyers' | 'orders' | 'revenue') =>
    sources.rows.reduce((total, row) => total + row[key], 0);
  const sourceVisitors = rows('visitors');
  const buyers = rows('buyers');
  return {
    visitors: daily('visitors'),
    views: daily('views'),
    sourceVisitors,
    buyers,
    orders: rows('orders') + sources.unattributed.orders,
    revenue: rows('revenue') + sources.unattributed.revenue,
    conversionRate: sourceVisitors > 0 ? buyers / sourceVisitors : null,
  };
}
