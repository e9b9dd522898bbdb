import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { openShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';
import { parseWooCsv } from '../catalog/import/parseWooCsv';
import { writeWooCsv } from '../catalog/import/writeWooCsv';

/*
 * The lists that sell more, over HTTP on whichever engine the run uses: related products, upsells, cross-sells and
 * customers also bought (counted from real orders, also under concurrent orders in two processes).
 */

const MUG = 1021;
const BOWL = 1022;
const CANDLE = 1026;
const SCARF = 1032;
const HOST = { host: 'shop.test' };

/** The product links (their `/product/slug/` addresses) inside the section with this heading id, in order. */
function section(html: string, headingId: string): string[] | null {
  const start = html.indexOf(`aria-labelledby="${headingId}"`);
  if (start < 0) return null;
  const end = html.indexOf('</section>', start);
  return [...html.slice(start, end).matchAll(/<a href="(\/product\/[^"]+)" class="product-card__link"/g)].map(
    (match) => match[1] as string,
  );
}

async function page(app: FastifyInstance, url: string, cookie?: string): Promise<string> {
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { ...HOST, ...(cookie ? { cookie } : {}) },
  });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** A shopper buys these products together, through the cart and the checkout form. */
async function buyTogether(app: FastifyInstance, productIds: number[]) {
  const shopper = new Shopper();
  for (const productId of productIds.slice(0, -1)) {
    const added = await shopper.send(app, 'POST', '/?wc-ajax=add_to_cart', {
      product_id: String(productId),
      quantity: '1',
    });
    expect(added.statusCode).toBe(200);
  }
  const form = await shopper.readyForm(app, productIds.at(-1) as number, 1);
  const placed = await shopper.send(app, 'POST', '/checkout/', form);
  expect(placed.statusCode).toBe(303);
}

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(() => shop.close());

describe('related products', () => {
  it('lists 4 products sharing categories or tags, most shared first, never the product or one out of stock', async () => {
    const html = await page(shop.app, '/product/cafe-au-lait-mug/');
    const related = section(html, 'related-heading');
    expect(related).toHaveLength(4);
    expect(related).not.toContain('/product/cafe-au-lait-mug/');
    // The Espresso Cup Pair shares two terms too, but is out of stock.
    expect(related).not.toContain('/product/espresso-cup-pair/');
    expect(section(await page(shop.app, '/product/cafe-au-lait-mug/'), 'related-heading')).toEqual(related);

    // Every one shares a category or a tag with the mug, and the shared count never rises down the list.
    const shared = await shop.query<{ id: number; shared: number }>(
      `SELECT pt.product_id AS id, COUNT(*) AS shared FROM product_terms pt
         JOIN product_terms mine ON mine.term_id = pt.term_id AND mine.product_id = ?
         JOIN terms t ON t.id = pt.term_id AND t.taxonomy IN ('product_cat', 'product_tag')
        WHERE pt.product_id <> ? GROUP BY pt.product_id`,
      [MUG, MUG],
    );
    const slugs = await shop.query<{ id: number; slug: string }>('SELECT id, slug FROM products');
    const countOf = (url: string) => {
      const id = slugs.find((row) => `/product/${row.slug}/` === url)?.id;
      return Number(shared.find((row) => Number(row.id) === Number(id))?.shared ?? 0);
    };
    const counts = (related ?? []).map(countOf);
    expect(counts.every((count) => count >= 1)).toBe(true);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    // And they are the four sharing most among the products a shopper can buy now (counted here by hand).
    const buyable = await shop.query<{ id: number }>(
      `SELECT id FROM products WHERE status = 'publish' AND type <> 'variation' AND visibility IN ('visible', 'catalog')
         AND stock_status <> 'outofstock' AND (stock_quantity IS NULL OR stock_quantity > 0 OR stock_status = 'onbackorder')
         AND id <> ?`,
      [MUG],
    );
    const best = buyable
      .map((row) => Number(shared.find((candidate) => Number(candidate.id) === Number(row.id))?.shared ?? 0))
      .sort((a, b) => b - a)
      .slice(0, 4);
    expect(counts).toEqual(best);
  });

  it('are ranked from memory (the facet index), and by the database only for a product the index does not hold', async () => {
    const { merchandising } = shop.repositories;
    const lists = vi.spyOn(merchandising, 'productPageListIds');
    const related = vi.spyOn(merchandising, 'relatedProductIds');
    try {
      const bowl = section(await page(shop.app, '/product/speckled-stoneware-bowl/'), 'related-heading');
      expect(bowl).toHaveLength(4);
      expect(lists).toHaveBeenCalledWith(BOWL, 4, 2, { related: false });
      expect(related).not.toHaveBeenCalled();
      // A hidden product's page (a direct link) is in no listing, nor in the index: the database ranks its list.
      const hidden = section(await page(shop.app, '/product/staff-hoodie/'), 'related-heading');
      expect(hidden?.length).toBeGreaterThan(0);
      expect(related).toHaveBeenCalledTimes(1);
    } finally {
      lists.mockRestore();
      related.mockRestore();
    }
  });

  it('drops a product the moment it sells out', async () => {
    await shop.query("UPDATE products SET stock_status = 'outofstock' WHERE id = ?", [BOWL]);
    try {
      const related = section(await page(shop.app, '/product/cafe-au-lait-mug/'), 'related-heading');
      expect(related).toHaveLength(4);
      expect(related).not.toContain('/product/speckled-stoneware-bowl/');
    } finally {
      await shop.query("UPDATE products SET stock_status = 'instock' WHERE id = ?", [BOWL]);
    }
  });
});

