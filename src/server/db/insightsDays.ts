import type { DayRange, VisitorsPanel } from '../../shared/insights/insightsTypes';

/* Day arithmetic and constants the SQLite and PostgreSQL insights repositories share (days are UTC `YYYY-MM-DD`). */

const DAY_MS = 86_400_000;
/** Rows in each top list of a panel. */
export const TOP = 20;

export const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
export const previousDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** Every day of the range, zeros where nothing was recorded (charts need the gaps). */
export function fillDays(range: DayRange, daily: VisitorsPanel['daily']): VisitorsPanel['daily'] {
  const byDay = new Map(daily.map((row) => [row.day, row]));
  const all: VisitorsPanel['daily'] = [];
  for (let day = range.from; day <= range.to; day = nextDay(day))
    all.push(byDay.get(day) ?? { day, visitors: 0, views: 0 });
  return all;
}
