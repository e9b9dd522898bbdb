import type { DayRange } from '../dates/dayRange';

/** Owner insights: what the page, the JSON endpoints and the CSV exports share. Days are UTC YYYY-MM-DD. */

/** The range picker's choices: the last 7, 30 or 90 days through today, or days the owner picks. */
export const RANGE_PRESETS = ['7', '30', '90', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/** The days the insights show, with the picker's choice that gave them. */
export interface InsightsRange extends DayRange {
  preset: RangePreset;
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
