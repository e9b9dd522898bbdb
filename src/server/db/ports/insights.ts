import type { DayRange } from '../../../shared/dates/dayRange';
import type { SearchesPanel, SourcesPanel, VisitorsPanel } from '../../../shared/insights/insightsTypes';

/** Owner insights: closed days from the daily summaries of migration 0009, today from raw statistics. */
export interface InsightsRepository {
  /** Builds the missing daily summaries of days before `today`; answers how many days it summarized. */
  summarizeBefore(today: string): Promise<number>;
  visitors(range: DayRange, options: { today: string; onlineSince: number }): Promise<VisitorsPanel>;
  sources(range: DayRange, options: { today: string }): Promise<SourcesPanel>;
  /**
   * Search analytics (migration 0003) in the range; `sessionHash` is the search engine's keyed hash of a session id,
   * which joins an order's session to the searches before it.
   */
  searches(range: DayRange, options: { sessionHash: (sessionId: string) => string }): Promise<SearchesPanel>;
}
