import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';

/*
 * One rule for what can be bought, applied by the cart and by the order's transaction alike: what the cart takes,
 * checkout takes (a product on backorder sells beyond its stock, as WooCommerce's backorders do), and what
 * checkout refuses, the cart refused first.
 */

const MUG = 1021;
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => {
  await shop.close();
});

async function stock(id: number) {
  const rows = await shop.query<{ stock_quantity: number; stock_status: string }>(
    'SELECT stock_quantity, stock_status FROM products WHERE id = ?',
    [id],
  );
  return rows[0];
}

describe('purchasable', () => {
  it('checks out a product on backorder that the cart accepted, and keeps it on backorder', async () => {
    await shop.query("UPDATE products SET stock_quantity = 1, stock_status = 'onbackorder' WHERE id = ?", [
      MUG,
    ]);
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.app, MUG, 3);
    const placed = await shopper.send(shop.app, 'POST', '/checkout/', form);
    expect(placed.statusCode).toBe(303);
    expect(await stock(MUG)).toEqual({ stock_quantity: -2, stock_status: 'onbackorder' });
  });

  it('refuses in the cart what checkout would refuse: more than an in-stock product has left', async () => {
    await shop.query("UPDATE products SET stock_quantity = 2, stock_status = 'instock' WHERE id = ?", [MUG]);
    const response = await new Shopper().send(shop.app, 'POST', '/?wc-ajax=add_to_cart', {
      product_id: String(MUG),
      quantity: '3',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'out_of_stock' });
  });

  it('sells an in-stock product out when its last units are ordered', async () => {
    await shop.query("UPDATE products SET stock_quantity = 2, stock_status = 'instock' WHERE id = ?", [MUG]);
    const shopper = new Shopper();
    const placed = await shopper.send(
      shop.app,
      'POST',
      '/checkout/',
      await shopper.readyForm(shop.app, MUG, 2),
    );
    expect(placed.statusCode).toBe(303);
    expect(await stock(MUG)).toEqual({ stock_quantity: 0, stock_status: 'outofstock' });
  });
});
