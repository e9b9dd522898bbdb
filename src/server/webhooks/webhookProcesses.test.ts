import { afterEach, describe, expect, it } from 'vitest';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test-support/webhookReceiver';

/*
 * Two server processes on one database, both running the webhook sender at once: every event is delivered once,
 * never twice (the claim is atomic: SQLite's write lock, PostgreSQL's FOR UPDATE SKIP LOCKED). SQLite under
 * `npm test`, PostgreSQL under `npm run test:postgres`.
 */

const MUG = 1021;
const SECRET = 'two-process-secret';
const ORDERS = 12;

let processes: ShopProcesses | undefined;
let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await processes?.close();
  await receiver?.close();
  processes = undefined;
  receiver = undefined;
});

describe('webhooks across processes', { timeout: 120_000 }, () => {
  it('two processes delivering at once post each event exactly once', async () => {
    receiver = await startWebhookReceiver(SECRET);
    processes = await openShopProcesses(2, {}, undefined, () => ({ autoSend: false }));
    const [first, second] = processes.apps;
    if (!first || !second) throw new Error('two processes expected');
    await processes.query(
      "UPDATE products SET stock_quantity = 1000, stock_status = 'instock' WHERE id = ?",
      [MUG],
    );
    await first.webhooks.desk.save(
      null,
      { name: 'Both', status: 'active', topic: 'order.created', deliveryUrl: receiver.url, secret: SECRET },
      { shopHosts: [] },
    );

    const placed: number[] = [];
    await Promise.all(
      Array.from({ length: ORDERS }, async (_, index) => {
        const app = index % 2 === 0 ? first : second;
        const shopper = new Shopper();
        const response = await shopper.send(app, 'POST', '/checkout/', await shopper.readyForm(app, MUG, 1));
        expect(response.statusCode).toBe(303);
        placed.push(Number(/order-received\/(\d+)\//.exec(String(response.headers.location))?.[1]));
      }),
    );
    // Both senders drain the one outbox at the same time, several passes each.
    const delivered = await Promise.all([first, second, first, second].map((app) => app.webhooks.flush()));
    expect(delivered.reduce((sum, each) => sum + each, 0)).toBe(ORDERS);

    const events = receiver.received.filter((each) => each.json !== undefined); // not the ping
    const orderIds = events.map((each) => (each.json as { id: number }).id).sort((a, b) => a - b);
    expect(orderIds).toEqual(placed.sort((a, b) => a - b));
    const deliveryIds = new Set(events.map((each) => each.headers['x-wc-webhook-delivery-id']));
    expect(deliveryIds.size).toBe(ORDERS);
    expect(events.every((each) => each.signatureValid)).toBe(true);
    const rows = await processes.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM webhook_deliveries',
    );
    expect(rows.map((row) => [row.status, Number(row.attempts)])).toEqual(
      Array.from({ length: ORDERS }, () => ['delivered', 1]),
    );
  });
});
