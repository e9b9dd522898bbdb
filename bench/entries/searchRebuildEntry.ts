import { generateBenchCatalog } from '../../src/server/catalog/bench/generateBenchCatalog';
import { openDatabase } from '../../src/server/db/openDatabase';
import { createSqliteRepositories } from '../../src/server/db/sqlite/createSqliteRepositories';
import { BuildPacer } from '../../src/server/search/BuildPacer';
import { FacetService } from '../../src/server/search/facets/FacetService';
import { MemorySearchIndex } from '../../src/server/search/MemorySearchIndex';
import { DEFAULT_RULES } from '../../src/server/search/SearchIndex';
import { SearchService } from '../../src/server/search/SearchService';

/** What bench/search-rebuild.bench.mjs needs from the server bundle (built as dist/server/search-rebuild.js). */

/** A SQLite data dir with the synthetic catalog (seeded once) and a search service on it, as the shop builds one. */
export async function openRebuildBench(dataDir: string, products: number) {
  const repositories = createSqliteRepositories(openDatabase(dataDir));
  if ((await repositories.catalog.countProducts()) === 0) {
    await repositories.catalog.importCatalog(generateBenchCatalog({ products }));
  }
  // The shop's pacing (the defaults), watched: how long each run of a build lasted before it yielded.
  const runs: number[] = [];
  let resumedAt = Number.NaN;
  const pacer = new BuildPacer({
    yieldNow: () => {
      // A build's first pause yields at once (the run before it is not one of its runs): NaN until a yield resumed.
      if (!Number.isNaN(resumedAt)) runs.push(performance.now() - resumedAt);
      return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        resumedAt = performance.now();
      });
    },
  });
  const service = new SearchService({
    repository: repositories.search,
    index: new MemorySearchIndex(),
    createIndex: () => new MemorySearchIndex(),
    secret: 'b'.repeat(40),
    pacer,
  });
  // The facet index follows the index as in the shop: rebuilt after each swap.
  service.follow(new FacetService({ repository: repositories.facets, search: service }));
  await service.start(DEFAULT_RULES);
  return {
    service,
    /** What `npm run reindex` asks of every running process. */
    requestRebuild: () => {
      resumedAt = Number.NaN;
      return repositories.search.requestRebuild();
    },
    /** The runs of builds (ms between resuming and yielding again) since the last call; clears them. */
    takeRuns: () => runs.splice(0),
    /** No rebuild in flight (the index and the facet index swapped in). */
    idle: () => !service.rebuilding,
    /** The two synchronous steps of a build, timed alone: reading the documents, filling an index with them. */
    async timeSteps() {
      let started = performance.now();
      const { documents } = await repositories.search.loadDocuments();
      const load = performance.now() - started;
      started = performance.now();
      await new MemorySearchIndex().replaceAll(documents);
      return { documents: documents.length, load, build: performance.now() - started };
    },
    async close() {
      await service.close();
      await repositories.close();
    },
  };
}
