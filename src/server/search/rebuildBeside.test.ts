import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestEngine, testRepositories } from '../../../test-support/testRepositories';
import { generateBenchCatalog } from '../catalog/bench/generateBenchCatalog';
import { openDatabase } from '../db/openDatabase';
import type { FacetRepository, SearchRepository, SearchScope } from '../db/ports';
import { createSqliteRepositories } from '../db/sqlite/createSqliteRepositories';
import { projectPath } from '../projectPath';
import { BuildPacer } from './BuildPacer';
import type { FacetQuery } from './facets/FacetIndex';
import { FacetService } from './facets/FacetService';
import { EMPTY_SELECTION, type StockStatus } from './facets/facetTypes';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES, type SearchRequest } from './SearchIndex';
import { SearchService } from './SearchService';

/*
 * A rebuild on the real stores (SQLite; PostgreSQL under `node scripts/ensure-postgres.mjs -- npx vitest run
 * src/server/search/rebuildBeside.test.ts`): the catalog is read in pages and the new index filled in slices beside
 * the answering one, with searches answered between the slices. The repository is wrapped so that a test runs its
 * own code at each pause of the build (its searches, its writes): what a request arriving then would see.
 */

vi.setConfig({ testTimeout: 60_000 });

/** Waits for a condition (polling), up to 20 s: the machine may be busy; no speed is asserted. */
function waitUntil<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 20_000, interval: 10 });
}

const PRODUCTS = 1200;
const QUERIES: SearchRequest[] = [
  { text: 'cotton', limits: { products: 8, product_cat: 3 } },
  { text: 'sh', limits: { products: 8, product_cat: 3 } },
  { text: 'linen shirt', limits: { products: 20 } },
  { text: 'oak', limits: { products: 5, product_brand: 3 } },
];

