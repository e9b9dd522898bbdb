import { buildApp } from '../../src/server/app';
import { seedDemoCatalog } from '../../src/server/catalog/import/seedDemoCatalog';
import { openDatabase } from '../../src/server/db/openDatabase';
import { createSqliteRepositories } from '../../src/server/db/sqlite/createSqliteRepositories';
import { readClientAssets } from '../../src/server/render/clientAssets';
import { parseSettings } from '../../src/shared/settings/parseSettings';

/** The shop with its demo catalog in a scratch data dir, for the benchmarks in bench/ (built as dist/server/bench.js). */
export async function buildBenchApp(dataDir: string, settings: unknown = {}) {
  const repositories = createSqliteRepositories(openDatabase(dataDir));
  await seedDemoCatalog(repositories);
  const app = await buildApp({
    config: parseSettings(settings),
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

// The owner's insights queries over generated statistics (bench/insights.bench.mjs).
export { openDatabase } from '../../src/server/db/openDatabase';
export { SqliteInsightsRepository } from '../../src/server/db/sqlite/SqliteInsightsRepository';
// The facet index's counts (bench/facets.bench.mjs).
export { FacetIndex } from '../../src/server/search/facets/FacetIndex';
// Pure logic the benchmarks measure, from the same build the shop runs (bench/swatches.bench.mjs).
export { matchVariations } from '../../src/shared/catalog/variations/matchVariations';
export { selectVariation } from '../../src/shared/catalog/variations/selectVariation';
