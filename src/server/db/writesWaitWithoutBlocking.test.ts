import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { type Holder, holdPostgresTableLock, holdSqliteWriteLock } from '../../../test-support/holdDatabase';
import { nonceOf } from '../../../test-support/ownerBrowser';
import { Shopper } from '../../../test-support/shopper';

/*
 * Another writer holds the database (an import in another process on SQLite; on PostgreSQL a second connection
 * locking the table the write needs). A shopper's order, a review and the outbox's writes must wait for it without
 * holding the process: pages and /healthz are answered meanwhile, the waiting request stays unanswered, and once the
 * lock is released the write lands exactly once (one order, the stock taken once).
 *
 * On SQLite the connection's own busy timeout would wait synchronously, freezing every request of the process until
 * it gave up; these writes wait asynchronously instead (db/sqlite/withoutBusyWait.ts). PostgreSQL's driver always
 * waits asynchronously: the same test holds there too.
 */

const MUG = 1021;
let shop: TestApp;
let mugUrl: string;
/** The order the first test placed: the outbox test's mail belongs to it. */
let placedOrderId: number;

beforeAll(async () => {
  shop = await createTestApp();
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
  const [row] = await shop.query<{ slug: string }>('SELECT slug FROM products WHERE id = ?', [MUG]);
  mugUrl = `/product/${row?.slug}/`;
}, 60_000);
afterAll(async () => {
  await shop?.close();
});

function hold(table: string): Promise<Holder> {
  return shop.databaseUrl
    ? holdPostgresTableLock(shop.databaseUrl, table)
    : holdSqliteWriteLock(join(shop.dataDir, 'shop.sqlite'));
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const [row] = await shop.query<{ n: number | string }>(sql, params);
  return Number(row?.n);
}

/** What a shopper sees meanwhile: /healthz and a product page, both answered. */
async function pagesAreAnswered() {
  const health = await shop.app.inject({ method: 'GET', url: '/healthz' });
  expect(health.statusCode).toBe(200);
  expect((await new Shopper().send(shop.app, 'GET', mugUrl)).statusCode).toBe(200);
}

describe('shopper writes wait for a held database without holding the process', () => {
  it('an order waits while pages are answered, then lands once with its stock taken once', {
    timeout: 60_000,
  }, async () => {
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.app, MUG, 2);
    const ordersBefore = await count('SELECT count(*) AS n FROM orders');
    const placing = vi.spyOn(shop.repositories.orders, 'placeOrder');
    const holder = await hold('orders');
    let answered = false;
    let placed: Promise<{ statusCode: number; headers: Record<string, unknown> }>;
    try {
      placed = shopper.send(shop.app, 'POST', '/checkout/', form).finally(() => {
        answered = true;
      });
      await vi.waitFor(() => expect(placing).toHaveBeenCalled(), { timeout: 20_000 });
      await pagesAreAnswered();
      expect(answered).toBe(false);
      expect(await count('SELECT count(*) AS n FROM orders')).toBe(ordersBefore);
    } finally {
      await holder.release();
    }
    placing.mockRestore();
    const response = await placed;
    expect(response.statusCode).toBe(303);
    const orderId = Number(/order-received\/(\d+)\//.exec(String(response.headers.location))?.[1]);
    placedOrderId = orderId;
    expect(await count('SELECT count(*) AS n FROM orders')).toBe(ordersBefore + 1);
    expect(await count('SELECT count(*) AS n FROM order_items WHERE order_id = ?', [orderId])).toBe(1);
    expect(await count('SELECT stock_quantity AS n FROM products WHERE id = ?', [MUG])).toBe(48);
    // Sending the same form again (a double click after the wait) replays the order, never a second one.
    const again = await shopper.send(shop.app, 'POST', '/checkout/', form);
    expect(again.headers.location).toBe(response.headers.location);
    expect(await count('SELECT count(*) AS n FROM orders')).toBe(ordersBefore + 1);
  });

  it('a review waits while pages are answered, then lands once', { timeout: 60_000 }, async () => {
    const shopper = new Shopper();
    const page = await shopper.send(shop.app, 'GET', mugUrl);
    const nonce = nonceOf(page.body, `${mugUrl}review`);
    // The database is taken the moment the review is to be written (after the per-address limit was counted).
    const reviews = shop.repositories.reviews;
    const addReview = reviews.addReview.bind(reviews);
    let holder: Holder | undefined;
    const adding = vi.spyOn(reviews, 'addReview').mockImplementationOnce(async (review) => {
      holder = await hold('product_reviews');
      return addReview(review);
    });
    let answered = false;
    let sent: Promise<{ statusCode: number }>;
    try {
      sent = shopper
        .send(shop.app, 'POST', `${mugUrl}review`, {
          _wpnonce: nonce,
          rating: '4',
          reviewer: 'Ada',
          email: 'ada@example.com',
          content: 'Keeps the coffee warm.',
        })
        .finally(() => {
          answered = true;
        });
      await vi.waitFor(() => expect(holder).toBeDefined(), { timeout: 20_000 });
      await pagesAreAnswered();
      expect(answered).toBe(false);
    } finally {
      await vi.waitFor(() => expect(holder).toBeDefined(), { timeout: 20_000 });
      await holder?.release();
    }
    adding.mockRestore();
    expect((await sent).statusCode).toBeLessThan(400);
    expect(await count("SELECT count(*) AS n FROM product_reviews WHERE reviewer = 'Ada'")).toBe(1);
  });

  it('the mail outbox, the webhook outbox and back-in-stock mail wait, then write once', {
    timeout: 60_000,
  }, async () => {
    const holder = await hold('mail_outbox');
    const settled = { mail: false, webhook: false, stockAlerts: false };
    let mail: Promise<boolean>;
    let webhook: Promise<number>;
    let stockAlerts: Promise<number>;
    try {
      mail = shop.repositories.mailOutbox
        .enqueue(
          {
            kind: 'order_completed',
            orderId: placedOrderId,
            recipient: 'a@example.com',
            subject: 's',
            text: 't',
            html: 'h',
          },
          Date.now(),
        )
        .finally(() => {
          settled.mail = true;
        });
      webhook = shop.repositories.webhooks.enqueue('product.updated', MUG, Date.now()).finally(() => {
        settled.webhook = true;
      });
      // Back-in-stock mail is queued into the outbox in its alerts' transaction.
      stockAlerts = shop.repositories.stockAlerts
        .queueDue(() => ({ recipient: 'a@example.com', subject: 's', text: 't', html: 'h' }), Date.now(), 10)
        .finally(() => {
          settled.stockAlerts = true;
        });
      await pagesAreAnswered();
      expect(settled.mail).toBe(false);
      // PostgreSQL: only the mail outbox's table is held; the webhook's write and an alert run with nothing due have
      // nothing to wait for there.
      if (!shop.databaseUrl) expect(settled).toEqual({ mail: false, webhook: false, stockAlerts: false });
    } finally {
      await holder.release();
    }
    expect(await mail).toBe(true);
    await webhook;
    expect(await stockAlerts).toBe(0);
    expect(
      await count("SELECT count(*) AS n FROM mail_outbox WHERE order_id = ? AND kind = 'order_completed'", [
        placedOrderId,
      ]),
    ).toBe(1);
  });
});
