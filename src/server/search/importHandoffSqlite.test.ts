import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { openDatabase } from '../db/openDatabase';
import type { Repositories, SearchRepository } from '../db/ports';
import { HandoffEnded } from '../db/ports/search';
import { createSqliteRepositories } from '../db/sqlite/createSqliteRepositories';
import { SqliteCatalogRepository } from '../db/sqlite/SqliteCatalogRepository';
import { handoffFileOf, openHandoffFile, SqliteImportHandoffs } from '../db/sqlite/SqliteImportHandoffs';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES } from './SearchIndex';
import { SearchService } from './SearchService';

/*
 * On SQLite, an import run by a process of its own (`npm run import`) hands its documents to the shop's server
 * processes through a side file before it commits, waits while each builds the index it will answer from, and at
 * the commit each one swaps it in, reading none of the import's products back from the catalog.
 */

// The machine running the tests may be busy: no speed is asserted, the waits are generous.
vi.setConfig({ testTimeout: 120_000 });

describe('an import handed over to the server processes (SQLite)', () => {
  let dataDir: string;
  /** The importing process's connection. */
  let importer: Repositories;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shop-handoff-'));
    importer = createSqliteRepositories(openDatabase(dataDir));
    await seedDemoCatalog(importer);
  });
  afterAll(async () => {
    await importer?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A server process's search: its own connection and replica; counts the product documents it reads. */
  async function replica(options: { mergeDelayMs?: number; failingMerges?: boolean } = {}) {
    const { built, createIndex } = timedMerges({
      mergeDelayMs: options.mergeDelayMs,
      failing: options.failingMerges,
    });
    const repositories = createSqliteRepositories(openDatabase(dataDir));
    // The change-log reads in parts (a long backlog): where each began, how many rows it asked, what it answered;
    // and the most rows any one statement returned.
    const partReads: {
      from: number;
      limit: number;
      wideAfter: number;
      seq: number;
      more: boolean;
      rows: number;
    }[] = [];
    const changeReads = { mostRows: 0 };
    const { repository, read } = countingReads(repositories.search, {
      async changesSince(seq, limit, part) {
        const changes = await repositories.search.changesSince(seq, limit, part);
        const { products, terms, vendors, posts } = changes;
        const rows = products.length + terms.length + vendors.length + posts.length;
        changeReads.mostRows = Math.max(changeReads.mostRows, rows);
        if (part)
          partReads.push({
            from: seq,
            limit,
            wideAfter: part.wideAfter,
            seq: changes.seq,
            more: !!changes.more,
            rows,
          });
        return changes;
      },
    });
    const service = new SearchService({
      repository,
      index: new MemorySearchIndex(),
      createIndex,
      secret: 'test',
      checkMs: 50,
    });
    await service.start(DEFAULT_RULES);
    return {
      service,
      read,
      built,
      partReads,
      changeReads,
      async answers() {
        return Promise.all(HANDOFF_QUERIES.map((query) => service.productIds(query)));
      },
      async close() {
        await service.close();
        await repositories.close();
      },
    };
  }
  type Replica = Awaited<ReturnType<typeof replica>>;

  async function productNamed(sku: string): Promise<{ id: number; name: string }> {
    const db = openDatabase(dataDir);
    try {
      return db.prepare('SELECT id, name FROM products WHERE sku = ?').get(sku) as {
        id: number;
        name: string;
      };
    } finally {
      db.close();
    }
  }

  async function everyReplicaFinds(replicas: Replica[], sku: string): Promise<void> {
    const product = await productNamed(sku);
    for (const each of replicas) {
      await waitUntil(async () => expect(await each.service.productIds(product.name)).toContain(product.id));
    }
  }

  /** The side file's handoffs, as the import left them. */
  function handoffRows() {
    const side = openHandoffFile(handoffFileOf(join(dataDir, 'shop.sqlite')));
    try {
      return {
        handoffs: side.prepare('SELECT outcome, parts FROM handoffs ORDER BY id').all() as {
          outcome: string | null;
          parts: number | null;
        }[],
        parts: side.prepare('SELECT count(*) FROM handoff_parts').pluck().get() as number,
      };
    } finally {
      side.close();
    }
  }

  /**
   * The importing process's catalog, calling `onAnswers` with how many processes had answered each time the import
   * looked (it commits after the last look).
   */
  function importerWatching(onAnswers: (answered: number) => void = () => {}) {
    const db = openDatabase(dataDir);
    class WatchedFile extends SqliteImportHandoffs {
      override get file() {
        const side = super.file;
        return new Proxy(side, {
          get(target, property) {
            if (property !== 'prepare') return Reflect.get(target, property, target).bind?.(target);
            return (sql: string) => {
              const statement = target.prepare(sql);
              if (!sql.startsWith('SELECT count(*) FROM handoff_acks')) return statement;
              return {
                pluck: () => ({
                  get: (...params: unknown[]) => {
                    const answered = statement.pluck().get(...params) as number;
                    onAnswers(answered);
                    return answered;
                  },
                }),
              };
            };
          },
        });
      }
    }
    const handoffs = new WatchedFile(db.name);
    return {
      import(catalog: Parameters<Repositories['catalog']['importCatalog']>[0]) {
        return new SqliteCatalogRepository(db, handoffs).importCatalog(catalog, () => {}, {
          ownConnection: true,
          handoffWaitMs: 60_000,
        });
      },
      close() {
        handoffs.close();
        db.close();
      },
    };
  }

  it('each process builds from the handoff before the commit, then swaps it in without reading the products back', async () => {
    const replicas = [await replica({ mergeDelayMs: 300 }), await replica({ mergeDelayMs: 300 })];
    const importing = importerWatching();
    try {
      for (const each of replicas) each.read.products = 0;
      const before = handoffRows().handoffs.length;
      await importing.import(generateBenchCatalog({ products: 2500 }));
      // Both processes had built their merge (each 300 ms late) by the time the import committed.
      expect(replicas.map((each) => each.built.merges)).toEqual([1, 1]);
      const after = handoffRows();
      expect(after.handoffs.slice(before)).toEqual([{ outcome: 'committed', parts: expect.any(Number) }]);
      expect(after.parts).toBe(0);
      await everyReplicaFinds(replicas, 'BN-002500');
      // None of the 2,500 products was read back from the catalog.
      expect(replicas.map((each) => each.read.products)).toEqual([0, 0]);
      // What the swap caught up with was read in parts of 2,000 rows, each from the last, requests between them
      // (one read of an import's 26,000 changes held the event loop for 70 ms).
      for (const { partReads, changeReads } of replicas) {
        expect(changeReads.mostRows).toBeLessThanOrEqual(2000);
        // The reads (the swap's, any refresh's: one at a time), each beginning at the position it started from.
        const reads: (typeof partReads)[] = [];
        for (const part of partReads) {
          if (part.from === part.wideAfter) reads.push([part]);
          else reads.at(-1)?.push(part);
        }
        const rowsOf = (parts: typeof partReads) => parts.reduce((sum, part) => sum + part.rows, 0);
        const [swap, ...refreshes] = [...reads].sort((a, b) => rowsOf(b) - rowsOf(a));
        expect(swap?.length).toBeGreaterThan(1);
        // A refresh while the build was in flight stopped past what updates carry (1,500): the rest was the swap's.
        for (const parts of refreshes) expect(rowsOf(parts)).toBeLessThanOrEqual(1501);
        for (const parts of reads) {
          expect(parts.every((part) => part.limit <= 2000)).toBe(true);
          expect(parts.slice(1).map((part) => part.from)).toEqual(parts.slice(0, -1).map((part) => part.seq));
          // Each part but the last found more after it (the last: nothing more, or the read's limit reached).
          expect(parts.slice(0, -1).every((part) => part.more)).toBe(true);
        }
      }
      // The index built from the handoff answers as one built from the committed catalog.
      await expectAnswersOfFresh(replicas, await replica());
    } finally {
      importing.close();
      for (const each of replicas) await each.close();
    }
  });

  it('an import rolled back after handing over changes nothing in the processes, which go on following the catalog', async () => {
    const replicas = [await replica(), await replica()];
    // The import fails once both processes said they built from its handoff: its last step before COMMIT.
    const importing = importerWatching((answered) => {
      if (answered >= 2) throw new Error('the import failed');
    });
    try {
      const before = await Promise.all(replicas.map((each) => each.answers()));
      await expect(importing.import(newBenchProducts('RB', 23))).rejects.toThrow('the import failed');
      expect(handoffRows().handoffs.at(-1)?.outcome).toBe('aborted');
      expect(await productNamed('RB-001600')).toBeUndefined();
      // Each process built an index of the import, then dropped it: the answers are the catalog's, as before.
      await waitUntil(() =>
        expect(replicas.every((each) => each.built.merges === 1 && !each.service.rebuilding)).toBe(true),
      );
      expect(await Promise.all(replicas.map((each) => each.answers()))).toEqual(before);
      // And they still follow the catalog.
      const db = openDatabase(dataDir);
      db.prepare("UPDATE products SET name = 'Quixotic Linen Tea Towel' WHERE id = 1025").run();
      db.close();
      for (const each of replicas) {
        await waitUntil(async () => expect(await each.service.productIds('quixotic')).toEqual([1025]));
      }
    } finally {
      importing.close();
      for (const each of replicas) await each.close();
    }
  });

  it('a process whose build from the handoff failed tells the import at once, and follows the import from the catalog', async () => {
    const replicas = [await replica(), await replica({ failingMerges: true })];
    /** How many processes had answered each time the import looked. */
    const looks: number[] = [];
    const importing = importerWatching((answered) => looks.push(answered));
    try {
      // Without the failing process's answer the import would wait out its 60 s and find one answer.
      await importing.import(newBenchProducts('FM', 17));
      expect(looks.at(-1)).toBe(2);
      await everyReplicaFinds(replicas, 'FM-001600');
    } finally {
      importing.close();
      for (const each of replicas) await each.close();
    }
  });

  it('with no server process watching, the import hands nothing over', async () => {
    const importing = importerWatching();
    try {
      const before = handoffRows().handoffs.length;
      await importing.import(newBenchProducts('NW', 29));
      expect(handoffRows().handoffs.length).toBe(before);
      expect(await productNamed('NW-001600')).toBeDefined();
    } finally {
      importing.close();
    }
  });

  it("a handoff whose import's process is gone without an outcome counts as rolled back", async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid as number;
    const handoffs = new SqliteImportHandoffs(join(dataDir, 'shop.sqlite'));
    try {
      const id = Number(
        handoffs.file
          .prepare('INSERT INTO handoffs (pid, up_to, changes) VALUES (?, 0, ?)')
          .run(
            gone,
            JSON.stringify({ seq: 0, full: false, products: [1], terms: [], vendors: [], posts: [] }),
          ).lastInsertRowid,
      );
      const handoff = {
        id,
        xid: `pid ${gone}`,
        upTo: 0,
        changes: { seq: 0, full: false, products: [1], terms: [], vendors: [], posts: [] },
      };
      expect((await handoffs.pending()).map((each) => each.id)).not.toContain(id);
      expect(await handoffs.outcome(handoff)).toBe('aborted');
      await expect(handoffs.part(handoff, 0)).rejects.toBeInstanceOf(HandoffEnded);
      // The same handoff of a running process is in flight.
      handoffs.file.prepare('UPDATE handoffs SET pid = ? WHERE id = ?').run(process.pid, id);
      expect((await handoffs.pending()).map((each) => each.id)).toContain(id);
      expect(await handoffs.outcome(handoff)).toBe('in progress');
      handoffs.file.prepare('DELETE FROM handoffs WHERE id = ?').run(id);
    } finally {
      handoffs.close();
    }
  });

  it('a side file that cannot be opened leaves the import and the processes as they were without it', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'shop-handoff-blocked-'));
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    // A directory where the side file would be.
    mkdirSync(handoffFileOf(join(elsewhere, 'shop.sqlite')), { recursive: true });
    const importing = createSqliteRepositories(openDatabase(elsewhere));
    const serving = createSqliteRepositories(openDatabase(elsewhere));
    const service = new SearchService({
      repository: serving.search,
      index: new MemorySearchIndex(),
      createIndex: () => new MemorySearchIndex(),
      secret: 'test',
      checkMs: 50,
    });
    try {
      await service.start(DEFAULT_RULES);
      await importing.catalog.importCatalog(newBenchProducts('BL', 31), () => {}, { ownConnection: true });
      expect(warnings).toHaveBeenCalledWith(
        expect.stringContaining('cannot hand their search documents over'),
      );
      const newest = (
        await importing.catalog.listAdminProducts({
          search: '',
          status: null,
          sku: 'BL-001600',
          page: 1,
          perPage: 1,
        })
      ).items[0] as { id: number; name: string };
      expect(newest).toBeDefined();
      await waitUntil(async () => expect(await service.productIds(newest.name)).toContain(newest.id));
    } finally {
      await service.close();
      await serving.close();
      await importing.close();
      warnings.mockRestore();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('searches sharing one connection count once among the processes an import waits for, until the last stops', async () => {
    const handoffs = new SqliteImportHandoffs(join(dataDir, 'shop.sqlite'));
    const registered = () =>
      handoffs.file.prepare('SELECT count(*) FROM replicas WHERE replica = ?').pluck().get(handoffs.replica);
    try {
      const stopFirst = handoffs.watch(() => {});
      const stopSecond = handoffs.watch(() => {});
      expect(registered()).toBe(1);
      stopFirst();
      stopFirst();
      expect(registered()).toBe(1);
      stopSecond();
      expect(registered()).toBe(0);
    } finally {
      handoffs.close();
    }
  });
});
