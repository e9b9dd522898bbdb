import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  countingReads,
  expectAnswersOfFresh,
  HANDOFF_QUERIES,
  newBenchProducts,
  timedMerges,
  waitUntil,
} from '../../../test-support/handoffFixtures';
import { generateBenchCatalog } from '../catalog/bench/generateBenchCatalog';
import { seedDemoCatalog } from '../catalog/import/seedDemoCatalog';
import type { FacetRepository, ImportHandoffs, SearchRepository } from '../db/ports';
import { pgChangeNotifications } from '../db/postgres/changeNotifications';
import { createPgRepositories } from '../db/postgres/createPgRepositories';
import { importCatalogPg } from '../db/postgres/importCatalogPg';
import { openPostgres, type PgPool } from '../db/postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../db/postgres/testDatabase';
import { FacetService } from './facets/FacetService';
import { EMPTY_SELECTION } from './facets/facetTypes';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES } from './SearchIndex';
import { SearchService } from './SearchService';

/*
 * PostgreSQL mode (`node scripts/ensure-postgres.mjs -- npx vitest run src/server/search/importHandoff.test.ts`):
 * an import of many products hands its documents to the running processes before it commits, waits while each
 * builds the index it will answer from, and at the commit each one swaps it in, reading none of the import's
 * products back from the catalog.
 */

// The machine running the tests may be busy: no speed is asserted, the waits are generous.
vi.setConfig({ testTimeout: 120_000 });

