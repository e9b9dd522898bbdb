import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/createTestApp';

/*
 * `?orderby=` on the shop archive: the products a visitor sees, in page order, for each ordering. The sort keys
 * (sales, ratings, dates, positions, prices) are written straight into the database as distinct shuffled values,
 * so the expected order is computed here from those values, not read back from the engine's ORDER BY.
 */

interface Row {
  id: number;
  name: string;
}

let shop: TestApp;
let listed: Row[];
const keys = new Map<
  number,
  {
    sales: number;
    rating: number;
    ratingCount: number;
    created: string;
    position: number;
    priceMin: number;
    priceMax: number;
  }
>();

/** A fixed shuffle (the same every run), so the orders differ from each other and from the ids. */
function shuffled<T>(items: T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let i = result.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const titles = (html: string) =>
  [...html.matchAll(/class="product-card__title">([^<]*)</g)].map((match) => decode(match[1] ?? ''));

async function shopPage(orderby: string): Promise<string[]> {
  const response = await shop.app.inject(`/shop/?orderby=${orderby}`);
  expect(response.statusCode).toBe(200);
  return titles(response.body);
}

function expectedOrder(compare: (a: Row, b: Row) => number): string[] {
  return [...listed].sort(compare).map((row) => row.name);
}

const key = (row: Row) => {
  const found = keys.get(row.id);
  if (!found) throw new Error(`no sort keys for ${row.id}`);
  return found;
};

beforeAll(async () => {
  shop = await createTestApp({ settings: { shop: { productsPerPage: 100 } } });
  listed = await shop.query<Row>(
    `SELECT id, name FROM products
     WHERE type <> 'variation' AND status = 'publish' AND visibility IN ('visible', 'catalog')`,
  );
  const ids = listed.map((row) => row.id);
  const ranks = (seed: number) => new Map(shuffled(ids, seed).map((id, rank) => [id, rank]));
  const [sales, rating, created, position, priceMin, priceMax] = [11, 23, 37, 41, 53, 67].map(ranks);
  const rank = (map: Map<number, number> | undefined, id: number) => map?.get(id) ?? 0;
  // Two products share an average rating (the count decides) and two share a position (the name decides).
  const [ratingTieA, ratingTieB] = shuffled(ids, 79);
  const [positionTieA, positionTieB] = shuffled(ids, 83);
  for (const id of ids) {
    const ratingRank = id === ratingTieB ? rank(rating, ratingTieA as number) : rank(rating, id);
    const positionRank = id === positionTieB ? rank(position, positionTieA as number) : rank(position, id);
    keys.set(id, {
      sales: 10 + rank(sales, id) * 7,
      rating: 1 + ratingRank * 0.05,
      ratingCount: id === ratingTieA ? 3 : id === ratingTieB ? 9 : 1,
      created: new Date(Date.UTC(2025, 0, 1 + rank(created, id), 10)).toISOString(),
      position: positionRank - 5,
      priceMin: 1000 + rank(priceMin, id) * 100,
      priceMax: 20000 + rank(priceMax, id) * 100,
    });
  }
  for (const [id, value] of keys) {
    await shop.query(
      `UPDATE products SET total_sales = ?, rating_average = ?, rating_count = ?, created_at = ?, menu_order = ?,
         price_min = ?, price_max = ? WHERE id = ?`,
      [
        value.sales,
        value.rating,
        value.ratingCount,
        value.created,
        value.position,
        value.priceMin,
        value.priceMax,
        id,
      ],
    );
  }
});
afterAll(async () => shop?.close());

describe('the shop archive’s orderby', () => {
  it('lists enough products for the orders to mean something', () => {
    expect(listed.length).toBeGreaterThan(10);
  });

  it('popularity: best-selling first', async () => {
    expect(await shopPage('popularity')).toEqual(expectedOrder((a, b) => key(b).sales - key(a).sales));
  });

  it('rating: highest average first, then the most ratings', async () => {
    expect(await shopPage('rating')).toEqual(
      expectedOrder((a, b) => key(b).rating - key(a).rating || key(b).ratingCount - key(a).ratingCount),
    );
  });

  it('date: newest first', async () => {
    expect(await shopPage('date')).toEqual(
      expectedOrder((a, b) => Date.parse(key(b).created) - Date.parse(key(a).created)),
    );
  });

  it('menu_order: lowest position first, then by name', async () => {
    expect(await shopPage('menu_order')).toEqual(
      expectedOrder(
        (a, b) =>
          key(a).position - key(b).position || a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
      ),
    );
  });

  it('price: cheapest lowest price first', async () => {
    expect(await shopPage('price')).toEqual(expectedOrder((a, b) => key(a).priceMin - key(b).priceMin));
  });

  it('price-desc: dearest highest price first', async () => {
    expect(await shopPage('price-desc')).toEqual(expectedOrder((a, b) => key(b).priceMax - key(a).priceMax));
  });

  it('the orders really differ from each other', async () => {
    const orders = await Promise.all(
      ['popularity', 'rating', 'date', 'menu_order', 'price', 'price-desc'].map(shopPage),
    );
    expect(new Set(orders.map((order) => order.join('|'))).size).toBe(orders.length);
  });
});
