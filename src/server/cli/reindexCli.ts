import { openShopStorage } from '../db/openRepositories';
import { MemorySearchIndex } from '../search/MemorySearchIndex';
import { SearchService } from '../search/SearchService';
import { createProgressBar, shopStorageFromEnv } from './cliEnvironment';

/**
 * `npm run reindex`: rebuilds the search index from DATA_DIR's committed catalog with a progress bar, reports
 * what it holds, and asks every running server process to rebuild its own index (in memory, beside the one that
 * keeps answering); on PostgreSQL this also rebuilds the shared table index that answers while a process starts.
 * The request travels through the database either way.
 */
async function main() {
  const storage = shopStorageFromEnv();
  const { dataDir } = storage;
  const { repositories, searchFallback } = await openShopStorage(storage);
  const bar = createProgressBar('Indexing [{bar}] {value}/{total} products');
  try {
    const service = new SearchService({
      repository: repositories.search,
      index: searchFallback ?? new MemorySearchIndex(),
      secret: 'reindex',
    });
    const started = performance.now();
    let startedBar = false;
    const documents = await service.rebuild((done, total) => {
      if (!startedBar) {
        bar.start(total, 0);
        startedBar = true;
      }
      bar.update(done);
    });
    if (startedBar) bar.stop();
    await repositories.search.requestRebuild();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const heap = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
    console.log(
      `Indexed ${documents} documents from ${dataDir} in ${seconds} s (${heap} MB heap). ` +
        'Running shop processes rebuild their index on their next search.',
    );
  } finally {
    bar.stop();
    await repositories.close();
  }
}

void main();
