import { parseSettings } from '../../shared/settings/parseSettings';
import type { ReportContext } from './attributionReport';
import { checkFigures } from './figuresCheck';
import { formatTable, parseReportOptions } from './reportRange';

/**
 * `npm run report -- verify [--from D] [--to D] [--json]`: recomputes every figure of the insights page from the
 * raw tables with plain SQL and prints each difference; the exit code is 1 when there is one.
 */
export async function verifyReport(
  args: string[],
  { repositories, write, config = parseSettings({}) }: ReportContext,
) {
  const options = parseReportOptions(args);
  const check = await checkFigures(repositories, config, options.range);
  if (check.differences.length > 0) process.exitCode = 1;
  if (options.json) {
    write(`${JSON.stringify(check, null, 2)}\n`);
    return;
  }
  write(`Figures check ${check.range.from} to ${check.range.to} (UTC): ${check.compared} figures compared\n`);
  if (check.differences.length === 0) {
    write('No difference: every figure on the insights page equals its plain-SQL recount.\n');
    return;
  }
  write(
    `${check.differences.length} difference(s):\n${formatTable(
      ['figure', 'page', 'raw tables'],
      check.differences.map((row) => [row.figure, row.page, row.raw]),
    )}\n`,
  );
}
