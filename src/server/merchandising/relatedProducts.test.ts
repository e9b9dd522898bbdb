import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { SHOWABLE } from '../db/sql/merchandisingSql';
import { FacetIndex } from '../search/facets/FacetIndex';

/*
 * Related products read only the products at or above the share count where enough showable ones are found
 * (merchandisingSql.relatedProductIds). This holds that the shortcut chooses exactly what ranking every product that
 * shares a category or tag chooses, on whichever engine the run uses: for every product of the demo catalog, for
 * several list lengths, with products left out, and with the best-sharing products unshowable, so the walk has to go
 * down a level (or to the bottom). The facet index ranks them from memory for the product pages
 * (FacetIndex.related): the same holds for it, built from the engine's own reads.
 */

/** Every candidate ranked (the statement before the shortcut): the reference. */
async function rankedByReference(shop: TestApp, productId: number, limit: number, exclude: number[]) {
  const rows = await shop.query<{ id: number }>(
    `SELECT p.id AS id FROM products p
       JOIN product_terms pt ON pt.product_id = p.id
       JOIN terms t ON t.id = pt.term_id AND t.taxonomy IN ('product_cat', 'product_tag')
       JOIN product_terms mine ON mine.term_id = pt.term_id AND mine.product_id = ?
      WHERE p.id <> ? ${exclude.length > 0 ? `AND p.id NOT IN (${exclude.map(() => '?').join(', ')})` : ''}
        AND ${SHOWABLE}
      GROUP BY p.id, p.total_sales
      ORDER BY COUNT(*) DESC, p.total_sales DESC, p.id
      LIMIT ?`,
    [productId, productId, ...exclude, limit],
  );
  return rows.map((row) => Number(row.id));
}

let shop: TestApp;
let productIds: number[];
beforeAll(async () => {
  shop = await createTestApp();
  productIds = (
    await shop.query<{ id: number }>(
      "SELECT id FROM products WHERE type <> 'variation' AND status = 'publish' ORDER BY id",
    )
  ).map((row) => Number(row.id));
});
afterAll(() => shop.close());

/** A facet index of the catalog as the engine reads it now (what FacetService builds). */
async function facetIndexNow(): Promise<FacetIndex> {
  const index = new FacetIndex();
  index.setVocabulary(await shop.repositories.facets.loadFacetVocabulary());
  index.replaceAll((await shop.repositories.facets.loadFacetProducts()).products);
  return index;
}

/**
 * Each product's related products, as chosen by the shop's statement, by the facet index and by the reference, side
 * by side. The index holds the products the shop lists (not a hidden one): it answers for nine in ten.
 */
async function compareAll(limits: number[], excludeOf: (productId: number) => number[] = () => []) {
  const chosen: Record<string, number[]> = {};
  const fromIndex: Record<string, number[] | null> = {};
  const reference: Record<string, number[]> = {};
  const index = await facetIndexNow();
  let answered = 0;
  for (const productId of productIds) {
    for (const limit of limits) {
      const exclude = excludeOf(productId);
      const key = `${productId}/${limit}/${exclude.join(',')}`;
      chosen[key] = await shop.repositories.merchandising.relatedProductIds(productId, limit, exclude);
      // A product the index does not hold (a hidden one) is ranked by the statement.
      fromIndex[key] = index.related(productId, limit, exclude) ?? chosen[key];
      if (index.related(productId, limit, exclude)) answered++;
      reference[key] = await rankedByReference(shop, productId, limit, exclude);
    }
  }
  expect(fromIndex).toEqual(reference);
  expect(answered).toBeGreaterThan(productIds.length * limits.length * 0.9);
  return { chosen, reference };
}

describe('related products', () => {
  it('are the products that ranking every candidate chooses, in the same order, for every product', async () => {
    expect(productIds.length).toBeGreaterThan(20);
    const { chosen, reference } = await compareAll([1, 2, 4, 8, 50]);
    expect(chosen).toEqual(reference);
    // The lists are not trivially empty: most products have related products, some fewer than 50.
    expect(Object.values(chosen).filter((ids) => ids.length > 0).length).toBeGreaterThan(
      productIds.length * 4,
    );
    expect(Object.values(chosen).some((ids) => ids.length > 4 && ids.length < 50)).toBe(true);
  });

  it('leave out the excluded products and still find as many', async () => {
    const { chosen, reference } = await compareAll([4], (productId) =>
      productIds.filter((id) => id !== productId && id % 3 === 0),
    );
    expect(chosen).toEqual(reference);
  });

  it('go down to the next share count when the best-sharing products cannot be shown', async () => {
    // Every product's best-sharing candidates (those sharing the most with product 1021, a mug) out of stock.
    const target = 1021;
    const best = await rankedByReference(shop, target, 50, []);
    expect(best.length).toBeGreaterThan(4);
    const top = best.slice(0, 3);
    await shop.query(
      `UPDATE products SET stock_status = 'outofstock' WHERE id IN (${top.map(() => '?').join(', ')})`,
      top,
    );
    try {
      const { chosen, reference } = await compareAll([1, 4, 8]);
      expect(chosen).toEqual(reference);
      const mugs = await shop.repositories.merchandising.relatedProductIds(target, 4);
      expect(mugs).toEqual(best.slice(3, 7));
    } finally {
      await shop.query(
        `UPDATE products SET stock_status = 'instock' WHERE id IN (${top.map(() => '?').join(', ')})`,
        top,
      );
    }
  });
});

