import type { InsightsRepository } from '../db/ports';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Closed days are summarized in the background, at start and then once an hour, so a report rarely pays for it.
 * A failed run is left to the next one: the summaries are built for every missing day before today.
 */
export function scheduleDailySummaries(insights: InsightsRepository, now: () => number) {
  const summarize = () =>
    void insights.summarizeBefore(new Date(now()).toISOString().slice(0, 10)).catch(() => undefined);
  const timer = setInterval(summarize, HOUR_MS);
  timer.unref();
  return {
    runNow: summarize,
    stop: () => clearInterval(timer),
  };
}
