/** Owner insights (issue 13): what the page, the JSON endpoints and the CSV exports share. Days are UTC YYYY-MM-DD. */

export interface DayRange {
  /** Inclusive first and last day. */
  from: string;
  to: string;
}

export interface CountRow {
  label: string;
  count: number;
}

export interface VisitorsPanel {
  daily: { day: string; visitors: number; views: number }[];
  online: number;
  topPages: CountRow[];
  topReferrers: CountRow[];
  downloads: CountRow[];
  outboundLinks: CountRow[];
  devices: CountRow[];
}

export interface SourceRow {
  sourceType: string;
  source: string;
  medium: string;
  campaign: string;
  orders: number;
  /** Minor units (cents), like order totals. */
  revenue: number;
  /** Visitors whose day's first visit had this source type and source (visitor statistics). */
  visitors: number;
  /** orders / visitors, null without visitors. */
  conversionRate: number | null;
}

export interface SourcesPanel {
  rows: SourceRow[];
  /** Revenue per day per source type (minor units), for the chart. */
  daily: { day: string; sourceType: string; revenue: number }[];
  currency: string;
}

export const SOURCE_SORT_KEYS = [
  'sourceType',
  'source',
  'medium',
  'campaign',
  'orders',
  'revenue',
  'visitors',
  'conversionRate',
] as const;
export type SourceSortKey = (typeof SOURCE_SORT_KEYS)[number];

export interface SearchQueryRow {
  query: string;
  /** Searches of it in the range (one per typing burst or results page). */
  count: number;
  /** Products its latest search in the range found. */
  results: number;
  /** Unix ms of its latest search in the range. */
  lastSeen: number;
}

export interface SearchesPanel {
  top: SearchQueryRow[];
  /** The owner's inbox: queries whose latest search found nothing. */
  zeroResults: SearchQueryRow[];
  /** Queries searched in a session that then ordered (the order in the range, the search before it). */
  purchased: { query: string; orders: number }[];
}