let dataDir: string;
let engine: TestEngine;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'shop-rebuild-'));
  engine = await testRepositories(() => {
    const db = openDatabase(dataDir);
    return { db, repositories: createSqliteRepositories(db) };
  });
  await engine.repositories.catalog.importCatalog(generateBenchCatalog({ products: PRODUCTS }));
}, 120_000);
afterAll(async () => {
  await engine?.repositories.close();
  await engine?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The search repository with a hook run at each pause of a full load (the build's pages), and a way to make full
 * loads fail; everything else as the store answers.
 */
function hookedRepository(repository: SearchRepository) {
  const hooks = {
    atPause: async (_page: number) => {},
    failFullLoads: 0,
    fullLoads: 0,
    /** The product documents each scoped load (an update's read) returned, by product id. */
    scopedProducts: [] as number[][],
    /** Run after each scoped load returned, before the service goes on with it. */
    afterScoped: async (_scope: SearchScope) => {},
  };
  const proxy = new Proxy(repository, {
    get(target, property) {
      if (property === 'loadDocuments') {
        const load: SearchRepository['loadDocuments'] = async (scope, onProgress, pause) => {
          if (!scope) {
            hooks.fullLoads++;
            if (hooks.failFullLoads > 0) {
              hooks.failFullLoads--;
              throw new Error('the store went away');
            }
          }
          if (scope) {
            const loaded = await target.loadDocuments(scope, onProgress, pause);
            hooks.scopedProducts.push(
              loaded.documents
                .filter((document) => document.kind === 'product')
                .map((document) => document.id),
            );
            await hooks.afterScoped(scope);
            return loaded;
          }
          let page = 0;
          return target.loadDocuments(
            scope,
            onProgress,
            pause &&
              (async () => {
                await hooks.atPause(++page);
                await pause();
              }),
          );
        };
        return load;
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { repository: proxy, hooks };
}

async function startService(
  repository: SearchRepository,
  facets?: FacetRepository,
  onError: (error: unknown, message: string) => void = () => {},
  pacer?: BuildPacer,
  checkMs?: number,
) {
  const service = new SearchService({
    repository,
    index: new MemorySearchIndex(),
    createIndex: () => new MemorySearchIndex(),
    secret: 'test',
    buildRetryMs: 50,
    onError,
    pacer,
    checkMs,
  });
  const facetService = facets ? new FacetService({ repository: facets, search: service }) : null;
  if (facetService) service.follow(facetService);
  await service.start(DEFAULT_RULES);
  return { service, facets: facetService };
}

/** Every query's whole answer (hits in order, totals). */
async function answers(service: SearchService) {
  return Promise.all(QUERIES.map((request) => service.search(request)));
}

/**
 * Waits until the index finds every searchable product whose name now ends with `word` (more than updates carry:
 * a merge or a rebuild), and until no build is left running.
 */
async function renamedAllFound(service: SearchService, word: string) {
  const [{ searchable = 0 } = {}] = await engine.query<{ searchable: number }>(
    `SELECT count(*) AS searchable FROM products WHERE name LIKE '% ${word}' AND type <> 'variation'
     AND status = 'publish' AND visibility IN ('visible', 'search')`,
  );
  expect(Number(searchable)).toBeGreaterThan(1500);
  await waitUntil(async () =>
    expect((await service.search({ text: word.toLowerCase(), limits: { products: 1 } })).totalProducts).toBe(
      Number(searchable),
    ),
  );
  await waitUntil(() => expect(service.rebuilding).toBe(false));
}

async function requestRebuildAndWait(service: SearchService) {
  const old = service.index;
  await engine.repositories.search.requestRebuild();
  await service.refresh();
  expect(service.rebuilding).toBe(true);
  await waitUntil(() => expect(service.index !== old && !service.rebuilding).toBe(true));
}

describe('a full load in pages', () => {
  it('reads every document once: the same as a load scoped to every product, term, vendor and post', async () => {
    const ids = async (sql: string) => (await engine.query<{ id: number }>(sql)).map((row) => Number(row.id));
    const scope = {
      products: await ids('SELECT id FROM products'),
      terms: await ids('SELECT id FROM terms'),
      vendors: await ids('SELECT id FROM vendors'),
      posts: await ids('SELECT id FROM posts'),
    };
    let pauses = 0;
    const full = await engine.repositories.search.loadDocuments(undefined, undefined, async () => {
      pauses++;
    });
    const scoped = await engine.repositories.search.loadDocuments(scope);
    expect(pauses).toBeGreaterThanOrEqual(PRODUCTS / 500);
    const byKey = (documents: typeof full.documents) =>
      [...documents].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    expect(new Set(full.documents.map((document) => document.key)).size).toBe(full.documents.length);
    expect(byKey(full.documents)).toEqual(byKey(scoped.documents));
  });
});

describe('a rebuild beside the answering index, on the real store', () => {
  it('every search during the build answers from the whole old index, and after it from the whole new one', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service } = await startService(repository);
    const before = await answers(service);
    expect(before[0]?.totalProducts).toBeGreaterThan(20);

    let pauses = 0;
    hooks.atPause = async () => {
      pauses++;
      // A request arriving between two pages of the build.
      expect(await answers(service)).toEqual(before);
    };
    await requestRebuildAndWait(service);
    // The catalog was read in several pages, each followed by searches.
    expect(pauses).toBeGreaterThanOrEqual(PRODUCTS / 500);
    expect(await answers(service)).toEqual(before);
    await service.close();
  });

  it('the build, the facet index after it included, yields where its pacer says: searches run there', async () => {
    // A clock that moves 1 ms per look: with a 4 ms run budget the pacer yields every few steps of the build.
    let now = 0;
    let yields = 0;
    let service: SearchService | null = null;
    let before: Awaited<ReturnType<typeof answers>> | null = null;
    const pacer = new BuildPacer({
      now: () => ++now,
      cpuNow: () => now,
      yieldNow: async () => {
        yields++;
        // A request arriving at the yield.
        if (service && before) expect(await answers(service)).toEqual(before);
      },
      minRunMs: 4,
    });
    const started = await startService(
      engine.repositories.search,
      engine.repositories.facets,
      () => {},
      pacer,
    );
    service = started.service;
    before = await answers(service);
    const atStart = yields;
    await requestRebuildAndWait(service);
    // Pages of the read, slices of the fill and pages of the facet index: many steps, a yield every few.
    expect(yields - atStart).toBeGreaterThan(PRODUCTS / 250);
    expect(await answers(service)).toEqual(before);
    await service.close();
  });

  it('a change committed while the build reads the catalog is in the index swapped in', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service, facets } = await startService(repository, engine.repositories.facets);
    const [first] = await engine.query<{ id: number }>(
      "SELECT id FROM products WHERE type = 'simple' AND status = 'publish' AND visibility = 'visible' ORDER BY id LIMIT 1",
    );
    const id = Number(first?.id);
    hooks.atPause = async (page) => {
      // After the page holding the product was read: the build's own rows still have the old name.
      if (page === 2) {
        await engine.query(
          "UPDATE products SET name = 'Zebrawood Ladle', stock_status = 'outofstock' WHERE id = ?",
          [id],
        );
      }
    };
    await requestRebuildAndWait(service);
    // The swapped-in index itself, before any later refresh could patch it.
    expect(await service.index.searchProductIds('zebrawood')).toEqual([id]);
    // The facet index, rebuilt after the swap, counts it out of stock.
    const outOfStock = await facets?.count({
      base: 'all',
      context: 'shop',
      selection: { ...EMPTY_SELECTION, stock: ['outofstock'] },
    });
    expect(outOfStock?.ids).toContain(id);
    await service.close();
  });

  it('a change applied while the facet index rebuilds its pages reaches the facet index swapped in', async () => {
    const [first] = await engine.query<{ id: number }>(
      "SELECT id FROM products WHERE type = 'simple' AND status = 'publish' AND stock_status = 'instock' ORDER BY id LIMIT 1",
    );
    const id = Number(first?.id);
    let servicePointer: SearchService | null = null;
    let pages = 0;
    const facetRepository = new Proxy(engine.repositories.facets, {
      get(target, property) {
        if (property === 'loadFacetProductPage') {
          return async (after: number, limit: number) => {
            const page = await target.loadFacetProductPage(after, limit);
            // Once the first page (holding the product) is read: the product changes and the service applies it
            // (to the facet index still answering), before the rebuild reads on.
            if (++pages === 2 && servicePointer?.rebuilding) {
              await engine.query("UPDATE products SET stock_status = 'outofstock' WHERE id = ?", [id]);
              await servicePointer.refresh();
            }
            return page;
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { service, facets } = await startService(engine.repositories.search, facetRepository);
    servicePointer = service;
    pages = 0;
    await requestRebuildAndWait(service);
    expect(pages).toBeGreaterThan(2);
    const outOfStock = await facets?.count({
      base: 'all',
      context: 'shop',
      selection: { ...EMPTY_SELECTION, stock: ['outofstock'] },
    });
    expect(outOfStock?.ids).toContain(id);
    await service.close();
  });

  it('a failed build leaves the old index answering, is reported and is tried again', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const errors: string[] = [];
    const { service } = await startService(repository, undefined, (_error, message) => errors.push(message));
    const before = await answers(service);
    const old = service.index;

    hooks.failFullLoads = 1;
    const loadsBefore = hooks.fullLoads;
    await engine.repositories.search.requestRebuild();
    await service.refresh();
    await waitUntil(() => expect(errors).toContain('search index rebuild failed'));
    // Still the old index, whole.
    expect(service.index).toBe(old);
    expect(await answers(service)).toEqual(before);
    // Tried again, without another request: the next build is swapped in.
    await waitUntil(() => expect(service.index).not.toBe(old));
    expect(hooks.fullLoads).toBe(loadsBefore + 2);
    expect(await answers(service)).toEqual(before);
    await service.close();
  });

  it('an import in another process adding more products than updates carry is built in beside: every product found, as a build from scratch finds them', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service } = await startService(repository, engine.repositories.facets);
    const [{ products: before = 0 } = {}] = await engine.query<{ products: number }>(
      'SELECT count(*) AS products FROM products',
    );
    const loadsBefore = hooks.fullLoads;
    const child = spawn(process.execPath, ['--import', 'tsx', projectPath('test-support/importInChild.ts')], {
      cwd: projectPath(),
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: engine.databaseUrl ?? '',
        IMPORT_PRODUCTS: String(PRODUCTS + 1800),
      },
    });
    let output = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      // The import holds its transaction until told to go on (importInChild.ts): at once here.
      if (String(chunk).includes('writing')) child.stdin.write('go\n');
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    expect(await new Promise((resolve) => child.once('exit', resolve)), stderr).toBe(0);
    expect(output).toContain('done');
    const [newest] = await engine.query<{ id: number; name: string }>(
      "SELECT id, name FROM products WHERE type <> 'variation' ORDER BY id DESC LIMIT 1",
    );
    const [{ products: after = 0 } = {}] = await engine.query<{ products: number }>(
      'SELECT count(*) AS products FROM products',
    );
    expect(Number(after) - Number(before)).toBeGreaterThan(1500);
    // Searchable once the merge built beside is swapped in (each search looks at the change log first).
    await waitUntil(async () =>
      expect(await service.productIds(String(newest?.name))).toContain(Number(newest?.id)),
    );
    await waitUntil(() => expect(service.rebuilding).toBe(false));
    // The generator at another size names a term and the vendors anew: their products are read again, in a full
    // build read in pages.
    expect(hooks.fullLoads).toBeGreaterThan(loadsBefore);
    // What the service holds is what a build from scratch holds.
    const fresh = await startService(engine.repositories.search);
    for (const text of ['cotton', 'sh', 'oak', String(newest?.name)]) {
      const sorted = async (from: SearchService) => (await from.productIds(text)).sort((a, b) => a - b);
      expect(await sorted(service)).toEqual(await sorted(fresh.service));
    }
    await fresh.service.close();
    await service.close();
  });

  it('a product joining a category reads that product again, not the category’s others; renaming the category reads them all', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service } = await startService(repository);
    const [category] = await engine.query<{ id: number; name: string; products: number }>(
      `SELECT t.id, t.name, count(*) AS products FROM terms t JOIN product_terms x ON x.term_id = t.id
        WHERE t.taxonomy = 'product_cat' GROUP BY t.id, t.name ORDER BY count(*) DESC, t.id LIMIT 1`,
    );
    const [outsider] = await engine.query<{ id: number }>(
      `SELECT p.id FROM products p WHERE p.type <> 'variation' AND p.status = 'publish'
        AND p.visibility IN ('visible', 'search')
        AND NOT EXISTS (SELECT 1 FROM product_terms x WHERE x.product_id = p.id AND x.term_id = ${Number(category?.id)})
        ORDER BY p.id LIMIT 1`,
    );
    expect(Number(category?.products)).toBeGreaterThan(20);
    const categoryId = Number(category?.id);
    const outsiderId = Number(outsider?.id);

    hooks.scopedProducts = [];
    await engine.query(
      `INSERT INTO product_terms (product_id, term_id) VALUES (${outsiderId}, ${categoryId})`,
    );
    await service.refresh();
    // The category only gained a product: that product is read again (its document names the category), the
    // category's own document with its new count, and none of the products it held already.
    expect(hooks.scopedProducts.flat()).toEqual([outsiderId]);
    expect(await service.productIds(String(category?.name))).toContain(outsiderId);

    hooks.scopedProducts = [];
    await engine.query(`UPDATE terms SET name = name || ' Wombat' WHERE id = ${categoryId}`);
    await service.refresh();
    // Its own row changed: every product it holds names it, so every one is read again.
    const reread = new Set(hooks.scopedProducts.flat());
    expect(reread.size).toBeGreaterThan(20);
    expect(reread.has(outsiderId)).toBe(true);
    expect((await service.productIds('wombat')).sort((a, b) => a - b)).toContain(outsiderId);
    await service.close();
  });

  it('more product changes than updates carry, and no term changed, are merged in beside: the catalog not read whole', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service } = await startService(repository);
    const loadsBefore = hooks.fullLoads;
    // Another writer renames 1,800 products in one transaction (each a change-log row by trigger).
    await engine.query(
      `UPDATE products SET name = name || ' Quokka' WHERE id IN (SELECT id FROM products WHERE type <> 'variation'
       ORDER BY id LIMIT 1800)`,
    );
    await renamedAllFound(service, 'Quokka');
    expect(hooks.fullLoads).toBe(loadsBefore);
    const fresh = await startService(engine.repositories.search);
    for (const text of ['quokka', 'cotton', 'sh']) {
      const sorted = async (from: SearchService) => (await from.productIds(text)).sort((a, b) => a - b);
      expect(await sorted(service)).toEqual(await sorted(fresh.service));
    }
    await fresh.service.close();
    await service.close();
  });

  it('after a merge the facet index takes in the changed products only, a page at a time: the catalog not read whole', async () => {
    const reads = { pages: 0, products: 0 };
    const facetRepository = new Proxy(engine.repositories.facets, {
      get(target, property) {
        if (property === 'loadFacetProductPage')
          return (after: number, limit: number) => {
            reads.pages++;
            return target.loadFacetProductPage(after, limit);
          };
        if (property === 'loadFacetProducts')
          return (ids?: readonly number[]) => {
            reads.products += ids ? ids.length : Number.POSITIVE_INFINITY;
            return target.loadFacetProducts(ids);
          };
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { service, facets } = await startService(engine.repositories.search, facetRepository);
    reads.pages = 0;
    reads.products = 0;
    const rows = await engine.query<{ id: number; stock_status: string; visibility: string }>(
      `SELECT id, stock_status, visibility FROM products WHERE type <> 'variation' AND status = 'publish'
        AND visibility IN ('visible', 'search') ORDER BY id LIMIT 1800`,
    );
    const changed = rows.map((row) => Number(row.id));
    const list = changed.join(', ');
    // Another writer sells 1,800 products out and renames them, in one transaction: more than updates carry.
    await engine.query(
      `UPDATE products SET stock_status = 'outofstock', name = name || ' Zorblatt' WHERE id IN (${list})`,
    );
    try {
      await renamedAllFound(service, 'Zorblatt');
      expect(reads.pages).toBe(0);
      expect(reads.products).toBeGreaterThanOrEqual(changed.length);
      expect(reads.products).toBeLessThan(2 * changed.length);
      // Counted as a facet index built from scratch counts them.
      const fresh = await startService(engine.repositories.search, engine.repositories.facets);
      const byStock = (stock: StockStatus[]): FacetQuery => ({
        base: 'all',
        context: 'shop',
        selection: { ...EMPTY_SELECTION, stock },
      });
      for (const stock of [[], ['outofstock'], ['instock']] as StockStatus[][])
        expect((await facets?.count(byStock(stock)))?.ids).toEqual(
          (await fresh.facets?.count(byStock(stock)))?.ids,
        );
      // Which the facet index still answering from before the merge would not.
      const listed = rows.filter((row) => row.visibility === 'visible').map((row) => Number(row.id));
      expect((await facets?.count(byStock(['outofstock'])))?.ids).toEqual(expect.arrayContaining(listed));
      await fresh.service.close();
    } finally {
      await service.close();
      for (const status of new Set(rows.map((row) => row.stock_status))) {
        const ids = rows.filter((row) => row.stock_status === status).map((row) => Number(row.id));
        await engine.query(`UPDATE products SET stock_status = ? WHERE id IN (${ids.join(', ')})`, [status]);
      }
    }
  });

  /** The brand and the vendor holding the most searchable products, with those products' ids. */
  async function biggestBrandAndVendor() {
    const searchable = `p.type <> 'variation' AND p.status = 'publish' AND p.visibility IN ('visible', 'search')`;
    const ids = async (sql: string) => (await engine.query<{ id: number }>(sql)).map((row) => Number(row.id));
    const [brand] = await engine.query<{ id: number; name: string }>(
      `SELECT t.id, t.name FROM terms t JOIN product_terms x ON x.term_id = t.id JOIN products p ON p.id = x.product_id
        WHERE t.taxonomy = 'product_brand' AND ${searchable} GROUP BY t.id, t.name ORDER BY count(*) DESC, t.id LIMIT 1`,
    );
    const [vendor] = await engine.query<{ id: number; name: string }>(
      `SELECT v.id, v.name FROM vendors v JOIN products p ON p.vendor_id = v.id
        WHERE ${searchable} GROUP BY v.id, v.name ORDER BY count(*) DESC, v.id LIMIT 1`,
    );
    const brandId = Number(brand?.id);
    const vendorId = Number(vendor?.id);
    return {
      brandId,
      brandKey: `taxonomy__${brandId}__product_brand`,
      brandProducts: await ids(
        `SELECT p.id FROM products p JOIN product_terms x ON x.product_id = p.id
          WHERE x.term_id = ${brandId} AND ${searchable} ORDER BY p.id`,
      ),
      vendorId,
      vendorProducts: await ids(
        `SELECT p.id FROM products p WHERE p.vendor_id = ${vendorId} AND ${searchable}`,
      ),
    };
  }

  it('a brand whose description changed, and a vendor whose city did, read none of their products again; renaming either reads them all', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service } = await startService(repository);
    const { brandId, brandKey, brandProducts, vendorId, vendorProducts } = await biggestBrandAndVendor();
    expect(brandProducts.length).toBeGreaterThan(20);
    expect(vendorProducts.length).toBeGreaterThan(20);
    const index = () => service.index as MemorySearchIndex;
    const vendorsFound = async (text: string) =>
      ((await service.search({ text, limits: { vendors: 5 } })).hits.vendors ?? []).map((hit) => hit.id);

    hooks.scopedProducts = [];
    await engine.query(`UPDATE terms SET description = 'Made by hand since 1921' WHERE id = ${brandId}`);
    await engine.query(`UPDATE vendors SET city = 'Quollbury' WHERE id = ${vendorId}`);
    await service.refresh();
    // Their documents show their names only: nothing of theirs is read again, and their own documents are.
    expect(hooks.scopedProducts.flat()).toEqual([]);
    expect(await vendorsFound('quollbury')).toEqual([vendorId]);
    expect(index().document(brandKey)?.fields.title).toEqual(
      (await engine.query<{ name: string }>(`SELECT name FROM terms WHERE id = ${brandId}`)).map(
        (row) => row.name,
      ),
    );

    hooks.scopedProducts = [];
    await engine.query(`UPDATE terms SET name = name || ' Numbat' WHERE id = ${brandId}`);
    await engine.query(`UPDATE vendors SET name = name || ' Bilby' WHERE id = ${vendorId}`);
    await service.refresh();
    const reread = new Set(hooks.scopedProducts.flat());
    expect([...brandProducts, ...vendorProducts].filter((id) => !reread.has(id))).toEqual([]);
    // (More documents than updates carry are built in beside: found once swapped in.)
    await waitUntil(async () =>
      expect(await service.productIds('numbat')).toEqual(expect.arrayContaining(brandProducts)),
    );
    await waitUntil(async () =>
      expect(await service.productIds('bilby')).toEqual(expect.arrayContaining(vendorProducts)),
    );
    await service.close();
  });

  it('a brand renamed between the look at its name and the read of its description change: its products show the new name', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service } = await startService(repository);
    const { brandId, brandProducts } = await biggestBrandAndVendor();
    let renamed = false;
    hooks.afterScoped = async (scope) => {
      // The look at the names: the brand's own document only, none of its products.
      if (renamed || scope.products.length > 0 || !scope.terms.includes(brandId)) return;
      renamed = true;
      await engine.query(`UPDATE terms SET name = name || ' Potoroo' WHERE id = ${brandId}`);
    };
    await engine.query(`UPDATE terms SET description = 'Family owned' WHERE id = ${brandId}`);
    await service.refresh();
    expect(renamed).toBe(true);
    // The rename is in the log after the batch just applied: the next look reads the brand's products again.
    await service.refresh();
    expect(await service.productIds('potoroo')).toEqual(expect.arrayContaining(brandProducts));
    await service.close();
  });

  it('more product changes than updates carry with every brand’s description and every vendor’s city rewritten are merged in beside: the catalog not read whole', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    // Looked at only when searched (not on a timer): the three writes below reach the service as one batch.
    const { service } = await startService(repository, undefined, undefined, undefined, 3_600_000);
    const { brandId, vendorId } = await biggestBrandAndVendor();
    const loadsBefore = hooks.fullLoads;
    hooks.scopedProducts = [];
    const scopes: SearchScope[] = [];
    hooks.afterScoped = async (scope) => {
      scopes.push(scope);
    };
    // As an import file that brings many products and rewrites its brands' and vendors' details.
    const renamed = (
      await engine.query<{ id: number }>(
        `SELECT id FROM products WHERE type <> 'variation' ORDER BY id DESC LIMIT 1800`,
      )
    ).map((row) => Number(row.id));
    await engine.query(`UPDATE products SET name = name || ' Dibbler' WHERE id IN (${renamed.join(',')})`);
    await engine.query(
      `UPDATE terms SET description = 'Rewritten by the import' WHERE taxonomy = 'product_brand'`,
    );
    await engine.query(`UPDATE vendors SET city = 'Dunnart Springs'`);
    await renamedAllFound(service, 'Dibbler');
    expect(hooks.fullLoads).toBe(loadsBefore);
    // The brands' and vendors' own documents were read twice: to compare their names, then by the merge, which
    // counted none that holds searchable products as edited (one that holds none stays edited: it has nothing to read).
    const ownReads = scopes.filter((scope) => scope.terms.length > 0 && scope.vendors.length > 0);
    expect(ownReads).toHaveLength(2);
    expect(ownReads[1]?.editedTerms).not.toContain(brandId);
    expect(ownReads[1]?.editedVendors).not.toContain(vendorId);
    expect(ownReads[1]?.terms).toContain(brandId);
    // Only the changed products were read: none for the brands and vendors whose names stayed.
    const changed = new Set(renamed);
    expect(hooks.scopedProducts.flat().filter((id) => !changed.has(id))).toEqual([]);
    expect(
      ((await service.search({ text: 'dunnart springs', limits: { vendors: 50 } })).hits.vendors ?? []).map(
        (hit) => hit.id,
      ),
    ).toContain(vendorId);
    const fresh = await startService(engine.repositories.search);
    for (const text of ['dibbler', 'dunnart', 'cotton', 'oak']) {
      const sorted = async (from: SearchService) => (await from.productIds(text)).sort((a, b) => a - b);
      expect(await sorted(service)).toEqual(await sorted(fresh.service));
    }
    await fresh.service.close();
    await service.close();
  });

  it('more products than updates carry joining a category and a brand created with them (a first import) are merged in beside: the catalog not read whole', async () => {
    const { repository, hooks } = hookedRepository(engine.repositories.search);
    const { service } = await startService(repository);
    const loadsBefore = hooks.fullLoads;
    // New terms hold no searchable product before (no document): no product document names them, so only the
    // products joining them, changes of their own, are read.
    await engine.query(
      `INSERT INTO terms (taxonomy, slug, name) VALUES ('product_cat', 'wombat-gear', 'Wombat Gear'),
         ('product_brand', 'wombat-works', 'Wombat Works')`,
    );
    await engine.query(
      `INSERT INTO product_terms (product_id, term_id)
       SELECT p.id, t.id FROM (SELECT id FROM products WHERE type <> 'variation' ORDER BY id LIMIT 1800) p
       CROSS JOIN (SELECT id FROM terms WHERE slug IN ('wombat-gear', 'wombat-works')) t`,
    );
    const [{ searchable = 0 } = {}] = await engine.query<{ searchable: number }>(
      `SELECT count(*) AS searchable FROM products p JOIN product_terms x ON x.product_id = p.id
       JOIN terms t ON t.id = x.term_id WHERE t.slug = 'wombat-works' AND p.type <> 'variation'
       AND p.status = 'publish' AND p.visibility IN ('visible', 'search')`,
    );
    // 1,800 products changed, more than updates carry; some of them are not searchable.
    expect(Number(searchable)).toBeGreaterThan(1000);
    await waitUntil(async () => {
      const { hits, totalProducts } = await service.search({
        text: 'wombat',
        limits: { products: 1, product_cat: 1, product_brand: 1 },
      });
      expect(totalProducts).toBeGreaterThanOrEqual(Number(searchable));
      expect(hits.product_cat).toHaveLength(1);
      expect(hits.product_brand).toHaveLength(1);
    });
    await waitUntil(() => expect(service.rebuilding).toBe(false));
    expect(hooks.fullLoads).toBe(loadsBefore);
    const fresh = await startService(engine.repositories.search);
    // The same products and the same terms suggested (ties may come in another order).
    for (const text of ['wombat', 'cotton', 'sh']) {
      const sorted = async (from: SearchService) => (await from.productIds(text)).sort((a, b) => a - b);
      expect(await sorted(service)).toEqual(await sorted(fresh.service));
      const terms = async (from: SearchService) => {
        const { hits } = await from.search({ text, limits: { product_cat: 20, product_brand: 20 } });
        return [...(hits.product_cat ?? []), ...(hits.product_brand ?? [])].map((hit) => hit.key).sort();
      };
      expect(await terms(service)).toEqual(await terms(fresh.service));
    }
    await fresh.service.close();
    await service.close();
    // The next tests pick the biggest brand: the catalog as it was.
    await engine.query("DELETE FROM terms WHERE slug IN ('wombat-gear', 'wombat-works')");
  });
});
