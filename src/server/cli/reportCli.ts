import { resolve } from 'node:path';
import { openDatabase } from '../db/openDatabase';
import type { Repositories } from '../db/repositories';
import { createSqliteRepositories } from '../db/sqlite/createSqliteRepositories';
import { searchesReport } from '../reports/searchesReport';

/** `npm run report -- NAME [options]`: one function per report; other features add their entry to this map. */
const REPORTS: Record<string, (repositories: Repositories, args: string[]) => Promise<string>> = {
  searches: (repositories, args) => searchesReport(repositories.search, args),
};

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const report = name ? REPORTS[name] : undefined;
  if (!report) {
    console.error(`Usage: npm run report -- <${Object.keys(REPORTS).join('|')}> [options]`);
    process.exit(2);
  }
  const repositories = createSqliteRepositories(openDatabase(resolve(process.env.DATA_DIR ?? 'data')));
  try {
    console.log(await report(repositories, args));
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  } finally {
    await repositories.close();
  }
}

void main();
