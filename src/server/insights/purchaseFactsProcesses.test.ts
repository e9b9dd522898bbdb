import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';

/*
 * The facts behind "searches that led to a purchase" under concurrency, by rule on both engines: shoppers search on
 * one server process, add to the cart and order through the other, all at once. Each order must mark its own
 * session's add-to-cart and no one else's, and no add may be lost or left unmarked.
 */

const MUG = 1021;
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const SHOPPERS = 8;
let shop: ShopProcesses;

beforeAll(async () => {
  shop = await openShopProcesses(2);
  await shop.query("UPDATE products SET stock_quantity = 500, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop?.close();
});

const app = (n: number) => shop.apps[n % 2] as FastifyInstance;

describe('searches that led to a purchase, with shoppers on two processes at once', () => {
  it('marks every add-to-cart with its own session’s order, once', async () => {
    // Each in a browser of their own: a search made before its session existed is matched by address, browser and
    // day, so shoppers sharing all three would share their searches.
    const shoppers = Array.from(
      { length: SHOPPERS },
      (_, index) => new Shopper(`${BROWSER} Shopper/${index}`),
    );
    await Promise.all(
      shoppers.map(async (shopper, index) => {
        const page = await shopper.send(app(index), 'GET', '/?s=mug&post_type=product');
        expect(page.statusCode).toBe(200);
      }),
    );
    // Searches are recorded after their page is answered.
    await vi.waitFor(
      async () =>
        expect(await shop.query("SELECT id FROM search_queries WHERE query = 'mug'")).toHaveLength(SHOPPERS),
      { timeout: 10_000 },
    );

    const forms = await Promise.all(
      shoppers.map((shopper, index) => shopper.readyForm(app(index + 1), MUG, 1)),
    );
    const orders = await Promise.all(
      shoppers.map(async (shopper, index) => {
        const placed = await shopper.send(app(index), 'POST', '/checkout/', forms[index]);
        expect(placed.statusCode).toBe(303);
        return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
      }),
    );

    const adds = await shop.query<{ order_id: number | null; session_hash: string; query_id: number }>(
      'SELECT order_id, session_hash, query_id FROM search_cart_adds',
    );
    expect(adds).toHaveLength(SHOPPERS);
    // One add per order, each order's add from one session, and every placed order among them.
    expect(adds.map((add) => Number(add.order_id)).sort((a, b) => a - b)).toEqual(
      [...orders].sort((a, b) => a - b),
    );
    expect(new Set(adds.map((add) => add.session_hash)).size).toBe(SHOPPERS);
    expect(new Set(adds.map((add) => add.query_id)).size).toBe(SHOPPERS);
  }, 60_000);
});
