import type { Repositories } from '../db/ports';

const DAY_MS = 86_400_000;
const HOUR_MS = 60 * 60 * 1000;

export interface StatsRetentionOptions {
  repositories: Repositories;
  retentionDays: number;
  onlineWindowMs: number;
  now: () => number;
}

/**
 * One retention pass: raw statistics (hits, visitors, events) and search analytics older than `retentionDays` are
 * deleted. The closed days are summarized first, so the insights' daily summaries (counts only) outlive their raw
 * rows even when nobody opened the insights since; the daily excluded-hit counts are kept too.
 */
export async function applyStatsRetention({
  repositories,
  retentionDays,
  onlineWindowMs,
  now,
}: StatsRetentionOptions): Promise<void> {
  const at = now();
  const today = new Date(at).toISOString().slice(0, 10);
  const cutoff = new Date(at - retentionDays * DAY_MS).toISOString().slice(0, 10);
  const yesterday = new Date(at - DAY_MS).toISOString().slice(0, 10);
  await repositories.insights.summarizeBefore(today);
  // Salts go after one day: a hash can never be recomputed later (the salt of today and yesterday stay for
  // visits that span midnight).
  await repositories.stats.deleteBefore(cutoff, {
    saltsBefore: yesterday,
    onlineBefore: at - onlineWindowMs,
  });
  await repositories.search.deleteQueriesBefore(Date.parse(`${cutoff}T00:00:00Z`));
}

/** Runs retention once now and then hourly (a failed pass waits for the next); `stop` ends it. */
export function startStatsRetention(options: StatsRetentionOptions): { stop(): void } {
  const run = () => void applyStatsRetention(options).catch(() => undefined);
  run();
  const timer = setInterval(run, HOUR_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