describe('upsells and cross-sells from the CSV', () => {
  it('shows the upsells on the product page, and leaves them out of its related products', async () => {
    const html = await page(shop.app, '/product/washed-linen-shirt/');
    expect(html).toContain('<h2 id="upsells-heading">You may also like…</h2>');
    expect(section(html, 'upsells-heading')).toEqual(['/product/cotton-chore-jacket/']);
    expect(section(html, 'related-heading')).not.toContain('/product/cotton-chore-jacket/');
  });

  it('shows the cart products’ cross-sells on the cart page: in stock only, never one already in the cart', async () => {
    const shopper = new Shopper();
    await shopper.send(shop.app, 'POST', '/?wc-ajax=add_to_cart', { product_id: String(MUG), quantity: '1' });
    const cookie = () => [...shopper.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let cart = await page(shop.app, '/cart/', cookie());
    expect(cart).toContain('<h2 id="cross-sells-heading">You may be interested in…</h2>');
    expect(section(cart, 'cross-sells-heading')).toEqual(['/product/speckled-stoneware-bowl/']);

    // The duvet set's cross-sells are the wool throw and the pillowcases, which are out of stock.
    await shopper.send(shop.app, 'POST', '/?wc-ajax=add_to_cart', {
      product_id: String(BOWL),
      quantity: '1',
    });
    cart = await page(shop.app, '/cart/', cookie());
    expect(section(cart, 'cross-sells-heading')).toBeNull();
  });

  it('keeps them through the CSV export and an import of it', async () => {
    const csv = writeWooCsv(await shop.repositories.catalog.readCatalogForExport());
    const { products, errors } = parseWooCsv(csv);
    expect(errors).toEqual([]);
    const bySku = (sku: string) => products.find((product) => product.sku === sku);
    expect(bySku('DEMO-LINEN-SHIRT')?.upsells).toEqual([{ sku: 'DEMO-CHORE-JACKET' }]);
    expect(bySku('DEMO-LINEN-SHIRT')?.crossSells).toEqual([{ sku: 'DEMO-MERINO-SCARF' }]);
    expect(bySku('DEMO-LINEN-DUVET-SET')?.crossSells).toEqual([
      { sku: 'DEMO-WOOL-THROW' },
      { sku: 'DEMO-LINEN-PILLOWCASES' },
    ]);
  });
});

describe('customers also bought', () => {
  it('falls back to related products until two products were bought with this one, then lists them by shared orders', async () => {
    const fresh = await createTestApp();
    try {
      const alsoBought = async () =>
        section(await page(fresh.app, '/product/cafe-au-lait-mug/'), 'also-bought-heading');
      expect(await alsoBought()).toBeNull();
      await buyTogether(fresh.app, [MUG, BOWL]);
      // One product bought with the mug is too few: the page shows only its related products.
      expect(await alsoBought()).toBeNull();
      expect(section(await page(fresh.app, '/product/cafe-au-lait-mug/'), 'related-heading')).toHaveLength(4);
      await buyTogether(fresh.app, [CANDLE, MUG]);
      expect(await alsoBought()).toEqual([
        '/product/speckled-stoneware-bowl/',
        '/product/creme-fig-soy-candle/',
      ]);
      await buyTogether(fresh.app, [MUG, CANDLE]);
      expect(await alsoBought()).toEqual([
        '/product/creme-fig-soy-candle/',
        '/product/speckled-stoneware-bowl/',
      ]);
      // The related products leave out what customers also bought.
      const related = section(await page(fresh.app, '/product/cafe-au-lait-mug/'), 'related-heading');
      expect(related).not.toContain('/product/speckled-stoneware-bowl/');
      expect(
        await fresh.query('SELECT product_id, other_id, order_count FROM product_co_purchases ORDER BY 1, 2'),
      ).toEqual([
        { product_id: MUG, other_id: BOWL, order_count: 1 },
        { product_id: MUG, other_id: CANDLE, order_count: 2 },
        { product_id: BOWL, other_id: MUG, order_count: 1 },
        { product_id: CANDLE, other_id: MUG, order_count: 2 },
      ]);
    } finally {
      await fresh.close();
    }
  });

  it('counts every order once when orders arrive at once in two processes', async () => {
    const shops = await openShopProcesses(2);
    try {
      const orders = 6;
      await Promise.all(
        Array.from({ length: orders }, (_, n) =>
          buyTogether(shops.apps[n % 2] as FastifyInstance, [MUG, SCARF]),
        ),
      );
      const counts = await shops.query<{ product_id: number; other_id: number; order_count: number }>(
        'SELECT product_id, other_id, order_count FROM product_co_purchases ORDER BY 1, 2',
      );
      expect(
        counts.map((row) => [Number(row.product_id), Number(row.other_id), Number(row.order_count)]),
      ).toEqual([
        [MUG, SCARF, orders],
        [SCARF, MUG, orders],
      ]);
    } finally {
      await shops.close();
    }
  });
});
