import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { BILLING_FORM } from '../scripts/lib/billingForm.mjs';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/webhookReceiver';
import { scriptedClient } from './support/scriptedClient';
import { readShopDatabase, writeShopDatabase } from './support/shopDatabase';
import { type RunningShop, startShop } from './support/startShop';

/*
 * A webhook is never lost to a crash, no browser: the owner adds it with the command (`npm run owner -- webhook
 * create`, the built script), a shopper orders while the receiver is down (so the shop can only keep the delivery
 * for later), the server is killed with SIGKILL, and the restarted shop delivers it once the receiver is up,
 * signed as WooCommerce signs. On PostgreSQL (`npm run test:e2e:postgres`) the shop is two processes, both killed.
 */

const run = promisify(execFile);
const SECRET = 'crash-test-secret-71c2';

/** A loopback port nobody listens on yet (the receiver comes up there after the crash). */
async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function placeOrder(base: string): Promise<number> {
  const send = scriptedClient(base);
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await send('/?wc-ajax=add_to_cart', { method: 'POST', headers: form, body: 'product_id=1033&quantity=1' });
  const checkout = await (await send('/checkout/')).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(checkout)?.[1] ?? '';
  const placed = await send('/checkout/', {
    method: 'POST',
    headers: form,
    body: new URLSearchParams({
      ...BILLING_FORM,
      _wpnonce: field('_wpnonce'),
      cart_hash: field('cart_hash'),
    }),
  });
  expect(placed.status).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(placed.headers.get('location') ?? '')?.[1]);
}

interface DeliveryRow {
  status: string;
  attempts: number;
  resource_id: number;
}

const deliveriesOf = (dataDir: string) =>
  readShopDatabase(
    dataDir,
    (db) =>
      db
        .prepare('SELECT status, attempts, resource_id FROM webhook_deliveries ORDER BY id')
        .all() as DeliveryRow[],
  );

const attemptsOf = (dataDir: string) =>
  readShopDatabase(dataDir, (db) =>
    (
      db.prepare('SELECT attempt, error FROM webhook_attempts ORDER BY id').all() as {
        attempt: number;
        error: string;
      }[]
    ).map((row) => [Number(row.attempt), row.error]),
  );

let restarted: RunningShop | undefined;
let receiver: WebhookReceiver | undefined;
test.afterAll(async () => {
  await restarted?.stop();
  await receiver?.close();
});

test('an order’s webhook queued before a SIGKILL is delivered, once, after the restart', async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/hooks`;
  const shop = await startShop();

  const created = await run(
    process.execPath,
    [
      'dist/server/owner.js',
      'webhook',
      'create',
      '--topic',
      'order.created',
      '--url',
      url,
      '--secret',
      SECRET,
    ],
    { env: { ...process.env, ...shop.env } },
  );
  expect(created.stdout).toMatch(/^Webhook \d+ made \(active, order\.created → /m);
  expect(created.stdout).toContain('Ping: The delivery URL refused the connection.');
  const listed = await run(process.execPath, ['dist/server/owner.js', 'webhook', 'list'], {
    env: { ...process.env, ...shop.env },
  });
  expect(listed.stdout).toContain(`active\torder.created\t${url}`);

  const orderId = await placeOrder(shop.url);
  // The shop tried at once (the receiver is down), logged the failure, and keeps the delivery for its retry.
  await expect
    .poll(() => attemptsOf(shop.dataDir), { timeout: 30_000 })
    .toEqual([[1, 'The delivery URL refused the connection.']]);
  expect(deliveriesOf(shop.dataDir).map((row) => [row.status, Number(row.attempts)])).toEqual([
    ['queued', 1],
  ]);
  await shop.kill();

  // The retry is due a minute after the failure: the minute passes while the shop is down.
  await writeShopDatabase(
    shop.dataDir,
    "UPDATE webhook_deliveries SET next_attempt_at = 0 WHERE status = 'queued'",
  );
  receiver = await startWebhookReceiver(SECRET, () => 200, port);
  restarted = await startShop(undefined, shop.dataDir);

  const [delivery] = await receiver.waitFor(1);
  expect(delivery?.signatureValid).toBe(true);
  expect(delivery?.headers['x-wc-webhook-topic']).toBe('order.created');
  expect(delivery?.json).toMatchObject({ id: orderId });
  await expect
    .poll(
      () =>
        deliveriesOf(shop.dataDir).map((row) => [row.status, Number(row.attempts), Number(row.resource_id)]),
      {
        timeout: 30_000,
      },
    )
    .toEqual([['delivered', 2, orderId]]);
  expect(receiver.received).toHaveLength(1);
});
