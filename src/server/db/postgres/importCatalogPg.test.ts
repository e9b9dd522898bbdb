import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBenchCatalog } from '../../catalog/bench/generateBenchCatalog';
import { readCatalogFiles } from '../../catalog/import/readCatalogFiles';
import { DEMO_CATALOG, seedDemoCatalog } from '../../catalog/import/seedDemoCatalog';
import { EMPTY_SIDECAR } from '../../catalog/import/siteSidecarSchema';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import type { Repositories } from '../ports';
import { createSqliteRepositories } from '../sqlite/createSqliteRepositories';
import { createPgRepositories } from './createPgRepositories';
import { openPostgres } from './openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from './testDatabase';

/*
 * A small import into a stocked PostgreSQL catalog writes only what it changes, as on SQLite: the search index's
 * change log then names the imported product alone, and the index catches up by it instead of rebuilding.
 */

describe.skipIf(!TEST_DATABASE_URL)('importCatalog (PostgreSQL) writes only what the import changes', () => {
  let dataDir: string;
  let sqliteDb: SqliteDatabase;
  let lite: Repositories;
  let pg: Repositories;
  let url: string;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pg-import-'));
    sqliteDb = openDatabase(dataDir);
    lite = createSqliteRepositories(sqliteDb);
    const database = await createTestDatabase();
    drop = database.drop;
    url = database.url;
    pg = createPgRepositories(await openPostgres(database.url));
    await seedDemoCatalog(lite);
    await seedDemoCatalog(pg);
  }, 60_000);

  afterAll(async () => {
    await lite?.close();
    rmSync(dataDir, { recursive: true, force: true });
    await pg?.close();
    await drop?.();
  });

  it('logs only the imported product as changed', async () => {
    const catalog = await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar);
    const mug = catalog.products.find((product) => product.type === 'simple' && product.csvId !== null);
    if (!mug) throw new Error('the demo catalog has no simple product');
    const one = {
      products: [{ ...mug, name: `${mug.name} (renamed)` }],
      site: EMPTY_SIDECAR,
    };
    for (const repositories of [lite, pg]) {
      const before = (await repositories.search.revision()).catalog;
      const summary = await repositories.catalog.importCatalog(structuredClone(one));
      expect(summary).toMatchObject({ created: 0, updated: 1 });
      const changes = await repositories.search.changesSince(before, 1000);
      expect(changes.full).toBe(false);
      expect(changes.products, repositories === pg ? 'pg' : 'sqlite').toEqual([mug.csvId]);
    }
  });

  it('commits a large import with the planner statistics of what it wrote, not of the catalog before it', async () => {
    const pool = await openPostgres(url);
    try {
      const tuples = async () =>
        Number(
          (await pool.query<{ n: number }>("SELECT reltuples AS n FROM pg_class WHERE relname = 'products'"))
            .rows[0]?.n,
        );
      const before = await tuples();
      const summary = await pg.catalog.importCatalog(generateBenchCatalog({ products: 1200 }));
      expect(summary.created).toBeGreaterThanOrEqual(1000);
      // Stale statistics (a few dozen products) made the planner sort every later row for each page of the
      // search replicas' rebuild instead of walking the id index.
      expect(before).toBeLessThan(1000);
      expect(await tuples()).toBeGreaterThanOrEqual(1200);

      // The same products re-priced: row counts stay, and the import spends no time on statistics.
      const analyzed = async () =>
        Number(
          (
            await pool.query<{ n: number }>(
              "SELECT analyze_count AS n FROM pg_stat_user_tables WHERE relname = 'products'",
            )
          ).rows[0]?.n,
        );
      const analyzedBefore = await analyzed();
      const repriced = generateBenchCatalog({ products: 1200 });
      for (const product of repriced.products) product.regularPrice = (product.regularPrice ?? 0) + 1;
      const again = await pg.catalog.importCatalog(repriced);
      expect(again.updated).toBeGreaterThanOrEqual(1000);
      expect(again.created).toBe(0);
      expect(await analyzed()).toBe(analyzedBefore);
    } finally {
      await pool.end();
    }
  }, 60_000);
});
