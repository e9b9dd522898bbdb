import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';
import {
  type ReceiverAnswer,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../test-support/webhookReceiver';
import type { WebhookTopic } from '../../shared/webhooks/webhookTypes';
import { readCatalogFiles } from '../catalog/import/readCatalogFiles';
import { DEMO_CATALOG } from '../catalog/import/seedDemoCatalog';
import { ATTEMPTS_KEPT } from '../db/sql/webhookSql';
import { WEBHOOK_MAX_FAILURES, WEBHOOK_RETRY_DELAYS_MS } from './WebhookSender';
import { fetchWebhookPoster } from './webhookRequest';

/*
 * Webhooks as a receiver meets them: queued by the change itself (in its transaction), delivered later by the
 * sender with WooCommerce's headers and signature, retried with growing waits, the webhook disabled after five
 * failures in a row, and a checkout never waiting for a receiver. Runs on SQLite, and on PostgreSQL under
 * `npm run test:postgres`.
 */

const MUG = 1021;
const SECRET = 'receiver-secret-3f9a';
const ORDER_RECEIVED = /^\/checkout\/order-received\/(\d+)\/\?key=/;

let shop: TestApp | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await shop?.close();
  await receiver?.close();
  shop = undefined;
  receiver = undefined;
});

/** A shop whose sender runs only when the test flushes, on a clock the test moves ahead of the real one. */
async function openShop(
  answer?: ReceiverAnswer,
  options: { timeoutMs?: number; autoSend?: boolean; pollMs?: number } = {},
) {
  receiver = await startWebhookReceiver(SECRET, answer);
  const clock = { offset: 0 };
  shop = await createTestApp({
    settings: { server: { mail: { shopUrl: 'https://shop.example' } } },
    webhooks: {
      now: () => Date.now() + clock.offset,
      autoSend: options.autoSend ?? false,
      pollMs: options.pollMs,
      post: fetchWebhookPoster(options.timeoutMs),
    },
  });
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
  return { shop, receiver, clock };
}

async function addWebhook(
  test: TestApp,
  topic: WebhookTopic,
  url: string,
  status: 'active' | 'paused' = 'active',
) {
  return test.repositories.webhooks.create(
    { name: `${topic} hook`, status, topic, deliveryUrl: url, secret: SECRET },
    Date.now(),
  );
}

async function placeOrder(test: TestApp): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(test.app, MUG, 1);
  const response = await shopper.send(test.app, 'POST', '/checkout/', form);
  const match = ORDER_RECEIVED.exec(String(response.headers.location));
  if (!match) throw new Error(`The order was not placed (${response.statusCode})`);
  return Number(match[1]);
}

async function deliveries(test: TestApp) {
  return test.query<{ topic: string; resource_id: number; status: string; attempts: number }>(
    'SELECT topic, resource_id, status, attempts FROM webhook_deliveries ORDER BY id',
  );
}

