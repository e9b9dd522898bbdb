import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewOrder, Repositories } from '../db/ports';
import { openShopProcesses, type ShopProcesses } from '../testing/shopProcesses';
import { Shopper } from '../testing/shopper';

/*
 * One cart makes one order, by rule on both engines: two server processes on one database (two connections to the
 * SQLite file under `npm test`, two pools on PostgreSQL under `npm run test:postgres`), the same checkout form
 * submitted at once through both, alternating, and replayed one after another.
 */

const MUG = 1021;
const ORDER_RECEIVED = /^\/checkout\/order-received\/(\d+)\/\?key=wc_order_[A-Za-z0-9_-]+$/;

let shop: ShopProcesses;
beforeAll(async () => {
  shop = await openShopProcesses(2);
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop.close();
});

async function ordersOf(shopper: Shopper): Promise<number> {
  const rows = await shop.query<{ n: number }>('SELECT COUNT(*) AS n FROM orders WHERE session_id = ?', [
    shopper.cookies.get('shop_session'),
  ]);
  return Number(rows[0]?.n);
}

async function stockOfMug(): Promise<number> {
  const rows = await shop.query<{ stock: number }>(
    'SELECT stock_quantity AS stock FROM products WHERE id = ?',
    [MUG],
  );
  return Number(rows[0]?.stock);
}

describe('orders exactly once (two processes, one database)', { timeout: 60_000 }, () => {
  it('mints a fresh idempotency key with every checkout form', async () => {
    const first = await new Shopper().readyForm(shop.apps[0] as FastifyInstance, MUG);
    const second = await new Shopper().readyForm(shop.apps[1] as FastifyInstance, MUG);
    expect(first.checkout_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.checkout_key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.checkout_key).not.toBe(second.checkout_key);
  });

  it('answers five simultaneous submits of one form with the same one order', async () => {
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.apps[0] as FastifyInstance, MUG);
    const stockBefore = await stockOfMug();
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        shopper.send(shop.apps[n % 2] as FastifyInstance, 'POST', '/checkout/', form),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([303, 303, 303, 303, 303]);
    const targets = new Set(responses.map((response) => String(response.headers.location)));
    expect(targets.size).toBe(1);
    expect([...targets][0]).toMatch(ORDER_RECEIVED);
    expect(await ordersOf(shopper)).toBe(1);
    expect(await stockOfMug()).toBe(stockBefore - 2);
  });

  it('makes one order from one cart even when the submits carry no key', async () => {
    const shopper = new Shopper();
    const { checkout_key: _key, ...form } = await shopper.readyForm(shop.apps[1] as FastifyInstance, MUG);
    const stockBefore = await stockOfMug();
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, n) =>
        shopper.send(shop.apps[n % 2] as FastifyInstance, 'POST', '/checkout/', form),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([303, 400, 400, 400, 400]);
    for (const refused of responses.filter((response) => response.statusCode === 400)) {
      expect(refused.body).toContain('Your cart is empty, so there is nothing to order.');
    }
    expect(await ordersOf(shopper)).toBe(1);
    expect(await stockOfMug()).toBe(stockBefore - 2);
  });

  it('answers replays of a submit, one after another, with the order it made', async () => {
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.apps[0] as FastifyInstance, MUG);
    const targets: string[] = [];
    for (let n = 0; n < 5; n++) {
      const response = await shopper.send(shop.apps[n % 2] as FastifyInstance, 'POST', '/checkout/', form);
      expect(response.statusCode).toBe(303);
      targets.push(String(response.headers.location));
    }
    expect(new Set(targets).size).toBe(1);
    expect(await ordersOf(shopper)).toBe(1);
    // The order-received page is safe to reload, on any process.
    for (const app of shop.apps) {
      const page = await shopper.send(app, 'GET', targets[0] as string);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Order received');
    }
  });

  it('never answers another visitor with an order made by a copied form', async () => {
    const owner = new Shopper();
    const form = await owner.readyForm(shop.apps[0] as FastifyInstance, MUG);
    const placed = await owner.send(shop.apps[0] as FastifyInstance, 'POST', '/checkout/', form);
    expect(placed.statusCode).toBe(303);
    const stranger = new Shopper();
    const strangerForm = await stranger.readyForm(shop.apps[1] as FastifyInstance, MUG);
    const copied = await stranger.send(shop.apps[1] as FastifyInstance, 'POST', '/checkout/', {
      ...strangerForm,
      checkout_key: form.checkout_key as string,
    });
    expect(copied.statusCode).toBe(400);
    expect(copied.headers.location).toBeUndefined();
    expect(copied.body).toContain('This checkout form has already been used');
    expect(await ordersOf(stranger)).toBe(0);
  });

  it('writes nothing when the cart changed between pricing and the order (another tab won the race)', async () => {
    const repositories = shop.repositories[1] as Repositories;
    const line = { key: 'mug', productId: MUG, variationId: null, attributes: {}, quantity: 2 };
    await repositories.sessions.saveCart('raced-session', [{ ...line, quantity: 3 }], Date.now() + 60_000);
    const stockBefore = await stockOfMug();
    const placing = repositories.orders.placeOrder({
      orderKey: 'wc_order_raced',
      currency: 'USD',
      paymentMethod: 'cod',
      customerNote: '',
      sessionId: 'raced-session',
      idempotencyKey: null,
      pricedCart: [line],
      billing: { firstName: 'A', lastName: 'B', email: 'a@example.com' } as NewOrder['billing'],
      lines: [
        {
          productId: MUG,
          variationId: null,
          name: 'Mug',
          sku: null,
          attributes: {},
          quantity: 2,
          unitPrice: 1800,
        },
      ],
    });
    await expect(placing).rejects.toMatchObject({ code: 'cart_changed' });
    expect(await shop.query("SELECT id FROM orders WHERE order_key = 'wc_order_raced'")).toEqual([]);
    expect(await stockOfMug()).toBe(stockBefore);
  });
});
