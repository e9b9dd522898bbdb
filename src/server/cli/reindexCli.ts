import { resolve } from 'node:path';
import { SingleBar } from 'cli-progress';
import { openRepositories } from '../db/openRepositories';
import { MemorySearchIndex } from '../search/MemorySearchIndex';
import { SearchService } from '../search/SearchService';

/**
 * `npm run reindex`: rebuilds the search index from DATA_DIR's committed catalog with a progress bar, reports
 * what it holds, and asks every running server process to rebuild its own copy on its next search (the index
 * lives in each process's memory; the request travels through the database).
 */
async function main() {
  const dataDir = resolve(process.env.DATA_DIR ?? 'data');
  // DATABASE_URL=postgres://… points it at a PostgreSQL shop (README "PostgreSQL and several processes").
  const repositories = await openRepositories({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir,
  });
  const bar = new SingleBar({
    format: 'Indexing [{bar}] {value}/{total} products',
    stream: process.stderr,
    noTTYOutput: false,
  });
  try {
    const service = new SearchService({
      repository: repositories.search,
      index: new MemorySearchIndex(),
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
