import { buildApp } from '../../src/server/app';
import { generateBenchCatalog } from '../../src/server/catalog/bench/generateBenchCatalog';
import { readCatalogFiles } from '../../src/server/catalog/import/readCatalogFiles';
import { openDatabase } from '../../src/server/db/openDatabase';
import { createSqliteRepositories } from '../../src/server/db/sqlite/createSqliteRepositories';
import { didYouMean } from '../../src/server/search/didYouMean';
import { MemorySearchIndex } from '../../src/server/search/MemorySearchIndex';
import { openPostgresBenchIndex } from '../../src/server/search/postgres/openPostgresBenchIndex';
import { parseSettings } from '../../src/shared/settings/parseSettings';

/** What bench/search.bench.mjs needs from the server bundle (built as dist/server/search-bench.js). */

/** Seeds the synthetic catalog into an empty data dir and returns the searchable documents. */
export async function seedBenchDataDir(dataDir: string, products: number) {
  const repositories = createSqliteRepositories(openDatabase(dataDir));
  try {
    if ((await repositories.catalog.countProducts()) === 0) {
      await repositories.catalog.importCatalog(generateBenchCatalog({ products }));
    }
    return (await repositories.search.loadDocuments()).documents;
  } finally {
    await repositories.close();
  }
}

/**
 * Imports an owner's WooCommerce product CSV into an empty data dir (kept and reused while it is there) and returns
 * the searchable documents: the search bench's `--catalog FILE` mode.
 */
export async function seedCatalogFileDataDir(dataDir: string, csvPath: string) {
  const repositories = createSqliteRepositories(openDatabase(dataDir));
  try {
    if ((await repositories.catalog.countProducts()) === 0) {
      await repositories.catalog.importCatalog(await readCatalogFiles(csvPath));
    }
    return (await repositories.search.loadDocuments()).documents;
  } finally {
    await repositories.close();
  }
}

/** The shop on that data dir (its own index built at start), for the over-HTTP figures. */
export async function buildSearchBenchApp(dataDir: string) {
  const repositories = createSqliteRepositories(openDatabase(dataDir));
  const app = await buildApp({
    config: parseSettings({}),
    repositories,
    secret: 'b'.repeat(40),
    dataDir,
    assets: { scripts: [], styles: [], preloads: [] },
  });
  return {
    app,
    async close() {
      await app.close();
      await repositories.close();
    },
  };
}

export { didYouMean, MemorySearchIndex, openPostgresBenchIndex };
