import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountingPool, countingPool } from '../../../../test-support/countingPool';
import type { ProductOrdering } from '../../../shared/catalog/types';
import { seedDemoCatalog } from '../../catalog/import/seedDemoCatalog';
import type { ProductListQuery } from '../ports';
import { createPgRepositories } from './createPgRepositories';
import { openPostgres, type PgPool } from './openPostgres';
import { PgCatalogRepository } from './PgCatalogRepository';
import { createTestDatabase, TEST_DATABASE_URL } from './testDatabase';

/*
 * A term's listing on PostgreSQL has two forms (productListSql `fewInTerm`): a small term's products are read first
 * and sorted, a big term's listing walks the order until a page of them turned up. Both must list the same page; the
 * count decides which one runs.
 */

const ORDERINGS: ProductOrdering[] = ['menu_order', 'popularity', 'rating', 'date', 'price', 'price-desc'];
const PRODUCTS_FIRST = 'p.id = ANY(ARRAY(SELECT product_id FROM product_terms';

describe.skipIf(!TEST_DATABASE_URL)('PostgreSQL term listings', { timeout: 60_000 }, () => {
  let pool: PgPool;
  let counting: CountingPool;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    pool = await openPostgres(database.url, { max: 4 });
    await seedDemoCatalog(createPgRepositories(pool));
    counting = countingPool(pool);
  });

  afterAll(async () => {
    await pool?.end();
    await drop?.();
  });

  it('list the same page whether a term’s products are read first or its order is walked', async () => {
    const walking = new PgCatalogRepository(pool, { fewInTerm: -1 });
    const readingFirst = new PgCatalogRepository(pool, { fewInTerm: Number.POSITIVE_INFINITY });
    const terms = [...(await walking.listTerms('product_cat')), ...(await walking.listTerms('product_tag'))];
    expect(terms.length).toBeGreaterThan(5);
    let compared = 0;
    for (const term of terms) {
      for (const orderby of ORDERINGS) {
        for (const page of [1, 2]) {
          const query: ProductListQuery = { context: 'shop', term, orderby, page, perPage: 2 };
          const walked = await walking.listProducts(query);
          const readFirst = await readingFirst.listProducts(query);
          expect(readFirst.total, `${term.slug} ${orderby} page ${page}`).toBe(walked.total);
          expect(
            readFirst.items.map((item) => item.id),
            `${term.slug} ${orderby} page ${page}`,
          ).toEqual(walked.items.map((item) => item.id));
          if (walked.items.length > 0) compared++;
        }
      }
    }
    // Pages with products in them, and second pages among them (the offset applies in both forms).
    expect(compared).toBeGreaterThan(terms.length);
  });

  it('read a small term’s products first and walk a big term’s order, by the count', async () => {
    const [apparel] = (await new PgCatalogRepository(pool).listTerms('product_cat')).filter(
      (term) => term.parentId === null && term.slug === 'apparel',
    );
    if (!apparel) throw new Error('the demo catalog has an apparel category');
    const query: ProductListQuery = {
      context: 'shop',
      term: apparel,
      orderby: 'menu_order',
      page: 1,
      perPage: 12,
    };
    const pageStatement = async (fewInTerm: number) => {
      counting.reset();
      const listed = await new PgCatalogRepository(counting.pool, { fewInTerm }).listProducts(query);
      const statements = counting.statements();
      // The count, then the page.
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatch(/^SELECT COUNT\(\*\)/);
      return { listed, page: statements[1] as string };
    };
    const small = await pageStatement(1000);
    expect(small.listed.total).toBeGreaterThan(1);
    expect(small.page).toContain(PRODUCTS_FIRST);
    // Exactly at the bound still counts as small; one product more is a big term.
    expect((await pageStatement(small.listed.total)).page).toContain(PRODUCTS_FIRST);
    const big = await pageStatement(small.listed.total - 1);
    expect(big.page).not.toContain(PRODUCTS_FIRST);
    expect(big.listed).toEqual(small.listed);
  });
});
