import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { SHOWABLE } from '../db/sql/merchandisingSql';

/*
 * Related products read only the products at or above the share count where enough showable ones are found
 * (merchandisingSql.relatedProductIds). This holds that the shortcut chooses exactly what ranking every product that
 * shares a category or tag chooses, on whichever engine the run uses: for every product of the demo catalog, for
 * several list lengths, with products left out, and with the best-sharing products unshowable, so the walk has to go
 * down a level (or to the bottom).
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

/** Each product's related products, as chosen by the shop and by the reference, side by side. */
async function compareAll(limits: number[], excludeOf: (productId: number) => number[] = () => []) {
  const chosen: Record<string, number[]> = {};
  const reference: Record<string, number[]> = {};
  for (const productId of productIds) {
    for (const limit of limits) {
      const exclude = excludeOf(productId);
      const key = `${productId}/${limit}/${exclude.join(',')}`;
      chosen[key] = await shop.repositories.merchandising.relatedProductIds(productId, limit, exclude);
      reference[key] = await rankedByReference(shop, productId, limit, exclude);
    }
  }
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
