import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateBenchCatalog } from '../catalog/bench/generateBenchCatalog';
import type { CatalogImport } from '../catalog/import/catalogImport';
import { openDatabase, type SqliteDatabase } from '../db/openDatabase';
import type { Repositories, SearchRepository } from '../db/ports';
import { TEST_DATABASE_URL } from '../db/postgres/testDatabase';
import { createSqliteRepositories } from '../db/sqlite/createSqliteRepositories';
import { type AnalyzedRead, type DocumentReads, DocumentReadThread } from './DocumentReadThread';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES } from './SearchIndex';
import { SearchService } from './SearchService';

/*
 * SQLite's driver holds the event loop for each read: a merge of a big import reads its changed documents, and
 * analyzes them, on a worker thread (DocumentReadThread, documentReadWorker.ts) with a connection of its own. The
 * worker runs from its source here (test-support/documentReadWorkerFromSource.mjs); the built server runs the bundle.
 */

vi.setConfig({ testTimeout: 60_000 });

function waitUntil<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 30_000, interval: 20 });
}

const WORKER = new URL('../../../test-support/documentReadWorkerFromSource.mjs', import.meta.url);
const QUERIES = ['cotton', 'sh', 'linen shirt', 'oak', 'tea towel'];

/**
 * 1,600 products under SKUs of their own (`prefix`-), of the shop's brands and vendors (another seed names them
 * otherwise: renaming them would re-read every product, a full build): with their variations, a merge.
 */
function newProducts(prefix: string, seed: number): CatalogImport {
  const catalog = generateBenchCatalog({ products: 1600, seed });
  const shop = generateBenchCatalog({ products: 1600 }).site;
  const brandNames = new Map(
    catalog.site.brands.map((brand, index) => [brand.name, shop.brands[index]?.name]),
  );
  const sku = (value: string | null) => (value === null ? null : value.replace(/^BN-/, `${prefix}-`));
  return {
    ...catalog,
    site: {
      ...catalog.site,
      brands: shop.brands,
      vendors: shop.vendors,
      products: Object.fromEntries(
        Object.entries(catalog.site.products).map(([key, meta]) => [sku(key), meta]),
      ),
    },
    products: catalog.products.map((product) => ({
      ...product,
      sku: sku(product.sku),
      brands: product.brands.map((name) => brandNames.get(name) ?? name),
      parent: product.parent && 'sku' in product.parent ? { sku: sku(product.parent.sku) as string } : null,
    })),
  };
}

describe.skipIf(TEST_DATABASE_URL)('a merge read on the document read thread (SQLite)', () => {
  let dataDir: string;
  let db: SqliteDatabase;
  let repositories: Repositories;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shop-read-thread-'));
    db = openDatabase(dataDir);
    repositories = createSqliteRepositories(db);
    await repositories.catalog.importCatalog(generateBenchCatalog({ products: 1600 }));
  }, 120_000);
  afterAll(async () => {
    await repositories?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The store's search repository, counting the product documents its scoped reads return on this thread. */
  function counted() {
    const read = { products: 0 };
    const repository: SearchRepository = new Proxy(repositories.search, {
      get(target, property) {
        if (property === 'loadDocuments') {
          const load: SearchRepository['loadDocuments'] = async (scope, ...rest) => {
            const loaded = await target.loadDocuments(scope, ...rest);
            if (scope)
              read.products += loaded.documents.filter((document) => document.kind === 'product').length;
            return loaded;
          };
          return load;
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { repository, read };
  }

  /** A thread counting the product documents it answered with, each with its terms. */
  function countedThread(databaseFile: string) {
    const thread = new DocumentReadThread(WORKER, databaseFile);
    const answered = { products: 0, analyzed: 0 };
    const reads: DocumentReads = {
      async read(scope) {
        const answer: AnalyzedRead = await thread.read(scope);
        answered.products += answer.documents.filter((document) => document.kind === 'product').length;
        answered.analyzed += answer.analyzed?.length ?? 0;
        return answer;
      },
      close: () => thread.close(),
    };
    return { reads, answered };
  }

  async function freshAnswers(repository: SearchRepository) {
    const fresh = new MemorySearchIndex();
    await fresh.replaceAll((await repository.loadDocuments()).documents);
    return Promise.all(QUERIES.map(async (query) => (await fresh.searchProductIds(query)).sort()));
  }

  /** Waits until the service finds the product of `sku` by its name, its build and followers done. */
  async function caughtUp(service: SearchService, sku: string) {
    const newest = db.prepare('SELECT id, name FROM products WHERE sku = ?').get(sku) as {
      id: number;
      name: string;
    };
    await waitUntil(async () => {
      await service.refresh();
      expect(await service.productIds(newest.name)).toContain(newest.id);
      expect(service.rebuilding).toBe(false);
    });
  }

  const answersOf = (service: SearchService) =>
    Promise.all(QUERIES.map(async (query) => (await service.productIds(query)).sort()));

  it("reads and analyzes a big import's documents off the event loop: the server's thread reads none", async () => {
    const { repository, read } = counted();
    const { reads, answered } = countedThread(repositories.search.databaseFile as string);
    const service = new SearchService({
      repository,
      index: new MemorySearchIndex(),
      createIndex: () => new MemorySearchIndex(),
      secret: 'test',
      readThread: reads,
    });
    try {
      await service.start(DEFAULT_RULES);
      const analyzedHere = vi.spyOn(MemorySearchIndex, 'analyzeDocument');
      await repositories.catalog.importCatalog(newProducts('EX', 9));
      await caughtUp(service, 'EX-001600');
      // Every imported product came from the thread, with its terms; none was read here.
      expect(answered.products).toBeGreaterThan(1500);
      expect(answered.analyzed).toBeGreaterThanOrEqual(answered.products);
      expect(read.products).toBe(0);
      expect(analyzedHere).not.toHaveBeenCalled();
      analyzedHere.mockRestore();
      expect(await answersOf(service)).toEqual(await freshAnswers(repository));
    } finally {
      await service.close();
    }
  });

  it("a thread that cannot read leaves the merge to the server's thread, and says so", async () => {
    const { repository, read } = counted();
    const errors: string[] = [];
    const service = new SearchService({
      repository,
      index: new MemorySearchIndex(),
      createIndex: () => new MemorySearchIndex(),
      secret: 'test',
      // No such database: the thread fails as it starts.
      readThread: new DocumentReadThread(WORKER, join(dataDir, 'missing.sqlite')),
      onError: (_error, message) => errors.push(message),
    });
    try {
      await service.start(DEFAULT_RULES);
      await repositories.catalog.importCatalog(newProducts('EY', 11));
      await caughtUp(service, 'EY-001600');
      expect(read.products).toBeGreaterThan(1500);
      expect(errors).toEqual(['search document read thread failed; reading on the main thread']);
      expect(await answersOf(service)).toEqual(await freshAnswers(repository));
    } finally {
      await service.close();
    }
  });
});
