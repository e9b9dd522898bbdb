import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';

/*
 * The statements a page runs on SQLite: in-process they are cheap, but each costs its binding and its row objects,
 * so a page reads its products, their images and variations in a fixed number of set-based statements (no
 * statement per card or per variation), as on PostgreSQL (postgres/pageQueries.test.ts).
 */

let shop: TestApp;
beforeAll(async () => {
  // Turns as long as a page: a request waiting for its turn would let the timers' background reads into the count.
  shop = await createTestApp({ settings: { server: { loopSliceMs: 1000 } } });
});
afterAll(async () => shop?.close());

/**
 * How many times any prepared statement ran while the page `url` was served (after a first, warming request): the
 * fewest over three visits, as a timer's background read (the change log's) may land in one while the page awaits.
 */
async function statementsOf(url: string): Promise<number> {
  expect((await shop.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  const Statement = Object.getPrototypeOf(shop.db.prepare('SELECT 1'));
  const counts: number[] = [];
  for (let visit = 0; visit < 3; visit++) {
    const spies = (['all', 'get', 'run', 'iterate'] as const).map((method) => vi.spyOn(Statement, method));
    try {
      expect((await shop.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      counts.push(spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  }
  return Math.min(...counts);
}

const cardsOn = async (url: string) =>
  (await shop.app.inject({ method: 'GET', url })).body.match(/<li class="product-card"/g)?.length ?? 0;

const variationsOf = async (slug: string) =>
  (await shop.repositories.catalog.getProductBySlug(slug))?.variations.length ?? 0;

// PostgreSQL's own budget is postgres/pageQueries.test.ts; under TEST_DATABASE_URL the test app has no SQLite file.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('SQLite statements per page', () => {
  it('a category page runs the same statements for two cards as for a dozen', async () => {
    const few = '/product-category/digital/';
    const many = '/product-category/home/';
    expect(await cardsOn(few)).toBe(2);
    expect(await cardsOn(many)).toBeGreaterThanOrEqual(12);
    expect(await statementsOf(many)).toBe(await statementsOf(few));
  });

  it('a variable product page runs the same statements however many variations it has', async () => {
    const [fewer, more] = ['washed-linen-shirt', 'lined-pullover-hoodie'];
    const counts = [await variationsOf(fewer), await variationsOf(more)];
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts[1]).toBeGreaterThan(0);
    expect(counts[0]).not.toBe(counts[1]);
    expect(await statementsOf(`/product/${fewer}/`)).toBe(await statementsOf(`/product/${more}/`));
  });
});
