import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test-support/webhookReceiver';
import type { WebhookTopic } from '../../shared/webhooks/webhookTypes';
import { createApiKeyService, type IssuedApiKey } from '../wcRest/apiKeys/apiKeyService';

/*
 * Changes made through the WooCommerce REST API fire the same webhooks as the back office's, and a webhook's body
 * is the very resource the API answers (one serializer for both faces).
 */

const MUG = 1021;
const SECRET = 'rest-api-webhooks';
let shop: TestApp;
let receiver: WebhookReceiver;
let key: IssuedApiKey;

beforeAll(async () => {
  receiver = await startWebhookReceiver(SECRET);
  // Links in bodies come from the shop's public address (a delivery has no request to take an origin from).
  shop = await createTestApp({
    settings: { server: { mail: { shopUrl: 'https://shop.example' } } },
    webhooks: { autoSend: false },
    // No order mail goes out: its "email sent" note would move the order's date_modified after the delivery.
    mail: { autoSend: false },
  });
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
  key = await createApiKeyService(shop.repositories.apiKeys).create({
    description: 'Webhook test',
    permissions: 'read_write',
  });
  for (const topic of ['order.updated', 'product.updated', 'product.deleted'] as WebhookTopic[])
    await shop.repositories.webhooks.create(
      { name: topic, status: 'active', topic, deliveryUrl: receiver.url, secret: SECRET },
      Date.now(),
    );
}, 60_000);
afterAll(async () => {
  await shop?.close();
  await receiver?.close();
});

async function api(method: 'GET' | 'PUT' | 'DELETE', url: string, body?: object) {
  const response = await shop.app.inject({
    method,
    url: `/wp-json/wc/v3${url}`,
    headers: {
      authorization: `Basic ${Buffer.from(`${key.consumerKey}:${key.consumerSecret}`).toString('base64')}`,
    },
    ...(body ? { payload: body } : {}),
  });
  expect(response.statusCode).toBeLessThan(300);
  return response.json();
}

/** The deliveries the receiver got for `topic` since `from`. */
const received = (topic: string, from: number) =>
  receiver.received.slice(from).filter((each) => each.headers['x-wc-webhook-topic'] === topic);

describe('webhooks for changes made through the REST API', { timeout: 60_000 }, () => {
  it('an order status set through the API is delivered as order.updated, shaped as the API’s order', async () => {
    const shopper = new Shopper();
    const placed = await shopper.send(
      shop.app,
      'POST',
      '/checkout/',
      await shopper.readyForm(shop.app, MUG, 1),
    );
    const orderId = Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
    const from = receiver.received.length;
    await api('PUT', `/orders/${orderId}`, { status: 'completed' });
    await shop.app.webhooks.flush();
    const [delivery] = received('order.updated', from);
    expect(delivery?.signatureValid).toBe(true);
    // The same JSON as the API's, but for when the order last changed: a note written after the delivery's body
    // was built moves it.
    const {
      date_modified: _a,
      date_modified_gmt: _b,
      ...sent
    } = (delivery?.json ?? {}) as Record<string, unknown>;
    const { date_modified: _c, date_modified_gmt: _d, ...answered } = await api('GET', `/orders/${orderId}`);
    expect(sent).toEqual(answered);
    expect(delivery?.json).toMatchObject({ id: orderId, status: 'completed' });
  });

  it('a customer note set through the API is delivered as order.updated', async () => {
    const shopper = new Shopper();
    const placed = await shopper.send(
      shop.app,
      'POST',
      '/checkout/',
      await shopper.readyForm(shop.app, MUG, 1),
    );
    const orderId = Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
    const from = receiver.received.length;
    await api('PUT', `/orders/${orderId}`, { customer_note: 'Leave it with the neighbour' });
    await shop.app.webhooks.flush();
    const updates = received('order.updated', from);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.json).toMatchObject({ id: orderId, customer_note: 'Leave it with the neighbour' });
  });

  it('a stock change through the API is delivered as product.updated, the same JSON as GET products/{id}', async () => {
    const from = receiver.received.length;
    await api('PUT', `/products/${MUG}`, { stock_quantity: 12 });
    await shop.app.webhooks.flush();
    const updates = received('product.updated', from);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.json).toEqual(await api('GET', `/products/${MUG}`));
    expect(updates[0]?.json).toMatchObject({ id: MUG, stock_quantity: 12 });
  });

  it('trashing and deleting through the API are delivered as product.deleted with the id, once each', async () => {
    const from = receiver.received.length;
    await api('DELETE', '/products/1001'); // to the trash
    await api('DELETE', '/products/1001?force=true'); // already reported
    await api('DELETE', '/products/1033?force=true'); // deleted straight away
    await shop.app.webhooks.flush();
    // Deliveries of one pass go out in parallel: their order is not promised (docs/rest-api.md).
    const ids = received('product.deleted', from).map((each) => (each.json as { id: number }).id);
    expect(ids.sort((a, b) => a - b)).toEqual([1001, 1033]);
  });
});
