import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Term } from '../../../shared/catalog/types';
import { seedDemoCatalog } from '../../catalog/import/seedDemoCatalog';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import type { ProductListQuery } from '../ports';
import { createPgRepositories } from '../postgres/createPgRepositories';
import { queryNamed } from '../postgres/namedQuery';
import { openPostgres, type PgPool } from '../postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../postgres/testDatabase';
import { createSqliteRepositories } from '../sqlite/createSqliteRepositories';
import type { SqlDialect } from './dialect';
import { productListSql } from './productListSql';

/*
 * The listing filter both engines share, run on the demo catalog and checked against the rows themselves: which
 * products a shop page, a term or vendor page and a search result list, and in which order.
 */

interface Row {
  id: number;
  type: string;
  status: string;
  visibility: string;
  featured: number;
  vendor_id: number | null;
  total_sales: number;
}

interface Engine {
  /** The ids the built statement lists, in its order. */
  list(query: ProductListQuery): Promise<number[]>;
  all<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

async function openSqliteEngine(dialect: SqlDialect): Promise<Engine> {
  const dataDir = mkdtempSync(join(tmpdir(), 'product-list-sql-'));
  const db: SqliteDatabase = openDatabase(dataDir);
  const repositories = createSqliteRepositories(db);
  await seedDemoCatalog(repositories);
  return {
    async list(query) {
      const { where, orderBy, params } = productListSql(query, dialect);
      return db
        .prepare(`SELECT p.id FROM products p WHERE ${where} ORDER BY ${orderBy}`)
        .pluck()
        .all(params) as number[];
    },
    async all<T>(sql: string) {
      return db.prepare(sql).all() as T[];
    },
    async close() {
      await repositories.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgresEngine(dialect: SqlDialect): Promise<Engine> {
  const database = await createTestDatabase();
  const pool: PgPool = await openPostgres(database.url);
  const repositories = createPgRepositories(pool);
  await seedDemoCatalog(repositories);
  return {
    async list(query) {
      const { where, orderBy, params } = productListSql(query, dialect);
      const rows = await queryNamed<{ id: number }>(
        pool,
        `SELECT p.id FROM products p WHERE ${where} ORDER BY ${orderBy}`,
        params,
      );
      return rows.map((row) => Number(row.id));
    },
    async all<T>(sql: string) {
      return (await pool.query(sql)).rows as T[];
    },
    async close() {
      await repositories.close();
      await database.drop();
    },
  };
}

const ENGINES = [
  { dialect: 'sqlite' as const, open: openSqliteEngine, skip: false },
  { dialect: 'postgres' as const, open: openPostgresEngine, skip: !TEST_DATABASE_URL },
];

const base = { orderby: 'popularity', page: 1, perPage: 100 } as const;

for (const { dialect, open, skip } of ENGINES) {
  describe.skipIf(skip)(`productListSql on ${dialect}`, { timeout: 60_000 }, () => {
    let engine: Engine;
    let rows: Row[];
    let terms: { id: number; taxonomy: string; parent_id: number | null }[];
    let productTerms: { product_id: number; term_id: number }[];

    beforeAll(async () => {
      engine = await open(dialect);
      rows = (
        await engine.all<Row>(
          'SELECT id, type, status, visibility, featured, vendor_id, total_sales FROM products ORDER BY id',
        )
      ).map((row) => ({
        ...row,
        id: Number(row.id),
        vendor_id: row.vendor_id === null ? null : Number(row.vendor_id),
      }));
      terms = (await engine.all<(typeof terms)[number]>('SELECT id, taxonomy, parent_id FROM terms')).map(
        (t) => ({
          ...t,
          id: Number(t.id),
          parent_id: t.parent_id === null ? null : Number(t.parent_id),
        }),
      );
      productTerms = (
        await engine.all<(typeof productTerms)[number]>('SELECT product_id, term_id FROM product_terms')
      ).map((link) => ({ product_id: Number(link.product_id), term_id: Number(link.term_id) }));
    });

    afterAll(async () => {
      await engine?.close();
    });

    /** Published parents visible in the context, most sold first (the `popularity` ordering). */
    function listed(context: 'shop' | 'search', keep: (row: Row) => boolean = () => true): number[] {
      const visibleIn = context === 'shop' ? ['visible', 'catalog'] : ['visible', 'search'];
      return rows
        .filter(
          (row) => row.type !== 'variation' && row.status === 'publish' && visibleIn.includes(row.visibility),
        )
        .filter(keep)
        .sort((a, b) => b.total_sales - a.total_sales || b.id - a.id)
        .map((row) => row.id);
    }

    it('lists the published parents the shop shows, leaving out drafts, variations and hidden products', async () => {
      const shop = await engine.list({ ...base, context: 'shop' });
      expect(shop.length).toBeGreaterThan(0);
      expect(shop).toEqual(listed('shop'));
      expect(shop.length).toBeLessThan(rows.length);
    });

    it('uses search visibility for search results and catalog visibility for the shop', async () => {
      const search = await engine.list({ ...base, context: 'search' });
      expect(search).toEqual(listed('search'));
      expect(search).not.toEqual(await engine.list({ ...base, context: 'shop' }));
    });

    it('keeps only featured products when asked', async () => {
      const featured = await engine.list({ ...base, context: 'shop', featured: true });
      expect(featured.length).toBeGreaterThan(0);
      expect(featured).toEqual(listed('shop', (row) => row.featured === 1));
    });

    it("keeps only a vendor's products on its page", async () => {
      const vendorId = rows.find(
        (row) => row.vendor_id !== null && listed('shop').includes(row.id),
      )?.vendor_id;
      expect(vendorId).toBeDefined();
      const vendor = await engine.list({ ...base, context: 'shop', vendorId: vendorId as number });
      expect(vendor.length).toBeGreaterThan(0);
      expect(vendor).toEqual(listed('shop', (row) => row.vendor_id === vendorId));
    });

    it("lists a category's products with those of its descendant categories", async () => {
      const parent = terms.find(
        (term) => term.taxonomy === 'product_cat' && terms.some((t) => t.parent_id === term.id),
      );
      expect(parent).toBeDefined();
      const family = new Set([parent?.id]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const term of terms) {
          if (term.parent_id !== null && family.has(term.parent_id) && !family.has(term.id)) {
            family.add(term.id);
            grew = true;
          }
        }
      }
      const inFamily = new Set(
        productTerms.filter((link) => family.has(link.term_id)).map((link) => link.product_id),
      );
      const ownOnly = new Set(
        productTerms.filter((link) => link.term_id === parent?.id).map((link) => link.product_id),
      );
      const term = { id: parent?.id } as Term;
      const category = await engine.list({ ...base, context: 'shop', term });
      expect(category).toEqual(listed('shop', (row) => inFamily.has(row.id)));
      expect(category.length).toBeGreaterThan(listed('shop', (row) => ownOnly.has(row.id)).length);
    });

    it("keeps search results in the index's order, still leaving out what search may not show", async () => {
      const searchable = listed('search');
      const hidden = rows.find((row) => row.visibility === 'hidden' && row.status === 'publish');
      expect(searchable.length).toBeGreaterThan(2);
      expect(hidden).toBeDefined();
      // Least sold first: the opposite of the popularity order, so only the ids' order can give it.
      const ranked = [...searchable].reverse();
      const ids = [ranked[0] as number, hidden?.id as number, ...ranked.slice(1)];
      expect(await engine.list({ ...base, context: 'search', ids, relevance: true })).toEqual(ranked);
      expect(await engine.list({ ...base, context: 'search', ids })).toEqual(searchable);
    });
  });
}
