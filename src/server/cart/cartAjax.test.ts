import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartLine } from '../db/ports';
import { createTestApp, type TestApp } from '../testing/createTestApp';

/* The cart's ajax calls through `inject`: the quantity rule, bad input, fragments and concurrent tabs. */

const MUG = 1021; // simple, 24 in stock
const BOWL = 1022; // simple, stock not managed

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => {
  await shop.close();
});

/** One browser: keeps its cookies across requests. */
class Visitor {
  cookies = new Map<string, string>();
  async post(url: string, form: Record<string, string>) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await shop.app.inject({
      method: 'POST',
      url,
      headers: {
        host: 'shop.test',
        'content-type': 'application/x-www-form-urlencoded',
        ...(cookie ? { cookie } : {}),
      },
      payload: new URLSearchParams(form).toString(),
    });
    for (const set of response.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (set.value === '' || set.maxAge === 0) this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }
  async add(productId: number, quantity = 1) {
    const response = await this.post('/?wc-ajax=add_to_cart', {
      product_id: String(productId),
      quantity: String(quantity),
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { fragments: Record<string, string>; cart_hash: string };
  }
  /** The stored cart, read from the database. */
  async storedCart(): Promise<CartLine[]> {
    const id = this.cookies.get('shop_session');
    if (!id) return [];
    return (await shop.repositories.sessions.get(id, Date.now()))?.cart ?? [];
  }
  setQuantity(hash: string, quantity: string, qtyNonce: string) {
    return this.post('/ajax', { action: 'set_cart_item_quantity', hash, quantity, qtyNonce });
  }
}

const miniCart = (fragments: Record<string, string>) => fragments['div.widget_shopping_cart_content'] ?? '';
const nonceIn = (fragments: Record<string, string>) =>
  /data-qty-nonce="([^"]+)"/.exec(miniCart(fragments))?.[1] ?? '';
const keysIn = (fragments: Record<string, string>) =>
  [...miniCart(fragments).matchAll(/name="cart\[([a-f0-9]{32})\]\[qty\]"/g)].map(
    (match) => match[1] as string,
  );

describe('add_to_cart and get_refreshed_fragments', () => {
  it('answer the markup of the mini-cart and header components, with a quantity nonce for the new session', async () => {
    const visitor = new Visitor();
    const answer = await visitor.add(MUG, 2);
    expect(answer.cart_hash).toBe(visitor.cookies.get('woocommerce_cart_hash'));
    expect(miniCart(answer.fragments)).toContain('Café au Lait Mug');
    expect(miniCart(answer.fragments)).toMatch(/Remove Café au Lait Mug from cart/);
    expect(miniCart(answer.fragments)).toContain('Decrease quantity');
    expect(answer.fragments['a.cart-contents']).toMatch(/class="cart-contents__count">2</);
    // The page's nonce was bound to no session; the fragment's works for the session the add created.
    const [key] = keysIn(answer.fragments);
    const response = await visitor.setQuantity(key as string, '3', nonceIn(answer.fragments));
    expect(response.statusCode).toBe(200);
    expect(await visitor.storedCart()).toMatchObject([{ productId: MUG, quantity: 3 }]);
  });

  it('escapes nothing it should not: fragments of an empty cart say so', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/?wc-ajax=get_refreshed_fragments' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.cart_hash).toBe('');
    expect(miniCart(body.fragments)).toContain('No products in the cart.');
  });
});

