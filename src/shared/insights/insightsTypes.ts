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

/** One source of visits (where a visitor's day's first visit came from) with the orders its visitors placed. */
export interface SourceRow {
  sourceType: string;
  source: string;
  /** Visitors whose day's first visit had this source type and source (visitor statistics). */
  visitors: number;
  /** Of those visitors, the ones who placed at least one counted order that day. */
  buyers: number;
  /** Counted orders placed by those visitors. */
  orders: number;
  /** Minor units (cents), like order totals. */
  revenue: number;
  /** buyers / visitors (never above 1); null without visitors. */
  conversionRate: number | null;
}

/** Orders and revenue by the campaign the checkout's attribution recorded (no visitors: see SourceRow). */
export interface CampaignRow {
  sourceType: string;
  source: string;
  medium: string;
  campaign: string;
  orders: number;
  revenue: number;
}

export interface SourcesPanel {
  rows: SourceRow[];
  /** Counted orders whose visit was not recorded (no statistics consent, tracker blocked): never divided. */
  unattributed: { orders: number; revenue: number };
  campaigns: CampaignRow[];
  /** Revenue per day per source type of the order's visit ('unattributed' without one; minor units). */
  daily: { day: string; sourceType: string; revenue: number }[];
  currency: string;
}

export const SOURCE_SORT_KEYS = [
  'sourceType',
  'source',
  'visitors',
  'buyers',
  'orders',
  'revenue',
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
  /**
   * Queries that led to a purchase: a search that found products, then an add-to-cart of one of them, then an
   * order, in one session; the order counted and in the range.
   */
  purchased: { query: string; orders: number }[];
}
