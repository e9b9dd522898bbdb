import { isShopError } from '../../shared/errors/ShopError';
import { loadConfig } from '../config/loadConfig';
import { openRepositories } from '../db/openRepositories';
import { attributionReport, type ReportContext } from '../reports/attributionReport';
import { searchesReport } from '../reports/searchesReport';
import { statsReport } from '../reports/statsReport';
import { verifyReport } from '../reports/verifyReport';
import { shopStorageFromEnv } from './cliEnvironment';

/** `npm run report -- NAME [options]`: one entry per report; each lives in src/server/reports/<name>Report.ts. */
const reports: Record<string, (args: string[], context: ReportContext) => Promise<void>> = {
  attribution: attributionReport,
  stats: statsReport,
  verify: verifyReport,
  searches: async (args, { repositories, write }) =>
    write(`${await searchesReport(repositories.search, args)}\n`),
};

async function main() {
  const [name, ...args] = process.argv.slice(2);
  const report = name ? reports[name] : undefined;
  if (!report) {
    console.error(
      `Usage: npm run report -- <${Object.keys(reports).join('|')}> [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]`,
    );
    process.exit(2);
  }
  const config = loadConfig(process.env.SHOP_CONFIG);
  const repositories = await openRepositories(shopStorageFromEnv());
  try {
    await report(args, { repositories, config, write: (text) => process.stdout.write(text) });
  } catch (error) {
    const usage =
      isShopError(error) || String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
    if (!usage) throw error;
    console.error((error as Error).message);
    process.exitCode = 2;
  } finally {
    await repositories.close();
  }
}

void main();
