import { parseArgs } from 'node:util';
import { addDays, type DayRange, dayOf } from '../../shared/dates/dayRange';
import { ShopError } from '../../shared/errors/ShopError';

export interface ReportOptions {
  range: DayRange;
  json: boolean;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `--from YYYY-MM-DD --to YYYY-MM-DD [--json]`, both days inclusive, in UTC; the default is the last 30 days
 * through today. Shared by every report so they read ranges alike.
 */
export function parseReportOptions(args: string[], now = new Date()): ReportOptions {
  const { values } = parseArgs({
    args,
    options: { from: { type: 'string' }, to: { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  return { ...reportRange(values, now), json: values.json ?? false };
}

/** The range of inclusive days `from`..`to` (UTC), each optional as in parseReportOptions. */
export function reportRange(
  given: { from?: string | undefined; to?: string | undefined },
  now = new Date(),
): { range: DayRange } {
  // The given days are checked before a default is counted from them: no arithmetic on a day that is not one.
  for (const day of [given.from, given.to])
    if (day !== undefined && (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))))
      throw new ShopError('invalid_request', `Not a date (YYYY-MM-DD): ${day}`);
  const to = given.to ?? dayOf(now.getTime());
  const from = given.from ?? addDays(to, -29);
  if (from > to) throw new ShopError('invalid_request', `The range starts (${from}) after it ends (${to})`);
  return { range: { from, to } };
}

/** Plain aligned columns for the terminal; numbers right-aligned. */
export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const numeric = header.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) =>
          numeric[column] ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
        )
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
