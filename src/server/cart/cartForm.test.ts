import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';

/*
 * The cart's no-JavaScript form posts change the cart as the ajax endpoints do: from its stored state, in the
 * session's transaction, so two tabs posting at once never undo each other.
 */

const MUG = 1021;
const BOWL = 1022;
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => {
  await shop.close();
});

async function storedCart(shopper: Shopper) {
  const rows = await shop.query<{ cart: string }>('SELECT cart FROM sessions WHERE id = ?', [
    shopper.cookies.get('shop_session'),
  ]);
  return (JSON.parse(rows[0]?.cart ?? '[]') as { productId: number; quantity: number }[])
    .map((line) => [line.productId, line.quantity])
    .sort();
}

describe('cart form posts', () => {
  it('keeps both additions when two tabs add different products at once', async () => {
    const shopper = new Shopper();
    await shopper.send(shop.app, 'POST', '/?wc-ajax=add_to_cart', { product_id: String(MUG), quantity: '1' });
    const [mug, bowl] = await Promise.all(
      [MUG, BOWL].map((product) =>
        shopper.send(shop.app, 'POST', '/cart/', { 'add-to-cart': String(product), quantity: '2' }),
      ),
    );
    expect([mug?.statusCode, bowl?.statusCode]).toEqual([303, 303]);
    expect(await storedCart(shopper)).toEqual([
      [MUG, 3],
      [BOWL, 2],
    ]);
  });

  it('keeps an addition made in another tab while the cart form updates a quantity', async () => {
    const shopper = new Shopper();
    await shopper.send(shop.app, 'POST', '/?wc-ajax=add_to_cart', { product_id: String(MUG), quantity: '1' });
    const page = await shopper.send(shop.app, 'GET', '/cart/');
    const nonce = /name="_wpnonce" value="([^"]+)"/.exec(page.body)?.[1] as string;
    const key = /name="cart\[([a-f0-9]{32})\]\[qty\]"/.exec(page.body)?.[1] as string;
    await Promise.all([
      shopper.send(shop.app, 'POST', '/cart/', { _wpnonce: nonce, [`cart[${key}][qty]`]: '4' }),
      shopper.send(shop.app, 'POST', '/cart/', { 'add-to-cart': String(BOWL), quantity: '1' }),
    ]);
    expect(await storedCart(shopper)).toEqual([
      [MUG, 4],
      [BOWL, 1],
    ]);
  });

  it('refuses a body that is not a form with a readable 400', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/cart/',
      headers: { host: 'shop.test', 'content-type': 'application/json' },
      payload: JSON.stringify({ 'add-to-cart': { nested: true } }),
    });
    expect(response.statusCode).toBe(400);
  });
});
