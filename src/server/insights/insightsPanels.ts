import type { DayRange } from '../../shared/dates/dayRange';
import type {
  SearchesPanel,
  SourceRow,
  SourceSortKey,
  SourcesPanel,
  VisitorsPanel,
} from '../../shared/insights/insightsTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { InsightsRepository } from '../db/ports';
import { onlineWindowMs } from '../stats/onlineWindow';

export interface InsightsPanels {
  visitors(range: DayRange): Promise<VisitorsPanel>;
  sources(range: DayRange): Promise<SourcesPanel>;
  searches(range: DayRange): Promise<SearchesPanel>;
}

/**
 * The owner's three panels over a range of days. Today is read from the raw statistics (its summary is not built
 * yet), so every panel is told which day today is; visitors seen within the online window count as online.
 */
export function createInsightsPanels(options: {
  insights: InsightsRepository;
  config: ShopConfig;
  now: () => number;
}): InsightsPanels {
  const { insights, config, now } = options;
  const today = () => new Date(now()).toISOString().slice(0, 10);
  return {
    visitors: (range) =>
      insights.visitors(range, {
        today: today(),
        onlineSince: now() - onlineWindowMs(config.stats.jsCheckTime),
      }),
    sources: (range) => insights.sources(range, { today: today() }),
    searches: (range) => insights.searches(range),
  };
}

/** Source rows in the owner's chosen order; a missing conversion rate sorts below every rate. */
export function sortSourceRows(rows: SourceRow[], key: SourceSortKey, dir: 'asc' | 'desc'): SourceRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = a[key] ?? -1;
    const right = b[key] ?? -1;
    return (
      (typeof left === 'number' && typeof right === 'number'
        ? left - right
        : String(left).localeCompare(String(right))) * sign
    );
  });
}
