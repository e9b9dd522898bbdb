import type { QueryStat, SearchRepository } from '../db/ports';

export interface SearchesReportOptions {
  /** Only searches in the last this many days. */
  days: number;
  limit: number;
  now?: number;
}

export interface SearchesReport {
  since: number;
  top: QueryStat[];
  /** The owner's inbox of failed searches: queries whose last search found nothing. */
  zeroResults: QueryStat[];
}

export async function buildSearchesReport(
  repository: SearchRepository,
  options: SearchesReportOptions,
): Promise<SearchesReport> {
  const since = (options.now ?? Date.now()) - options.days * 86_400_000;
  const [top, zeroResults] = await Promise.all([
    repository.topQueries({ limit: options.limit, since, zeroResults: false }),
    repository.topQueries({ limit: options.limit, since, zeroResults: true }),
  ]);
  return { since, top, zeroResults };
}

function table(title: string, rows: QueryStat[]): string[] {
  if (rows.length === 0) return [title, '  (none)'];
  const width = Math.min(40, Math.max(5, ...rows.map((row) => row.query.length)));
  return [
    title,
    `  ${'query'.padEnd(width)}  ${'count'.padStart(6)}  ${'results'.padStart(7)}  last seen`,
    ...rows.map(
      (row) =>
        `  ${row.query.slice(0, width).padEnd(width)}  ${String(row.count).padStart(6)}  ${String(row.results).padStart(7)}  ${new Date(row.lastSeen).toISOString().slice(0, 16).replace('T', ' ')}`,
    ),
  ];
}

/** `npm run report -- searches [--days N] [--limit N] [--json]`: top queries and zero-result queries. */
export async function searchesReport(repository: SearchRepository, args: string[]): Promise<string> {
  const value = (name: string, fallback: number) => {
    const index = args.indexOf(`--${name}`);
    const parsed = index >= 0 ? Number(args[index + 1]) : fallback;
    if (!Number.isInteger(parsed) || parsed <= 0)
      throw new Error(`--${name} must be a positive whole number`);
    return parsed;
  };
  const report = await buildSearchesReport(repository, {
    days: value('days', 30),
    limit: value('limit', 20),
  });
  if (args.includes('--json')) return JSON.stringify(report, null, 2);
  return [
    `Searches since ${new Date(report.since).toISOString().slice(0, 10)}`,
    '',
    ...table('Top queries', report.top),
    '',
    ...table('Zero-result queries (what shoppers could not find)', report.zeroResults),
  ].join('\n');
}
