/*
 * The shop's one date range. Every report, panel and URL counts whole UTC days, so a range names its first and last
 * day; SQL that compares timestamps asks dayRangeBounds for the instants instead of keeping a second kind of range.
 */

/**
 * Whole days in UTC as `YYYY-MM-DD`, both ends inclusive: `{from: '2026-01-01', to: '2026-01-31'}` is all of
 * January, and `from === to` is one day.
 */
export interface DayRange {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

/** The UTC day of an instant (Unix ms). */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `count` days after `day` (before it when negative). */
export function addDays(day: string, count: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS);
}

/**
 * The instants a day range covers, as ISO 8601 timestamps: `start` (inclusive) is the first day's midnight, `end`
 * (exclusive) the midnight after the last day, so `start <= t < end` holds for every instant of the range.
 */
export function dayRangeBounds(range: DayRange): { start: string; end: string } {
  return { start: `${range.from}T00:00:00.000Z`, end: `${addDays(range.to, 1)}T00:00:00.000Z` };
}
