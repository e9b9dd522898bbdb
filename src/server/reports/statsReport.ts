import { parseSettings } from '../../shared/settings/parseSettings';
import { onlineWindowMs } from '../stats/onlineWindow';
import type { ReportContext } from './attributionReport';
import { formatTable, parseReportOptions } from './reportRange';

/**
 * `npm run report -- stats [--from D] [--to D] [--json]`: visitors, views, top pages, top referrers, sources,
 * online now, events, exclusions and bots by family. Online presence is flushed to the database every few seconds, so the CLI's
 * "online now" may trail the JSON endpoint's by that much.
 */
export async function statsReport(
  args: string[],
  { repositories, write, config = parseSettings({}) }: ReportContext,
) {
  const options = parseReportOptions(args);
  const report = await repositories.stats.report(options.range, {
    onlineSince: Date.now() - onlineWindowMs(config.stats.jsCheckTime),
  });
  if (options.json) {
    write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const section = (title: string, header: string[], rows: (string | number)[][]) =>
    write(`\n${title}\n${rows.length ? formatTable(header, rows) : '(none)'}\n`);
  write(`Visitor statistics ${report.from} to ${report.to} (UTC)\n\n`);
  write(
    `${formatTable(
      ['visitors', 'views', 'online now'],
      [[report.visitors, report.views, report.onlineNow]],
    )}\n`,
  );
  section(
    'Top pages',
    ['page', 'views'],
    report.topPages.map((row) => [row.page, row.views]),
  );
  section(
    'Top referrers',
    ['referrer', 'views'],
    report.topReferrers.map((row) => [row.host, row.views]),
  );
  section(
    'Sources',
    ['source type', 'visitors'],
    report.sources.map((row) => [row.sourceType, row.visitors]),
  );
  section(
    'Events',
    ['event', 'count'],
    report.events.map((row) => [row.name, row.count]),
  );
  section(
    'Top event targets',
    ['event', 'target', 'count'],
    report.topEventTargets.map((row) => [row.name, row.target, row.count]),
  );
  section(
    'Excluded hits',
    ['reason', 'count'],
    report.exclusions.map((row) => [row.reason, row.count]),
  );
  section(
    'Bot hits',
    ['bot', 'count'],
    report.bots.map((row) => [row.agent, row.count]),
  );
}
