import type { DayRange } from '../../../shared/dates/dayRange';
import type { SearchesPanel, SourcesPanel, VisitorsPanel } from '../../../shared/insights/insightsTypes';

/** A placed order's link to the visit it came from and to its session's searches. */
export interface OrderLink {
  orderId: number;
  /** The order's day (UTC), whose statistics visitor row is the order's visit. */
  day: string;
  /** The buyer's statistics visitor hash of that day. */
  visitorHash: string;
  /** The search engine's keyed hash of the order's session. */
  sessionHash: string;
}

export interface SearchCartAdd {
  queryId: number;
  sessionHash: string;
  productId: number;
  createdAt: number;
}

/** Owner insights: closed days from the daily summaries of migration 0009, today from raw statistics. */
export interface InsightsRepository {
  /** Builds the missing daily summaries of days before `today`; answers how many days it summarized. */
  summarizeBefore(today: string): Promise<number>;
  visitors(range: DayRange, options: { today: string; onlineSince: number }): Promise<VisitorsPanel>;
  sources(range: DayRange, options: { today: string }): Promise<SourcesPanel>;
  /** Search analytics (migration 0003) in the range, with the searches that led to a purchase (migration 0022). */
  searches(range: DayRange): Promise<SearchesPanel>;
  /**
   * Records the order's visit (when that day's visitor row exists) and marks its session's search cart adds as
   * leading to it, in one transaction.
   */
  linkOrder(link: OrderLink): Promise<void>;
  /**
   * Searches that found something, made by any of these session hashes between `since` and `until` (Unix ms): the
   * latest `limit` of them, oldest first.
   */
  sessionSearches(
    sessionHashes: readonly string[],
    since: number,
    until: number,
    limit: number,
  ): Promise<{ id: number; query: string }[]>;
  recordCartAdds(adds: readonly SearchCartAdd[]): Promise<void>;
  /**
   * Read-only plain SQL with `@name` parameters, for the figures check that recomputes the page from the raw
   * tables; numbers come back as numbers on both engines.
   */
  plainRows(sql: string, params: Record<string, unknown>): Promise<Record<string, unknown>[]>;
}
