import { z } from 'zod';
import { addDays, dayOf } from '../../shared/dates/dayRange';
import { ShopError } from '../../shared/errors/ShopError';
import { type InsightsRange, RANGE_PRESETS } from '../../shared/insights/insightsTypes';

const DAY_MS = 86_400_000;
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is YYYY-MM-DD');

/** The date range every panel shares, as the URL carries it: `range=7|30|90` or `range=custom&from=…&to=…`. */
export const rangeQuery = z.object({
  range: z.enum(RANGE_PRESETS).default('30'),
  from: day.optional(),
  to: day.optional(),
});
export type RangeQuery = z.infer<typeof rangeQuery>;

const MAX_DAYS = 400;

/** Days ending today for the presets; a custom range is clamped to today and to 400 days. */
export function resolveRange(query: RangeQuery, nowMs: number): InsightsRange {
  const today = dayOf(nowMs);
  if (query.range !== 'custom') {
    return { preset: query.range, from: addDays(today, 1 - Number(query.range)), to: today };
  }
  const from = query.from ?? addDays(today, -29);
  let to = query.to ?? today;
  for (const value of [from, to])
    if (Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
      throw new ShopError('invalid_request', `Not a date: ${value}`);
  if (to > today) to = today;
  if (from > to) throw new ShopError('invalid_request', `The range starts (${from}) after it ends (${to}).`);
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS >= MAX_DAYS)
    throw new ShopError('invalid_request', `A range is at most ${MAX_DAYS} days.`);
  return { preset: 'custom', from, to };
}

/** The query string of a range, for links that keep it (export, sort, the picker). */
export function rangeSearch(range: InsightsRange): string {
  return range.preset === 'custom'
    ? `range=custom&from=${range.from}&to=${range.to}`
    : `range=${range.preset}`;
}
