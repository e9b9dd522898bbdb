/* Visitor statistics as repositories and reports see them. Times are Unix milliseconds. */

export interface NewHit {
  kind: 'hit';
  createdAt: number;
  day: string;
  /** Null for an anonymous hit. */
  visitorHash: string | null;
  page: string;
  pageType: string;
  pageId: number;
  searchQuery: string;
  referrer: string;
  referrerHost: string;
  sourceType: string;
  source: string;
  browser: string;
  os: string;
  deviceType: string;
}

export interface NewEvent {
  kind: 'event';
  createdAt: number;
  day: string;
  visitorHash: string | null;
  name: 'file_download' | 'outbound_link';
  targetUrl: string;
  linkDomain: string;
  linkPath: string;
  fileName: string;
  fileExt: string;
  elementId: string;
  elementClasses: string;
  elementText: string;
  mouseButton: number;
  pageId: number;
  shopDownload: boolean;
  eventTime: number;
}

export type ExclusionReason = 'bot' | 'owner' | 'excluded_url';

/** A hit not counted: only the day's count per reason (and per bot family) grows. */
export interface NewExclusion {
  kind: 'exclusion';
  day: string;
  reason: ExclusionReason;
  /** A bot's family (`botFamilyOf`); empty for the other reasons. */
  agent: string;
}

/** What the group commit writes in one transaction. */
export type StatsRecord = NewHit | NewEvent | NewExclusion;

export interface OnlineEntry {
  visitorHash: string;
  /** The keyed hash of the client's address: one address adds a bounded number of entries. */
  addressHash: string;
  page: string;
  firstSeen: number;
  lastSeen: number;
}

export interface StatsReport {
  from: string;
  to: string;
  /** Distinct visitors per day, summed over the range (a visitor's hash changes every day by design). */
  visitors: number;
  views: number;
  topPages: { page: string; views: number }[];
  topReferrers: { host: string; views: number }[];
  sources: { sourceType: string; visitors: number }[];
  onlineNow: number;
  events: { name: string; count: number }[];
  topEventTargets: { name: string; target: string; count: number }[];
  exclusions: { reason: string; count: number }[];
  /** Bot hits by family (googlebot, curl, … or other). */
  bots: { agent: string; count: number }[];
}
