import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD, TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';
import type { OrderStatus } from '../../shared/orders/orderStatus';
import { createOrderDesk, type OrderStatusListener } from './orderDesk';

/*
 * Cancelling or refunding gives an order's items back to stock once, by rule on both engines: two server processes
 * on one database (two SQLite connections under `npm test`, two PostgreSQL pools under `npm run test:postgres`),
 * two owners clicking "Update" at once, each through a different process.
 */

const MUG = 1021;
let shop: ShopProcesses;

beforeAll(async () => {
  shop = await openShopProcesses(2);
  await shop.repositories[0]?.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop.close();
});

const app = (n: number) => shop.apps[n] as FastifyInstance;

async function placeOrder(quantity: number): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(app(0), MUG, quantity);
  const placed = await shopper.send(app(0), 'POST', '/checkout/', form);
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

async function stockOfMug(): Promise<number> {
  const [row] = await shop.query<{ stock: number }>(
    'SELECT stock_quantity AS stock FROM products WHERE id = ?',
    [MUG],
  );
  return Number(row?.stock);
}

/** An owner logged in through one process, holding the order page's status nonce. */
async function ownerOn(process: number, order: number) {
  const owner = new Shopper();
  const form = await owner.send(app(process), 'GET', '/admin/login');
  const nonce = /name="_wpnonce" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
  const login = await owner.send(app(process), 'POST', '/admin/login', {
    password: TEST_OWNER_PASSWORD,
    _wpnonce: nonce,
  });
  expect(login.statusCode).toBe(303);
  const page = await owner.send(app(process), 'GET', `/admin/orders/${order}/`);
  const statusNonce =
    new RegExp(`action="/admin/orders/${order}/status"[\\s\\S]*?name="_wpnonce" value="([^"]+)"`).exec(
      page.body,
    )?.[1] ?? '';
  return {
    update: (status: OrderStatus) =>
      owner.send(app(process), 'POST', `/admin/orders/${order}/status`, { status, _wpnonce: statusNonce }),
  };
}

async function notesOf(order: number): Promise<string[]> {
  const rows = await shop.query<{ body: string }>(
    'SELECT body FROM order_notes WHERE order_id = ? ORDER BY id',
    [order],
  );
  return rows.map((row) => row.body);
}

describe('status changes under concurrency (two processes, one database)', { timeout: 60_000 }, () => {
  it('restores the stock exactly once when two owners cancel the same order at once', async () => {
    const order = await placeOrder(3);
    // Logged in one after the other (the login limiter counts simultaneous tries); the clicks are what race.
    const owners = [await ownerOn(0, order), await ownerOn(1, order)];
    const before = await stockOfMug();
    const responses = await Promise.all([
      owners[0]?.update('cancelled'),
      owners[1]?.update('cancelled'),
      owners[0]?.update('cancelled'),
      owners[1]?.update('cancelled'),
    ]);
    expect(responses.map((response) => response?.statusCode)).toEqual([303, 303, 303, 303]);
    expect(await stockOfMug()).toBe(before + 3);
    expect(await notesOf(order)).toEqual(['Status changed from Processing to Cancelled.']);
  });

  it('restores once when one owner cancels and another refunds at the same moment', async () => {
    const order = await placeOrder(2);
    const owners = [await ownerOn(0, order), await ownerOn(1, order)];
    const before = await stockOfMug();
    await Promise.all([owners[0]?.update('cancelled'), owners[1]?.update('refunded')]);
    expect(await stockOfMug()).toBe(before + 2);
    const notes = await notesOf(order);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(/^Status changed from Processing to (Cancelled|Refunded)\.$/);
  });

  it('tells the listener once per real change, whichever process wins', async () => {
    const order = await placeOrder(1);
    const heard: string[] = [];
    const listener: OrderStatusListener = {
      async statusChanged(ref, from, to) {
        heard.push(`${ref.number}:${from}->${to}`);
      },
    };
    const desks = shop.repositories.map((repositories) =>
      createOrderDesk({ orders: repositories.orderAdmin, listener }),
    );
    const before = await stockOfMug();
    await Promise.all(
      desks.flatMap((desk) => [desk.changeStatus(order, 'completed'), desk.changeStatus(order, 'completed')]),
    );
    expect(heard).toEqual([`${order}:processing->completed`]);
    await Promise.all(desks.map((desk) => desk.changeStatus(order, 'refunded')));
    expect(heard).toEqual([`${order}:processing->completed`, `${order}:completed->refunded`]);
    expect(await stockOfMug()).toBe(before + 1);
  });

  it('keeps a change when the listener fails (mail must never undo an order’s status)', async () => {
    const order = await placeOrder(1);
    const errors: string[] = [];
    const desk = createOrderDesk({
      orders: shop.repositories[1]?.orderAdmin as NonNullable<(typeof shop.repositories)[1]>['orderAdmin'],
      listener: {
        async statusChanged() {
          throw new Error('SMTP down');
        },
      },
      logError: (_error, message) => errors.push(message),
    });
    const change = await desk.changeStatus(order, 'completed');
    expect(change).toMatchObject({ from: 'processing', to: 'completed' });
    const [row] = await shop.query<{ status: string }>('SELECT status FROM orders WHERE id = ?', [order]);
    expect(row?.status).toBe('completed');
    expect(errors).toHaveLength(1);
  });

  it('adds automatic notes through the desk, refusing an unknown order', async () => {
    const order = await placeOrder(1);
    const desk = createOrderDesk({
      orders: (shop.repositories[0] as (typeof shop.repositories)[0]).orderAdmin,
    });
    const note = await desk.addOrderNote(order, {
      author: 'system',
      text: 'Order completed email sent to ada@example.com',
    });
    expect(note).toMatchObject({ author: 'system', text: 'Order completed email sent to ada@example.com' });
    expect(await notesOf(order)).toEqual(['Order completed email sent to ada@example.com']);
    await expect(desk.addOrderNote(99_999_999, { author: 'system', text: 'x' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
