import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { RecordingTransport } from '../../../test-support/recordingTransport';
import { Shopper } from '../../../test-support/shopper';
import type { MailTransport } from './mailTransport';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './OrderMailer';

/*
 * The outbox as an order meets it: queued by the checkout itself, sent later by the sender, retried with growing
 * waits, never in the way of the order. Runs on SQLite, and on PostgreSQL under `npm run test:postgres`.
 */

const MUG = 1021;
const ORDER_RECEIVED = /^\/checkout\/order-received\/(\d+)\/\?key=/;
const MINUTE = 60_000;

let shop: TestApp | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

/** A shop whose clock the test moves, sending only when the test flushes. */
async function openShop(transport: RecordingTransport, settings: unknown = {}) {
  const clock = { now: Date.parse('2030-01-01T10:00:00Z') };
  shop = await createTestApp({ settings, mail: { transport, now: () => clock.now, autoSend: false } });
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
  return { shop, clock };
}

async function placeOrder(test: TestApp): Promise<{ status: number; orderId: number }> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(test.app, MUG, 1);
  const response = await shopper.send(test.app, 'POST', '/checkout/', form);
  const match = ORDER_RECEIVED.exec(String(response.headers.location));
  return { status: response.statusCode, orderId: Number(match?.[1]) };
}

interface OutboxRow {
  kind: string;
  recipient: string;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: number;
}

async function outboxOf(test: TestApp, orderId: number): Promise<OutboxRow[]> {
  const rows = await test.query<OutboxRow>(
    'SELECT kind, recipient, status, attempts, last_error, next_attempt_at FROM mail_outbox WHERE order_id = ? ORDER BY id',
    [orderId],
  );
  return rows.map((row) => ({
    ...row,
    attempts: Number(row.attempts),
    next_attempt_at: Number(row.next_attempt_at),
  }));
}

