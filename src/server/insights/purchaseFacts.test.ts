import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';
import { encodeBase64Text } from '../../shared/stats/base64Text';
import { SearchService } from '../search/SearchService';
import { signHitParams } from '../stats/hitSignature';
import { SEARCHES_PER_CART_ADD } from './purchaseFacts';

/*
 * The facts behind the owner's figures, recorded as a shopper meets the shop over HTTP: the checkout links an order
 * to the visit the statistics recorded for its buyer that day (or to none), and an add-to-cart of a product a
 * search of the session found is kept, to be marked with the session's order.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

let shop: TestApp;
beforeEach(async () => {
  shop = await createTestApp();
});
afterEach(async () => {
  await shop.close();
});

const mugId = async () =>
  (await shop.query<{ id: number }>("SELECT id FROM products WHERE slug = 'cafe-au-lait-mug'"))[0]
    ?.id as number;

async function placeOrder(shopper: Shopper, productId: number): Promise<number> {
  const form = await shopper.readyForm(shop.app, productId, 1);
  const placed = await shopper.send(shop.app, 'POST', '/checkout/', form);
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

async function search(shopper: Shopper, query: string) {
  const before = (await shop.query('SELECT id FROM search_queries')).length;
  expect((await shopper.send(shop.app, 'GET', `/?s=${query}&post_type=product`)).statusCode).toBe(200);
  // The search is recorded after the page is answered.
  await vi.waitFor(async () =>
    expect((await shop.query('SELECT id FROM search_queries')).length).toBe(before + 1),
  );
}

describe('an order and its visit', () => {
  it('links the order to the buyer’s recorded visit of the day, with that visit’s source', async () => {
    const hit = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/stats/v1/hit',
      headers: {
        host: 'shop.test',
        'user-agent': BROWSER,
        'content-type': 'application/x-www-form-urlencoded',
        'x-wps-ts': encodeBase64Text(String(Math.floor(Date.now() / 1000))),
      },
      payload: new URLSearchParams({
        ...signHitParams(TEST_SECRET, { sourceType: 'page', sourceId: 0, searchQuery: '' }),
        referred: encodeBase64Text('https://blog.example.org/post'),
        page_uri: encodeBase64Text('/shop/'),
      }).toString(),
    });
    expect(hit.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await shop.query('SELECT 1 FROM stats_visitors')).toHaveLength(1));
    const order = await placeOrder(new Shopper(BROWSER), await mugId());
    expect(await shop.query('SELECT order_id, source_type, source FROM order_visits')).toEqual([
      { order_id: order, source_type: 'referral', source: 'blog.example.org' },
    ]);
  });

  it('leaves an order whose visit was not recorded without one (unattributed)', async () => {
    await placeOrder(new Shopper(), await mugId());
    expect(await shop.query('SELECT * FROM order_visits')).toEqual([]);
  });
});

describe('searches that led to a purchase', () => {
  it('keeps an add-to-cart of a product the session’s search found, and marks it with the order', async () => {
    const shopper = new Shopper();
    await search(shopper, 'anorak');
    await search(shopper, 'mug');
    const order = await placeOrder(shopper, await mugId());
    expect(
      await shop.query(
        `SELECT q.query, c.product_id, c.order_id FROM search_cart_adds c JOIN search_queries q ON q.id = c.query_id`,
      ),
    ).toEqual([{ query: 'mug', product_id: await mugId(), order_id: order }]);
  });

  it('keeps nothing for an add-to-cart before any search', async () => {
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.app, await mugId(), 1);
    await search(shopper, 'mug');
    expect((await shopper.send(shop.app, 'POST', '/checkout/', form)).statusCode).toBe(303);
    expect(await shop.query('SELECT * FROM search_cart_adds')).toEqual([]);
  });

  it('matches an add-to-cart against the session’s latest searches only, each query searched once', async () => {
    // A crawler's day: hundreds of recorded searches under one address, browser and day, then an add-to-cart.
    const shopper = new Shopper();
    await search(shopper, 'mug');
    const [made] = await shop.query<{ session_hash: string; created_at: number }>(
      'SELECT session_hash, created_at FROM search_queries',
    );
    for (let i = 1; i <= 300; i++)
      await shop.query(
        `INSERT INTO search_queries (query, results, source, session_hash, created_at, updated_at)
         VALUES (?, 1, 'results', ?, ?, ?)`,
        [
          i % 2 ? 'mug' : 'anorak',
          made?.session_hash,
          Number(made?.created_at) + i,
          Number(made?.created_at) + i,
        ],
      );
    const productIds = vi.spyOn(SearchService.prototype, 'productIds');
    await placeOrder(shopper, await mugId());
    // The latest SEARCHES_PER_CART_ADD searches: 25 of each query, each searched once; the mug's 25 found it.
    expect(productIds.mock.calls.map(([query]) => query).sort()).toEqual(['anorak', 'mug']);
    const adds = await shop.query<{ query: string }>(
      'SELECT q.query FROM search_cart_adds c JOIN search_queries q ON q.id = c.query_id',
    );
    expect(adds.length).toBeLessThanOrEqual(SEARCHES_PER_CART_ADD);
    expect(adds.filter((add) => add.query === 'mug')).toHaveLength(SEARCHES_PER_CART_ADD / 2);
    productIds.mockRestore();
  });
});
