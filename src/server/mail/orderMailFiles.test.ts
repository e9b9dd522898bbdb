import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { readEml } from '../../../test-support/readEml';
import { Shopper } from '../../../test-support/shopper';

/*
 * A fresh shop with no mail server and no mail settings: a placed order leaves the customer's message as an
 * `.eml` file in DATA_DIR/mail/, readable by any mail program (and by this test).
 */

const MUG = 1021;
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop.close();
});

describe('order mail as .eml files', { timeout: 60_000 }, () => {
  it("writes the customer's order-received mail into DATA_DIR/mail/ as an RFC 5322 message", async () => {
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.app, MUG, 2);
    const placed = await shopper.send(shop.app, 'POST', '/checkout/', form);
    expect(placed.statusCode).toBe(303);
    const orderId = /order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1];
    expect(orderId).toMatch(/^\d+$/);
    // Sent right after the order by the shop's own loop; flush waits for that pass.
    await shop.app.mail.flush();

    const dir = join(shop.dataDir, 'mail');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{12}\.eml$/);
    const raw = readFileSync(join(dir, files[0] as string), 'utf8');
    const mail = readEml(raw);
    expect(mail.headers.get('to')).toBe('ada@example.com');
    expect(mail.headers.get('from')).toBe('Storefront <shop@localhost>');
    expect(mail.headers.get('subject')).toBe(`Your Storefront order #${orderId} has been received`);
    expect(mail.headers.get('mime-version')).toBe('1.0');
    expect(mail.headers.get('message-id')).toMatch(/^<[^>]+@[^>]+>$/);
    expect(Number.isNaN(Date.parse(mail.headers.get('date') ?? ''))).toBe(false);
    expect(mail.text).toContain(`Order #${orderId}`);
    expect(mail.text).toMatch(/- Café au Lait Mug × 2: \$\d+\.\d{2}/);
    expect(mail.text).toContain('12 Analytical Row');
    expect(mail.html).toContain(`Order #${orderId} (`);
    expect(mail.html).toContain('Billing address');

    const [record] = await shop.app.mail.sentMailsForOrder(Number(orderId));
    expect(record).toMatchObject({ kind: 'order_received', status: 'sent', attempts: 1 });
  });
});
