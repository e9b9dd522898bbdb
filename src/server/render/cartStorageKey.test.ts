import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/createTestApp';

/*
 * `cart.storageKey` in the page settings names the browser's fragment storage (wc_fragments_{key},
 * wc_cart_hash_{key}): derived from the shop's base URL, so two shops on one browser profile keep apart, and every
 * process serving the same shop agrees on it.
 */

let first: TestApp;
let second: TestApp;
beforeAll(async () => {
  // Two processes of one shop behind a proxy that says which scheme the visitor used.
  const settings = { server: { trustProxy: true } };
  [first, second] = await Promise.all([
    createTestApp({ settings, seed: false }),
    createTestApp({ settings, seed: false }),
  ]);
});
afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
});

async function storageKey(shop: TestApp, headers: Record<string, string>): Promise<string> {
  const page = await shop.app.inject({ url: '/', headers });
  expect(page.statusCode).toBe(200);
  const settings = JSON.parse(
    /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '{}',
  ) as { cart?: { storageKey?: string } };
  return settings.cart?.storageKey ?? '';
}

describe('cart.storageKey', () => {
  it('is a short hex hash in the page settings, the same for every page and process of one shop', async () => {
    const key = await storageKey(first, { host: 'shop-a.test' });
    expect(key).toMatch(/^[0-9a-f]{8,}$/);
    expect(key).not.toContain('shop-a');
    expect(await storageKey(first, { host: 'shop-a.test' })).toBe(key);
    expect(await storageKey(second, { host: 'shop-a.test' })).toBe(key);
    const cartPage = await first.app.inject({ url: '/cart/', headers: { host: 'shop-a.test' } });
    expect(cartPage.body).toContain(`"storageKey":"${key}"`);
  });

  it('differs between shops on other hosts, ports or schemes', async () => {
    const keys = await Promise.all([
      storageKey(first, { host: 'shop-a.test' }),
      storageKey(first, { host: 'shop-b.test' }),
      storageKey(first, { host: 'shop-a.test:8080' }),
      storageKey(first, { host: 'shop-a.test', 'x-forwarded-proto': 'https' }),
    ]);
    expect(new Set(keys).size).toBe(keys.length);
    expect(await storageKey(second, { host: 'shop-a.test', 'x-forwarded-proto': 'https' })).toBe(keys[3]);
  });

  it('is the one the settings name when the owner sets it', async () => {
    const pinned = await createTestApp({ settings: { cart: { storageKey: 'shopwide' } }, seed: false });
    try {
      expect(await storageKey(pinned, { host: 'shop-a.test' })).toBe('shopwide');
      expect(await storageKey(pinned, { host: 'shop-b.test' })).toBe('shopwide');
    } finally {
      await pinned.close();
    }
  });
});