describe('set_cart_item_quantity refuses bad input and leaves the cart unchanged', () => {
  let visitor: Visitor;
  let key: string;
  let nonce: string;
  let before: CartLine[];
  beforeAll(async () => {
    visitor = new Visitor();
    const answer = await visitor.add(MUG, 2);
    key = keysIn(answer.fragments)[0] as string;
    nonce = nonceIn(answer.fragments);
    before = await visitor.storedCart();
    expect(before).toHaveLength(1);
  });

  it.each<[string, () => [string, string, string], number, string]>([
    ['a forged nonce', () => ['2', 'A'.repeat(22), key], 403, 'invalid_nonce'],
    ['no nonce', () => ['2', '', key], 403, 'invalid_nonce'],
    ['an unknown key', () => ['2', nonce, 'f'.repeat(32)], 400, 'unknown_cart_item'],
    ['quantity -1', () => ['-1', nonce, key], 400, 'invalid_quantity'],
    ['quantity 1e9', () => ['1e9', nonce, key], 400, 'invalid_quantity'],
    ['quantity abc', () => ['abc', nonce, key], 400, 'invalid_quantity'],
    ['quantity 2.5 with step 1', () => ['2.5', nonce, key], 400, 'invalid_quantity'],
    ['quantity 10000', () => ['10000', nonce, key], 400, 'invalid_quantity'],
  ])('%s', async (_name, input, status, code) => {
    const [quantity, qtyNonce, hash] = input();
    const cookieHash = visitor.cookies.get('woocommerce_cart_hash');
    const response = await visitor.setQuantity(hash, quantity, qtyNonce);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, message: expect.any(String) });
    expect(await visitor.storedCart()).toEqual(before);
    expect(visitor.cookies.get('woocommerce_cart_hash')).toBe(cookieHash);
  });

  it('clamps a valid quantity above the stock and says so', async () => {
    const response = await visitor.setQuantity(key, '9999', nonce);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ clamped: true, quantity: 24 });
    expect(await visitor.storedCart()).toMatchObject([{ quantity: 24 }]);
  });

  it('remove_from_cart refuses an unknown key', async () => {
    const response = await visitor.post('/?wc-ajax=remove_from_cart', { cart_item_key: 'e'.repeat(32) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'unknown_cart_item' });
  });
});

describe('two tabs changing the cart at once', () => {
  // A slow catalog read between each request's read of the cart and its write makes the requests overlap, as
  // they do under load: a plain read-modify-write would then lose one tab's change.
  let restore: () => void = () => {};
  beforeAll(() => {
    const catalog = shop.repositories.catalog;
    const original = catalog.getProductById.bind(catalog);
    catalog.getProductById = async (id) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return original(id);
    };
    restore = () => {
      catalog.getProductById = original;
    };
  });
  afterAll(() => restore());

  it('keep both changes when they touch different lines', async () => {
    const visitor = new Visitor();
    await visitor.add(MUG);
    const answer = await visitor.add(BOWL);
    const [mugKey, bowlKey] = keysIn(answer.fragments) as [string, string];
    const nonce = nonceIn(answer.fragments);
    const responses = await Promise.all([
      visitor.setQuantity(mugKey, '4', nonce),
      visitor.setQuantity(bowlKey, '7', nonce),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
    const stored = await visitor.storedCart();
    expect(stored.find((line) => line.key === mugKey)?.quantity).toBe(4);
    expect(stored.find((line) => line.key === bowlKey)?.quantity).toBe(7);
  });

  it('let the last write win on one line, and recompute the totals from what was stored', async () => {
    const visitor = new Visitor();
    const answer = await visitor.add(BOWL);
    const [key] = keysIn(answer.fragments) as [string];
    const nonce = nonceIn(answer.fragments);
    const quantities = ['2', '5', '3', '8', '6'];
    await Promise.all(quantities.map((quantity) => visitor.setQuantity(key, quantity, nonce)));
    const stored = await visitor.storedCart();
    expect(stored).toHaveLength(1);
    expect(quantities).toContain(String(stored[0]?.quantity));
    const refreshed = await visitor.post('/?wc-ajax=get_refreshed_fragments', { time: '1' });
    expect(refreshed.json().fragments['a.cart-contents']).toContain(
      `class="cart-contents__count">${stored[0]?.quantity}<`,
    );
  });

  it('never resurrect a line another tab removed meanwhile', async () => {
    const visitor = new Visitor();
    const answer = await visitor.add(MUG);
    const [key] = keysIn(answer.fragments) as [string];
    const nonce = nonceIn(answer.fragments);
    const [removed, updated] = await Promise.all([
      visitor.post('/?wc-ajax=remove_from_cart', { cart_item_key: key }),
      visitor.setQuantity(key, '5', nonce),
    ]);
    expect(removed.statusCode).toBe(200);
    // The update either ran first (and the removal then won) or found the line gone.
    expect([200, 400]).toContain(updated.statusCode);
    expect(await visitor.storedCart()).toEqual([]);
  });
});