describe('order mail outbox', { timeout: 60_000 }, () => {
  it('queues "order received" for the customer and "new order" for the owner when an order is placed', async () => {
    const transport = new RecordingTransport();
    const { shop } = await openShop(transport, { server: { mail: { owner: 'owner@shop.example' } } });
    const { status, orderId } = await placeOrder(shop);
    expect(status).toBe(303);
    expect((await outboxOf(shop, orderId)).map((row) => [row.kind, row.recipient, row.status])).toEqual([
      ['order_received', 'ada@example.com', 'queued'],
      ['new_order', 'owner@shop.example', 'queued'],
    ]);
    expect(transport.tries).toBe(0);
    expect(await shop.app.mail.flush()).toBe(2);
    expect(transport.sent.map((mail) => [mail.to, mail.subject])).toEqual([
      ['ada@example.com', `Your Storefront order #${orderId} has been received`],
      ['owner@shop.example', `[Storefront] New order #${orderId}`],
    ]);
    expect(await shop.app.mail.flush()).toBe(0);
  });

  it('sends no "new order" mail while no owner address is known', async () => {
    const { shop } = await openShop(new RecordingTransport());
    const { orderId } = await placeOrder(shop);
    expect((await outboxOf(shop, orderId)).map((row) => row.kind)).toEqual(['order_received']);
  });

  it('retries a failed send after 1 and then 5 minutes, and sends it once when the server is back', async () => {
    const transport = new RecordingTransport({ failuresLeft: 2 });
    const { shop, clock } = await openShop(transport);
    const { orderId } = await placeOrder(shop);

    expect(await shop.app.mail.flush()).toBe(0);
    let [row] = await outboxOf(shop, orderId);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: 'connection refused' });
    expect(row?.next_attempt_at).toBe(clock.now + (RETRY_DELAYS_MS[0] as number));

    clock.now += MINUTE - 1;
    expect(await shop.app.mail.flush()).toBe(0);
    expect(transport.tries).toBe(1);

    clock.now += 1;
    expect(await shop.app.mail.flush()).toBe(0);
    [row] = await outboxOf(shop, orderId);
    expect(row).toMatchObject({ status: 'queued', attempts: 2 });
    expect(row?.next_attempt_at).toBe(clock.now + 5 * MINUTE);

    clock.now += 5 * MINUTE;
    expect(await shop.app.mail.flush()).toBe(1);
    expect(await shop.app.mail.flush()).toBe(0);
    [row] = await outboxOf(shop, orderId);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, last_error: null });
    expect(transport.sent).toHaveLength(1);
    expect(transport.tries).toBe(3);

    const [record] = await shop.app.mail.sentMailsForOrder(orderId);
    expect(record).toMatchObject({
      kind: 'order_received',
      recipient: 'ada@example.com',
      status: 'sent',
      sentAt: clock.now,
    });
    expect((await shop.app.mail.notesForOrder(orderId)).map((note) => note.text)).toEqual([
      'Order received email sent to ada@example.com on Jan 1, 2030, 10:06 AM UTC.',
    ]);
  });

  it('gives up after the last attempt, and the order notes say so', async () => {
    const transport = new RecordingTransport({ failuresLeft: Number.POSITIVE_INFINITY });
    const { shop, clock } = await openShop(transport);
    const { orderId } = await placeOrder(shop);
    for (let attempt = 0; attempt < MAX_ATTEMPTS + 2; attempt++) {
      await shop.app.mail.flush();
      clock.now += 24 * 60 * MINUTE;
    }
    expect(transport.tries).toBe(MAX_ATTEMPTS);
    const [row] = await outboxOf(shop, orderId);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, last_error: 'connection refused' });
    expect((await shop.app.mail.notesForOrder(orderId)).map((note) => note.text)).toEqual([
      `Order received email to ada@example.com could not be sent after ${MAX_ATTEMPTS} attempts: connection refused.`,
    ]);
  });

  it('places the order (303) while the mail server throws on every send, and keeps the message', async () => {
    const transport = new RecordingTransport({ failuresLeft: Number.POSITIVE_INFINITY });
    shop = await createTestApp({ mail: { transport } });
    await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [
      MUG,
    ]);
    const { status, orderId } = await placeOrder(shop);
    expect(status).toBe(303);
    const page = await shop.app.inject({ method: 'GET', url: `/checkout/order-received/${orderId}/` });
    expect(page.statusCode).toBe(404);
    await shop.app.mail.flush();
    expect(transport.tries).toBeGreaterThanOrEqual(1);
    const [row] = await outboxOf(shop, orderId);
    expect(row).toMatchObject({ kind: 'order_received', status: 'queued', last_error: 'connection refused' });
    expect(row?.attempts).toBeGreaterThanOrEqual(1);
  });

  it('answers the checkout while the mail server hangs', async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hanging: MailTransport = { description: 'hanging', send: () => released, close() {} };
    shop = await createTestApp({ mail: { transport: hanging } });
    await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [
      MUG,
    ]);
    const { status, orderId } = await placeOrder(shop);
    expect(status).toBe(303);
    // The shop's own loop has the message in hand (claimed, one attempt) and is waiting on the server.
    await expect.poll(async () => (await outboxOf(shop as TestApp, orderId))[0]?.attempts).toBe(1);
    expect((await outboxOf(shop, orderId))[0]?.status).toBe('queued');
    release();
    await shop.app.mail.flush();
    expect((await outboxOf(shop, orderId))[0]?.status).toBe('sent');
  });

  it('names where mail goes without the SMTP credentials', async () => {
    shop = await createTestApp({
      settings: { server: { mail: { smtp: 'smtp://shop:s3cr%40t@mail.example:587' } } },
    });
    expect(shop.app.mail.destination).toBe('smtp://mail.example:587');
    await shop.close();
    shop = await createTestApp();
    expect(shop.app.mail.destination).toBe(`.eml files in ${shop.dataDir}/mail`);
  });

  it('keeps the SMTP password out of the error it stores', async () => {
    const transport = new RecordingTransport({
      failuresLeft: 1,
      failureMessage: 'Invalid login for smtp://shop:s3cr%40t@mail.example:587 (s3cr@t)',
    });
    const { shop } = await openShop(transport, {
      server: { mail: { smtp: 'smtp://shop:s3cr%40t@mail.example:587' } },
    });
    const { orderId } = await placeOrder(shop);
    await shop.app.mail.flush();
    const [row] = await outboxOf(shop, orderId);
    expect(row?.last_error).toBe('Invalid login for smtp://shop:***@mail.example:587 (***)');
  });

  it('queues a mail of a kind once per order, however often the event is handled', async () => {
    const transport = new RecordingTransport();
    const { shop } = await openShop(transport);
    const { orderId } = await placeOrder(shop);
    const queued = await Promise.all([
      shop.app.mail.queueOrderMail('order_completed', orderId),
      shop.app.mail.queueOrderMail('order_completed', orderId),
      shop.app.mail.queueOrderMail('order_completed', orderId),
    ]);
    expect(queued.filter(Boolean)).toHaveLength(1);
    expect(await shop.app.mail.queueOrderMail('order_completed', 999_999)).toBe(false);
    await shop.app.mail.flush();
    expect(transport.sent.map((mail) => mail.subject)).toEqual([
      `Your Storefront order #${orderId} has been received`,
      `Your Storefront order #${orderId} is complete`,
    ]);
  });
});
