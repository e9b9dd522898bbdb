import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoCatalog } from '../../catalog/import/seedDemoCatalog';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import type { Repositories } from '../ports';
import { createSqliteRepositories } from '../sqlite/createSqliteRepositories';
import { facetProductSql, idsParam } from './facetSql';

/*
 * The facet index's read of listed products, which follows every catalog change (after a big import, tens of
 * thousands of ids a page at a time on the request loop): the same records as the read of every product, found from
 * the listed ids rather than from every term of a taxonomy.
 */

describe('facet reads of listed products (SQLite)', () => {
  let dataDir: string;
  let db: SqliteDatabase;
  let repositories: Repositories;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'facet-sql-'));
    db = openDatabase(dataDir);
    repositories = createSqliteRepositories(db);
    await seedDemoCatalog(repositories);
  });

  afterAll(async () => {
    await repositories.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads the listed products as the read of every product has them, and reports the ids gone', async () => {
    const all = await repositories.facets.loadFacetProducts();
    const withTerms = all.products.filter((product) => product.categories.length && product.tags.length);
    expect(withTerms.length).toBeGreaterThan(2);
    const listed = [withTerms[0], withTerms.at(-1), all.products[1]].map((product) => product?.id ?? 0);
    const read = await repositories.facets.loadFacetProducts([...listed, 999_999]);
    expect(read.products.map((product) => product.id).sort()).toEqual([...listed].sort());
    for (const product of read.products) {
      expect(product).toEqual(all.products.find((each) => each.id === product.id));
    }
    expect(read.removedIds).toEqual([999_999]);
  });

  it.each(['categories', 'tags'] as const)(
    'finds the %s of listed products from their ids, not from every term',
    (part) => {
      const sql = facetProductSql(true, 'sqlite')[part];
      const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ ids: idsParam([1, 2, 3], 'sqlite') }) as {
        detail: string;
      }[];
      const outer = plan.find((step) => step.detail.startsWith('SEARCH') || step.detail.startsWith('SCAN'));
      expect(outer?.detail).toMatch(/^SEARCH x USING .*\(product_id=\?\)/);
    },
  );
});