describe('webhook delivery', { timeout: 60_000 }, () => {
  it('posts order.created with WooCommerce’s headers, a signature the receiver verifies, and the order as JSON', async () => {
    const { shop, receiver } = await openShop();
    const webhook = await addWebhook(shop, 'order.created', receiver.url);
    const orderId = await placeOrder(shop);
    expect(receiver.received).toHaveLength(0); // the checkout only queued it
    expect(await shop.app.webhooks.flush()).toBe(1);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.signatureValid).toBe(true);
    expect(delivery?.headers).toMatchObject({
      'content-type': 'application/json',
      'x-wc-webhook-source': 'https://shop.example/',
      'x-wc-webhook-topic': 'order.created',
      'x-wc-webhook-resource': 'order',
      'x-wc-webhook-event': 'created',
      'x-wc-webhook-id': String(webhook.id),
    });
    expect(String(delivery?.headers['user-agent'])).toMatch(/^WooCommerce\/\S+ Hookshot/);
    expect(delivery?.headers['x-wc-webhook-delivery-id']).toMatch(/^\d+$/);
    expect(delivery?.json).toMatchObject({
      id: orderId,
      status: 'processing',
      line_items: [{ product_id: MUG }],
    });
    expect(await shop.app.webhooks.flush()).toBe(0);
    expect(receiver.received).toHaveLength(1);
  });

  it('a signature over other bytes or with another secret does not verify', async () => {
    const { shop, receiver } = await openShop();
    await shop.repositories.webhooks.create(
      {
        name: 'other secret',
        status: 'active',
        topic: 'order.created',
        deliveryUrl: receiver.url,
        secret: 'not-the-receivers',
      },
      Date.now(),
    );
    await placeOrder(shop);
    await shop.app.webhooks.flush();
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.signatureValid).toBe(false);
  });

  it('a receiver that fails three times, then succeeds, gets exactly one successful delivery of the same body', async () => {
    const { shop, receiver, clock } = await openShop(({ index }) => (index < 3 ? 500 : 200));
    const webhook = await addWebhook(shop, 'order.created', receiver.url);
    const orderId = await placeOrder(shop);
    expect(await shop.app.webhooks.flush()).toBe(0);
    // The order changes before the retries: they still send the body of the first attempt (what was signed).
    await shop.query("UPDATE orders SET status = 'on-hold' WHERE id = ?", [orderId]);
    for (const [index, wait] of WEBHOOK_RETRY_DELAYS_MS.slice(0, 3).entries()) {
      clock.offset += wait / 2;
      await shop.app.webhooks.flush();
      expect(receiver.received).toHaveLength(index + 1); // not due before its wait
      clock.offset += wait / 2;
      await shop.app.webhooks.flush();
      expect(receiver.received).toHaveLength(index + 2);
    }
    clock.offset += 24 * 60 * 60_000;
    expect(await shop.app.webhooks.flush()).toBe(0);
    expect(receiver.received.map((each) => each.answered)).toEqual([500, 500, 500, 200]);
    // Every retry is the same delivery: one id, the same bytes, the same signature.
    expect(new Set(receiver.received.map((each) => each.headers['x-wc-webhook-delivery-id'])).size).toBe(1);
    expect(new Set(receiver.received.map((each) => each.rawBody.toString('utf8'))).size).toBe(1);
    expect(receiver.received[3]?.json).toMatchObject({ id: orderId, status: 'processing' });
    expect(receiver.received.every((each) => each.signatureValid)).toBe(true);
    expect(await deliveries(shop)).toMatchObject([{ status: 'delivered', attempts: 4 }]);
    const log = await shop.app.webhooks.desk.log(webhook.id);
    expect(log.map((each) => [each.attempt, each.responseStatus])).toEqual([
      [4, 200],
      [3, 500],
      [2, 500],
      [1, 500],
    ]);
    expect(log[1]?.error).toBe('The delivery URL answered HTTP 500.');
    expect(await shop.app.webhooks.desk.get(webhook.id)).toMatchObject({ status: 'active', failureCount: 0 });
  });

  it(`gives an event up after five attempts and disables the webhook at ${WEBHOOK_MAX_FAILURES} failures in a row`, async () => {
    const { shop, receiver, clock } = await openShop(() => 503);
    const webhook = await addWebhook(shop, 'order.created', receiver.url);
    await placeOrder(shop);
    for (let attempt = 1; attempt <= 5; attempt++) {
      await shop.app.webhooks.flush();
      expect((await shop.app.webhooks.desk.get(webhook.id)).status).toBe(attempt < 5 ? 'active' : 'disabled');
      clock.offset += 24 * 60 * 60_000;
    }
    expect(receiver.received).toHaveLength(5);
    expect(await deliveries(shop)).toMatchObject([{ status: 'failed', attempts: 5 }]);
    // Disabled: a new order queues nothing for it.
    await placeOrder(shop);
    expect(await deliveries(shop)).toHaveLength(1);
  });

  it('disables after five failed attempts in a row across events, and a success in between starts the count again', async () => {
    const answers = [500, 500, 500, 500, 200, 500, 500, 500, 500, 500];
    const { shop, receiver, clock } = await openShop(({ index }) => answers[index] ?? 500);
    const webhook = await addWebhook(shop, 'order.created', receiver.url);
    for (let order = 0; order < 10; order++) {
      await placeOrder(shop);
      await shop.app.webhooks.flush();
      if (order === 4) expect((await shop.app.webhooks.desk.get(webhook.id)).failureCount).toBe(0);
      clock.offset += 1; // retries wait minutes: each flush sends the new order only
    }
    expect(receiver.received).toHaveLength(10);
    expect(await shop.app.webhooks.desk.get(webhook.id)).toMatchObject({
      status: 'disabled',
      failureCount: 5,
    });
  });

  it('never commits an order without its outbox row: when the row cannot be written, no order is placed', async () => {
    const { shop, receiver } = await openShop();
    await addWebhook(shop, 'order.created', receiver.url);
    const [before] = await shop.query<{ stock: number }>(
      'SELECT stock_quantity AS stock FROM products WHERE id = ?',
      [MUG],
    );
    await shop.query('ALTER TABLE webhook_deliveries RENAME TO webhook_deliveries_away');
    const shopper = new Shopper();
    const response = await shopper.send(
      shop.app,
      'POST',
      '/checkout/',
      await shopper.readyForm(shop.app, MUG, 1),
    );
    expect(response.statusCode).toBe(500);
    expect(await shop.repositories.orders.countOrders()).toBe(0);
    const [after] = await shop.query<{ stock: number }>(
      'SELECT stock_quantity AS stock FROM products WHERE id = ?',
      [MUG],
    );
    expect(Number(after?.stock)).toBe(Number(before?.stock));
    await shop.query('ALTER TABLE webhook_deliveries_away RENAME TO webhook_deliveries');
  });

  it('queues nothing for a paused webhook, or another topic, or an order that fails', async () => {
    const { shop, receiver } = await openShop();
    await addWebhook(shop, 'order.created', receiver.url, 'paused');
    await addWebhook(shop, 'product.updated', receiver.url);
    await placeOrder(shop);
    await addWebhook(shop, 'order.created', receiver.url);
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.app, MUG, 1);
    await shop.query('UPDATE products SET stock_quantity = 0, stock_status = ? WHERE id = ?', [
      'outofstock',
      MUG,
    ]);
    const refused = await shopper.send(shop.app, 'POST', '/checkout/', form);
    expect(refused.statusCode).not.toBe(303);
    expect(await shop.repositories.orders.countOrders()).toBe(1);
    expect(await deliveries(shop)).toEqual([]);
  });

  it('queues order.updated with a status change and product.deleted with the trash, in their transactions', async () => {
    const { shop, receiver } = await openShop();
    await addWebhook(shop, 'order.updated', receiver.url);
    await addWebhook(shop, 'product.updated', receiver.url);
    await addWebhook(shop, 'product.deleted', receiver.url);
    const orderId = await placeOrder(shop);
    await shop.repositories.orderAdmin.changeStatus(orderId, 'completed', () => 'Status changed.');
    await shop.repositories.orderAdmin.changeStatus(orderId, 'completed', () => 'Status changed.'); // no change
    expect(await shop.repositories.catalog.trashProduct(1001)).toBe(true);
    expect(await shop.repositories.catalog.deleteProduct(1001)).toBe(true); // already reported when trashed
    expect(await deliveries(shop)).toMatchObject([
      { topic: 'order.updated', resource_id: orderId, status: 'queued' },
      { topic: 'product.deleted', resource_id: 1001, status: 'queued' },
    ]);
    await shop.app.webhooks.flush();
    const bodies = receiver.received.map((each) => [each.headers['x-wc-webhook-topic'], each.json]);
    expect(bodies).toContainEqual([
      'order.updated',
      expect.objectContaining({ id: orderId, status: 'completed' }),
    ]);
    expect(bodies).toContainEqual(['product.deleted', { id: 1001 }]);
  });

  it('queues product.updated for each parent product an import changes, in the import’s transaction, and none for the rest', async () => {
    const { shop, receiver } = await openShop();
    await addWebhook(shop, 'product.updated', receiver.url);
    const catalog = await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar);
    // The file is the one the shop was seeded with: only the mug, whose stock the test set, changes back.
    await shop.repositories.catalog.importCatalog(structuredClone(catalog));
    expect((await deliveries(shop)).map((row) => Number(row.resource_id))).toEqual([MUG]);
    await shop.query('DELETE FROM webhook_deliveries');

    const renamed = catalog.products.find((product) => product.type === 'simple');
    const variation = catalog.products.find((product) => product.type === 'variation');
    if (!renamed || !variation?.parent || !('sku' in variation.parent))
      throw new Error('demo catalog changed');
    renamed.name = `${renamed.name} (new)`;
    variation.regularPrice = (variation.regularPrice ?? 0) + 100;
    await shop.repositories.catalog.importCatalog(catalog);
    const expected = await shop.query<{ id: number }>(
      'SELECT id FROM products WHERE sku IN (?, ?) ORDER BY id',
      [renamed.sku, variation.parent.sku],
    );
    const queued = await deliveries(shop);
    expect(queued.map((row) => Number(row.resource_id)).sort((a, b) => a - b)).toEqual(
      expected.map((row) => Number(row.id)),
    );
    expect(expected).toHaveLength(2);
    expect(new Set(queued.map((row) => row.topic))).toEqual(new Set(['product.updated']));
  });

  it(`keeps the newest ${ATTEMPTS_KEPT} attempts in the log, and settled deliveries only while they are logged`, async () => {
    const { shop, receiver } = await openShop();
    const webhook = await addWebhook(shop, 'order.created', receiver.url);
    for (let order = 0; order < ATTEMPTS_KEPT + 3; order++) {
      await placeOrder(shop);
      await shop.app.webhooks.flush();
    }
    expect(receiver.received).toHaveLength(ATTEMPTS_KEPT + 3);
    const log = await shop.app.webhooks.desk.log(webhook.id);
    expect(log).toHaveLength(ATTEMPTS_KEPT);
    expect(await deliveries(shop)).toHaveLength(ATTEMPTS_KEPT);
    const newest = Math.max(
      ...receiver.received.map((each) => Number(each.headers['x-wc-webhook-delivery-id'])),
    );
    expect(log[0]?.deliveryId).toBe(newest);
  });

  it('delivers right after the checkout is answered, not at the next poll', async () => {
    const { shop, receiver } = await openShop(undefined, { autoSend: true, pollMs: 60 * 60_000 });
    await addWebhook(shop, 'order.created', receiver.url);
    const orderId = await placeOrder(shop);
    const [delivery] = await receiver.waitFor(1);
    expect(delivery?.json).toMatchObject({ id: orderId });
  });

  it('never holds up a checkout: orders are placed while the receiver hangs, and the hung attempt times out', async () => {
    const { shop, receiver } = await openShop((request) => (request.index === 0 ? 'hang' : 200), {
      autoSend: true,
      timeoutMs: 1_000,
    });
    await addWebhook(shop, 'order.created', receiver.url);
    const first = await placeOrder(shop);
    await receiver.waitFor(1); // the first delivery is in flight and will get no answer
    const second = await placeOrder(shop);
    expect(second).toBeGreaterThan(first);
    expect(receiver.received[0]?.answered).toBe('hung');
    await expect
      .poll(async () => (await deliveries(shop)).map((each) => each.status), { timeout: 20_000 })
      .toEqual(['queued', 'delivered']);
    await expect
      .poll(
        async () =>
          (
            await shop.query<{ error: string | null }>(
              'SELECT error FROM webhook_attempts WHERE attempt = 1 AND error IS NOT NULL',
            )
          ).length,
        { timeout: 20_000 },
      )
      .toBe(1);
    const [hung] = await shop.query<{ error: string }>(
      'SELECT error FROM webhook_attempts WHERE error IS NOT NULL',
    );
    expect(hung?.error).toBe('No answer within 1 seconds.');
  });
});