describe("a product page's lists in one statement", () => {
  /** The three reads one after the other (what the product page ran before): the reference. */
  async function threeReads(productId: number, limit: number, minimum: number) {
    const { merchandising } = shop.repositories;
    const upsells = await merchandising.linkedProductIds([productId], 'upsell', limit);
    const bought = await merchandising.alsoBoughtIds(productId, limit);
    const alsoBought = bought.length >= minimum ? bought : [];
    const related = await merchandising.relatedProductIds(productId, limit, [...upsells, ...alsoBought]);
    return { upsells, alsoBought, related };
  }

  it('chooses what the upsells, also-bought and related reads choose one after the other, for every product', async () => {
    // Upsells for every other product (positions out of id order, one of them the product itself and one out of
    // stock), and co-purchases: none, one (below the minimum of two), and several with tied counts.
    const links: [number, number, number][] = [];
    const pairs: [number, number, number][] = [];
    productIds.forEach((productId, index) => {
      const others = productIds.filter((id) => id !== productId);
      if (index % 2 === 0)
        links.push(
          [productId, others[(index * 7) % others.length] as number, 3],
          [productId, others[(index * 3 + 1) % others.length] as number, 1],
          [productId, productId, 2],
        );
      const bought = index % 3 === 0 ? 0 : index % 3 === 1 ? 1 : 5;
      for (let n = 0; n < bought; n++)
        pairs.push([productId, others[(index * 5 + n * 2) % others.length] as number, 1 + (n % 2)]);
    });
    const outOfStock = productIds[5] as number;
    // What the demo catalog stores, put back afterwards.
    const storedLinks = await shop.query<{ product_id: number; linked_id: number; position: number }>(
      "SELECT product_id, linked_id, position FROM product_links WHERE kind = 'upsell'",
    );
    const storedPairs = await shop.query<{ product_id: number; other_id: number; order_count: number }>(
      'SELECT product_id, other_id, order_count FROM product_co_purchases',
    );
    for (const [productId, linkedId, position] of links)
      await shop.query(
        `INSERT INTO product_links (product_id, kind, linked_id, position) VALUES (?, 'upsell', ?, ?)
         ON CONFLICT DO NOTHING`,
        [productId, linkedId, position],
      );
    for (const [productId, otherId, count] of pairs)
      await shop.query(
        `INSERT INTO product_co_purchases (product_id, other_id, order_count) VALUES (?, ?, ?)
         ON CONFLICT DO NOTHING`,
        [productId, otherId, count],
      );
    await shop.query("UPDATE products SET stock_status = 'outofstock' WHERE id = ?", [outOfStock]);
    try {
      const chosen: Record<string, unknown> = {};
      const reference: Record<string, unknown> = {};
      for (const productId of productIds)
        for (const [limit, minimum] of [
          [1, 2],
          [4, 2],
          [8, 1],
        ] as const) {
          const key = `${productId}/${limit}/${minimum}`;
          chosen[key] = await shop.repositories.merchandising.productPageListIds(productId, limit, minimum);
          reference[key] = await threeReads(productId, limit, minimum);
        }
      expect(chosen).toEqual(reference);
      // Every list is exercised: some products have upsells, some customers-also-bought, most related products.
      const lists = Object.values(reference) as {
        upsells: number[];
        alsoBought: number[];
        related: number[];
      }[];
      expect(lists.filter((list) => list.upsells.length > 1).length).toBeGreaterThan(5);
      expect(lists.filter((list) => list.alsoBought.length > 1).length).toBeGreaterThan(5);
      expect(lists.filter((list) => list.related.length > 2).length).toBeGreaterThan(productIds.length);
    } finally {
      await shop.query("UPDATE products SET stock_status = 'instock' WHERE id = ?", [outOfStock]);
      await shop.query("DELETE FROM product_links WHERE kind = 'upsell'");
      await shop.query('DELETE FROM product_co_purchases');
      for (const row of storedLinks)
        await shop.query(
          "INSERT INTO product_links (product_id, kind, linked_id, position) VALUES (?, 'upsell', ?, ?)",
          [row.product_id, row.linked_id, row.position],
        );
      for (const row of storedPairs)
        await shop.query(
          'INSERT INTO product_co_purchases (product_id, other_id, order_count) VALUES (?, ?, ?)',
          [row.product_id, row.other_id, row.order_count],
        );
    }
  });
});
