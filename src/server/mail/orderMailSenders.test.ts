import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordingTransport } from '../../../test-support/recordingTransport';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';
import { ORDER_MAIL_KINDS } from '../../shared/orders/orderMail';

/*
 * Several server processes send from one outbox (two connections to the SQLite file under `npm test`, two pools
 * on one PostgreSQL database under `npm run test:postgres`): each message goes out once, whichever sender and
 * however their passes overlap.
 */

const MUG = 1021;
const ORDERS = 4;

let shop: ShopProcesses;
// One transport per process; each send takes a while so the two senders' passes overlap.
const transports = [new RecordingTransport({ delayMs: 5 }), new RecordingTransport({ delayMs: 5 })];
beforeAll(async () => {
  shop = await openShopProcesses(2, { server: { mail: { owner: 'owner@shop.example' } } }, (index) => ({
    transport: transports[index],
    autoSend: false,
  }));
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop.close();
});

describe('order mail with two senders on one database', { timeout: 60_000 }, () => {
  it('sends every queued message exactly once', async () => {
    const orderIds: number[] = [];
    for (let n = 0; n < ORDERS; n++) {
      const app = shop.apps[n % 2] as FastifyInstance;
      const shopper = new Shopper();
      const placed = await shopper.send(app, 'POST', '/checkout/', await shopper.readyForm(app, MUG, 1));
      expect(placed.statusCode).toBe(303);
      orderIds.push(Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]));
    }
    // Every other kind too, queued through both processes at once (each kind once per order).
    await Promise.all(
      orderIds.flatMap((orderId) =>
        ORDER_MAIL_KINDS.slice(2).flatMap((kind) =>
          shop.apps.map((app) => app.mail.queueOrderMail(kind, orderId)),
        ),
      ),
    );
    const expected = ORDERS * ORDER_MAIL_KINDS.length;

    const [first, second] = shop.apps as [FastifyInstance, FastifyInstance];
    const passes = await Promise.all([
      first.mail.flush(),
      second.mail.flush(),
      first.mail.flush(),
      second.mail.flush(),
    ]);
    expect(passes.reduce((sum, sent) => sum + sent, 0)).toBe(expected);

    const sent = transports.flatMap((transport) => transport.sent);
    const keys = sent.map((mail) => `${mail.to} ${mail.subject}`);
    expect(keys).toHaveLength(expected);
    expect(new Set(keys).size).toBe(expected);
    // Both senders took part: the rule was tested, not one sender's luck in getting everything.
    expect(transports.every((transport) => transport.sent.length > 0)).toBe(true);

    const rows = await shop.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM mail_outbox',
    );
    expect(rows).toHaveLength(expected);
    expect(rows.every((row) => row.status === 'sent' && Number(row.attempts) === 1)).toBe(true);
  });
});
