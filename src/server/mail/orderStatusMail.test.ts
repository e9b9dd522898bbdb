import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { nonceOf, ownerShopper } from '../../../test-support/ownerBrowser';
import { RecordingTransport } from '../../../test-support/recordingTransport';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';

/*
 * The back office and order mail together: the owner's status changes mail the customer (once per kind), the
 * owner's stored address gets "new order", and the order's page lists what was sent among its notes.
 */

const MUG = 1021;
const transport = new RecordingTransport();
let shop: TestApp;

beforeAll(async () => {
  shop = await createTestApp({ mail: { transport, autoSend: false } });
  await shop.repositories.ownerAuth.setOwnerAccount(
    TEST_OWNER_PASSWORD_HASH,
    'owner@example.com',
    Date.now(),
  );
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => shop?.close());

async function placeOrder(): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(shop.app, MUG, 1);
  const placed = await shopper.send(shop.app, 'POST', '/checkout/', {
    ...form,
    billing_email: 'grace@example.com',
  });
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

describe('order mail from the back office', () => {
  it('mails the customer on completed, cancelled and refunded, once per kind, and lists it in the notes', async () => {
    const order = await placeOrder();
    const { owner } = await ownerShopper(shop.app);
    const change = async (status: string) => {
      const page = await owner.send(shop.app, 'GET', `/admin/orders/${order}/`);
      const response = await owner.send(shop.app, 'POST', `/admin/orders/${order}/status`, {
        status,
        _wpnonce: nonceOf(page.body, `/admin/orders/${order}/status`),
      });
      expect(response.statusCode).toBe(303);
    };
    for (const status of ['completed', 'processing', 'completed', 'on-hold', 'cancelled', 'refunded']) {
      await change(status);
    }
    await shop.app.mail.flush();

    const sent = transport.sent.map((mail) => ({ to: mail.to, subject: mail.subject }));
    const toCustomer = sent.filter((mail) => mail.to === 'grace@example.com').map((mail) => mail.subject);
    expect(toCustomer).toHaveLength(4);
    expect(toCustomer.filter((subject) => /complete/i.test(subject))).toHaveLength(1);
    expect(toCustomer.filter((subject) => /cancel/i.test(subject))).toHaveLength(1);
    expect(toCustomer.filter((subject) => /refund/i.test(subject))).toHaveLength(1);
    expect(sent.filter((mail) => mail.to === 'owner@example.com')).toHaveLength(1);

    const page = await owner.send(shop.app, 'GET', `/admin/orders/${order}/`);
    for (const kind of [
      'Order received',
      'New order',
      'Order completed',
      'Order cancelled',
      'Order refunded',
    ]) {
      const to = kind === 'New order' ? 'owner@example.com' : 'grace@example.com';
      expect(page.body).toContain(`${kind} email sent to ${to} on`);
    }
    expect(page.body.indexOf('Order completed email sent')).toBeLessThan(
      page.body.indexOf('Order refunded email sent'),
    );
  });
});
