import type { StatsRecord } from '../../shared/stats/statsTypes';

/**
 * The excluded hits of a batch as one count per day, reason and agent, in key order: both engines add them to
 * stats_exclusion_days in this order, so two batches updating the same counters lock them in the same order and
 * cannot deadlock.
 */
export function exclusionCounts(
  records: StatsRecord[],
): { day: string; reason: string; agent: string; hits: number }[] {
  const counts = new Map<string, { day: string; reason: string; agent: string; hits: number }>();
  for (const record of records) {
    if (record.kind !== 'exclusion') continue;
    const key = `${record.day}\u0000${record.reason}\u0000${record.agent}`;
    const row = counts.get(key);
    if (row) row.hits += 1;
    else counts.set(key, { day: record.day, reason: record.reason, agent: record.agent, hits: 1 });
  }
  return [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
