import { parseSettings } from '../shared/settings/parseSettings';
import { buildApp } from './app';
import { seedDemoCatalog } from './catalog/import/seedDemoCatalog';
import { openDatabase } from './db/openDatabase';
import { createSqliteRepositories } from './db/sqlite/createSqliteRepositories';
import { readClientAssets } from './render/clientAssets';

/** The shop with its demo catalog in a scratch data dir, for the benchmarks in bench/ (built as dist/server/bench.js). */
export async function buildBenchApp(dataDir: string) {
  const repositories = createSqliteRepositories(openDatabase(dataDir));
  await seedDemoCatalog(repositories);
  const app = await buildApp({
    config: parseSettings({}),
    repositories,
    secret: 'b'.repeat(40),
    assets: readClientAssets(),
    dataDir,
  });
  return {
    app,
    async close() {
      await app.close();
      await repositories.close();
    },
  };
}

// Pure logic the benchmarks measure, from the same build the shop runs (bench/swatches.bench.mjs).
export { matchVariations } from '../shared/catalog/variations/matchVariations';
export { selectVariation } from '../shared/catalog/variations/selectVariation';
// The owner's insights queries over generated statistics (bench/insights.bench.mjs).
export { openDatabase } from './db/openDatabase';
export { SqliteInsightsRepository } from './db/sqlite/SqliteInsightsRepository';