describe.skipIf(!TEST_DATABASE_URL)('an import handed over to the search replicas (PostgreSQL)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let writerPool: PgPool;
  beforeAll(async () => {
    database = await createTestDatabase();
    writerPool = await openPostgres(database.url, { max: 4 });
    await seedDemoCatalog(createPgRepositories(writerPool));
  });
  afterAll(async () => {
    await writerPool?.end();
    await database?.drop();
  });

  /**
   * A server process's search: its own replica, woken by notifications; counts the product documents it reads, and
   * runs `onImportSeen` once its change log first shows the import (before answering with it).
   */
  async function replica(
    onImportSeen: () => Promise<void> = async () => {},
    options: { mergeDelayMs?: number; failing?: 'merges' | 'part reads' } = {},
  ) {
    const { built, createIndex } = timedMerges({
      mergeDelayMs: options.mergeDelayMs,
      failing: options.failing === 'merges',
    });
    const notifications = pgChangeNotifications(database.url);
    const repositories = createPgRepositories(await openPostgres(database.url, { max: 3 }));
    const search = repositories.search;
    const handoffs = search.handoffs;
    const { repository, read } = countingReads(search, {
      async changesSince(...args) {
        const changes = await search.changesSince(...args);
        if (changes.products.length >= 1500) await onImportSeen();
        return changes;
      },
      ...(options.failing === 'part reads' &&
        handoffs && {
          handoffs: new Proxy(handoffs, {
            get(target, name) {
              const failed: ImportHandoffs['part'] = async () => {
                throw new Error('connection reset, say');
              };
              if (name === 'part') return failed;
              const value = Reflect.get(target, name, target);
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }),
        }),
    });
    const service = new SearchService({
      repository,
      index: new MemorySearchIndex(),
      createIndex,
      wakeUps: notifications,
      secret: 'test',
    });
    // Its facet index, counting the products it reads: by page (a rebuild) or by id (a catch-up).
    const facetReads = { pages: 0, products: 0 };
    const facetRepository: FacetRepository = new Proxy(repositories.facets, {
      get(target, property) {
        if (property === 'loadFacetProductPage') {
          const page: FacetRepository['loadFacetProductPage'] = (...args) => {
            facetReads.pages++;
            return target.loadFacetProductPage(...args);
          };
          return page;
        }
        if (property === 'loadFacetProducts') {
          const byId: FacetRepository['loadFacetProducts'] = (ids) => {
            facetReads.products += ids ? ids.length : Number.POSITIVE_INFINITY;
            return target.loadFacetProducts(ids);
          };
          return byId;
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const facets = new FacetService({ repository: facetRepository, search: service });
    service.follow(facets);
    await service.start(DEFAULT_RULES);
    return {
      service,
      read,
      built,
      facets,
      facetReads,
      async answers() {
        return Promise.all(HANDOFF_QUERIES.map((query) => service.productIds(query)));
      },
      async close() {
        await service.close();
        await notifications.close();
        await repositories.close();
      },
    };
  }

  /** The import's pool, calling `onAnswers` with what the import found each time it looked at the answers. */
  function answersWatched(onAnswers: (found: { answered: number; prepared: number }) => void): PgPool {
    return new Proxy(writerPool, {
      get(target, property) {
        if (property === 'query') {
          return async (sql: unknown, params?: unknown[]) => {
            const result = await target.query(sql as string, params);
            if (typeof sql === 'string' && sql.includes('FROM search_handoff_acks')) {
              onAnswers(result.rows[0] as { answered: number; prepared: number });
            }
            return result;
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  async function productNamed(sku: string): Promise<{ id: number; name: string }> {
    const { rows } = await writerPool.query<{ id: number; name: string }>(
      'SELECT id::int AS id, name FROM products WHERE sku = $1',
      [sku],
    );
    return rows[0] as { id: number; name: string };
  }

  /** Each replica finds the product of `sku` by its name (once it caught up with the import). */
  async function everyReplicaFinds(replicas: { service: SearchService }[], sku: string): Promise<void> {
    const product = await productNamed(sku);
    for (const each of replicas) {
      await waitUntil(async () => expect(await each.service.productIds(product.name)).toContain(product.id));
    }
  }

  it('an import rolled back after handing over changes nothing in the replicas, and clears its handoff', async () => {
    const replicas = [await replica(), await replica()];
    try {
      const before = await Promise.all(replicas.map((each) => each.answers()));
      // The import fails once both processes said they built from its handoff: its last step before COMMIT.
      const failing = answersWatched(({ prepared }) => {
        if (prepared >= 2) throw new Error('the import failed');
      });
      await expect(
        importCatalogPg(failing, generateBenchCatalog({ products: 1600, seed: 7 }), () => {}, {
          handoffWaitMs: 60_000,
        }),
      ).rejects.toThrow('the import failed');
      const { rows } = await writerPool.query('SELECT id FROM search_handoffs');
      expect(rows).toEqual([]);
      // Each process built an index of the import, then dropped it: the answers are the catalog's, as before.
      await waitUntil(() => expect(replicas.every((each) => !each.service.rebuilding)).toBe(true));
      expect(await Promise.all(replicas.map((each) => each.answers()))).toEqual(before);
      // And they still follow the catalog.
      await writerPool.query("UPDATE products SET name = 'Handed Linen Tea Towel' WHERE id = 1025");
      for (const each of replicas) {
        await waitUntil(async () => expect(await each.service.productIds('handed')).toEqual([1025]));
      }
    } finally {
      for (const each of replicas) await each.close();
    }
  });

  it('each process builds from the handoff before the commit, then swaps it in without reading the products back', async () => {
    // A rename of one of the import's products committed right after the import, before the processes caught up:
    // the handoff holds the name the import gave it, and the rename must win.
    let renamed = false;
    const renameOnce = async () => {
      if (renamed) return;
      renamed = true;
      await writerPool.query("UPDATE products SET name = 'Renamed Straight After' WHERE sku = 'BN-000002'");
    };
    const replicas = [await replica(renameOnce), await replica(renameOnce)];
    try {
      for (const each of replicas) each.read.products = 0;
      await importCatalogPg(writerPool, generateBenchCatalog({ products: 1600 }), () => {}, {
        handoffWaitMs: 60_000,
      });
      await everyReplicaFinds(replicas, 'BN-001600');
      const renamedProduct = await productNamed('BN-000002');
      expect(renamed).toBe(true);
      for (const each of replicas) {
        await waitUntil(async () =>
          expect(await each.service.productIds('renamed straight after')).toEqual([renamedProduct.id]),
        );
      }
      // Only what else changed is read at the commit (the renamed product): not the 1,600 products.
      expect(replicas.map((each) => each.read.products)).toEqual([1, 1]);
      // The index built from the handoff answers as one built from the committed catalog.
      await expectAnswersOfFresh(replicas, await replica());
    } finally {
      for (const each of replicas) await each.close();
    }
  });

  it("each process's facet index takes in the handed products by id afterwards, not the whole catalog again", async () => {
    const replicas = [await replica(), await replica()];
    try {
      const catalog = newBenchProducts('FC', 19);
      for (const each of replicas) {
        each.facetReads.pages = 0;
        each.facetReads.products = 0;
      }
      const { rows: before } = await writerPool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM products WHERE type <> 'variation'",
      );
      await importCatalogPg(writerPool, catalog, () => {}, { handoffWaitMs: 60_000 });
      const everything = { base: 'all', context: 'shop', selection: EMPTY_SELECTION } as const;
      const fresh = await replica();
      try {
        // The same products and counts as an index built from the catalog (in another order: the base 'all' is the
        // index's own order, which products taken in by a catch-up join at its end).
        const counted = async (facets: FacetService) => {
          const result = await facets.count(everything);
          return { ids: [...result.ids].sort((a, b) => a - b), facets: result.facets };
        };
        const expected = await counted(fresh.facets);
        expect(expected.ids.length).toBeGreaterThan(before[0]?.n ?? 0);
        for (const each of replicas) {
          await waitUntil(async () => expect(await counted(each.facets)).toEqual(expected));
          await waitUntil(() => expect(each.service.rebuilding).toBe(false));
          // The import's products, read by id: no page of the catalog.
          expect(each.facetReads.pages).toBe(0);
          expect(each.facetReads.products).toBeGreaterThanOrEqual(1600);
        }
      } finally {
        await fresh.close();
      }
    } finally {
      for (const each of replicas) await each.close();
    }
  });

  it('an import commits once every process has built the index it will answer from, not only read its documents', async () => {
    const replicas = [
      await replica(undefined, { mergeDelayMs: 500 }),
      await replica(undefined, { mergeDelayMs: 500 }),
    ];
    try {
      /** The processes' built merges each time the import looked at their answers. */
      const seen: number[][] = [];
      const watched = answersWatched(() => seen.push(replicas.map((each) => each.built.merges)));
      const catalog = newBenchProducts('TM', 13);
      await importCatalogPg(watched, catalog, () => {}, { handoffWaitMs: 60_000 });
      // Its last look found both answers in, and by then both merges were built.
      expect(seen.at(-1)).toEqual([1, 1]);
      await everyReplicaFinds(replicas, 'TM-001600');
    } finally {
      for (const each of replicas) await each.close();
    }
  });

  it.each([
    ['merges', 'FM', 17],
    ['part reads', 'FP', 21],
  ] as const)(
    'a process whose build from the handoff failed (%s) tells the import at once, and follows the import from the catalog',
    async (failing, prefix, seed) => {
      const replicas = [await replica(), await replica(undefined, { failing })];
      try {
        /** What the import found each time it looked at the answers. */
        const answers: { answered: number; prepared: number }[] = [];
        const watched = answersWatched((found) => answers.push(found));
        // Without the failing process's answer the import would wait out these 60 s and find one answer.
        await importCatalogPg(watched, newBenchProducts(prefix, seed), () => {}, { handoffWaitMs: 60_000 });
        expect(answers.at(-1)).toEqual({ answered: 2, prepared: 1 });
        await everyReplicaFinds(replicas, `${prefix}-001600`);
      } finally {
        for (const each of replicas) await each.close();
      }
    },
  );

  it('an import that renames a vendor hands over its products unchanged otherwise, with the new name', async () => {
    // The first catalog again, one vendor renamed, and 1,600 new products: the renamed vendor's stored products are
    // not changes of their own, yet their documents show its name.
    const catalog = generateBenchCatalog({ products: 1600 });
    const extra = generateBenchCatalog({ products: 1600, seed: 9 });
    const vendor = catalog.site.vendors[3] as (typeof catalog.site.vendors)[number];
    vendor.name = 'Quokkaville Trading';
    const renumbered = (sku: string) => sku.replace(/^BN-/, 'EX-');
    catalog.products.push(
      ...extra.products.map((row) => ({
        ...row,
        sku: row.sku && renumbered(row.sku),
        parent: row.parent && 'sku' in row.parent ? { sku: renumbered(row.parent.sku) } : row.parent,
      })),
    );
    for (const [sku, sidecar] of Object.entries(extra.site.products)) {
      catalog.site.products[renumbered(sku)] = sidecar;
    }
    const replicas = [await replica(), await replica()];
    try {
      for (const each of replicas) each.read.products = 0;
      await importCatalogPg(writerPool, catalog, () => {}, { handoffWaitMs: 60_000 });
      const fresh = await replica();
      try {
        const expected = await fresh.service.productIds('quokkaville');
        expect(expected.length).toBeGreaterThan(0);
        const { rows } = await writerPool.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM products p JOIN vendors v ON v.id = p.vendor_id WHERE v.name = 'Quokkaville Trading' AND p.sku LIKE 'BN-%'",
        );
        expect(rows[0]?.n).toBeGreaterThan(0);
        for (const each of replicas) {
          // The same products (all tie on the vendor's name: their order is the index's document order, which a
          // merge keeps and a fresh build takes by id).
          await waitUntil(async () =>
            expect((await each.service.productIds('quokkaville')).sort()).toEqual([...expected].sort()),
          );
        }
      } finally {
        await fresh.close();
      }
      expect(replicas.map((each) => each.read.products)).toEqual([0, 0]);
    } finally {
      for (const each of replicas) await each.close();
    }
  });

  it('an import whose handoff cannot be stored goes on without it, and the processes read its products', async () => {
    await writerPool.query('ALTER TABLE search_handoff_parts ADD CONSTRAINT refused CHECK (false)');
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const replicas = [await replica(), await replica()];
    try {
      const catalog = newBenchProducts('NH', 11);
      await importCatalogPg(writerPool, catalog, () => {}, { handoffWaitMs: 60_000 });
      expect(warnings).toHaveBeenCalledWith(expect.stringContaining('could not be handed'));
      expect((await writerPool.query('SELECT id FROM search_handoffs')).rows).toEqual([]);
      await everyReplicaFinds(replicas, 'NH-001600');
      for (const each of replicas) expect(each.read.products).toBeGreaterThanOrEqual(1600);
    } finally {
      warnings.mockRestore();
      await writerPool.query('ALTER TABLE search_handoff_parts DROP CONSTRAINT refused');
      for (const each of replicas) await each.close();
    }
  });
});
