import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { ownerShopper } from '../../../test-support/ownerBrowser';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';

/*
 * The back office's order page shows what the checkout stored: the totals with shipping and tax, the shipping
 * address beside the billing one, and the payment method; an order from before shipping shows neither. Prices by
 * hand: the mug is $18.00; New York's rate is 8.875 % and taxes shipping. Two mugs shipped to New York by flat rate:
 * items 36.00, tax 36.00 × 8.875 % = 3.195 → 3.20; shipping 5.00, tax 0.44375 → 0.44; tax 3.64; total 44.64.
 */

const MUG = 1021;
let shop: TestApp;

beforeAll(async () => {
  shop = await createTestApp({
    settings: {
      checkout: {
        taxRates: [
          { country: 'US', state: 'IL', rate: 6.25, label: 'IL tax' },
          { country: 'US', state: 'NY', rate: 8.875, label: 'NY tax' },
        ],
      },
    },
  });
  await shop.repositories.ownerAuth.setOwnerAccount(
    TEST_OWNER_PASSWORD_HASH,
    'owner@example.com',
    Date.now(),
  );
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop?.close();
});

/** The text of the page's totals table, row by row ("Subtotal: $36.00"). */
function totalsOf(body: string): string[] {
  const table = /<table class="admin-totals"[^>]*>([\s\S]*?)<\/table>/.exec(body)?.[1] ?? '';
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    (row[1] as string)
      .replace(/<\/th>/, ': ')
      .replace(/<[^>]+>/g, '')
      .replaceAll('&amp;', '&'),
  );
}

function sectionText(body: string, id: string): string {
  const section = new RegExp(`<h2 id="${id}">[\\s\\S]*?</section>`).exec(body)?.[0] ?? '';
  return section
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('the order page', { timeout: 60_000 }, () => {
  it('shows subtotal, shipping, tax and total, both addresses and the payment method of a shipped order', async () => {
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.app, MUG, 2);
    const placed = await shopper.send(shop.app, 'POST', '/checkout/', {
      ...form,
      ship_to_different_address: '1',
      shipping_first_name: 'Charles',
      shipping_last_name: 'Babbage',
      shipping_country: 'US',
      shipping_address_1: '350 Fifth Ave',
      shipping_city: 'New York',
      shipping_state: 'NY',
      shipping_postcode: '10118',
      shipping_method: 'flat_rate:1',
      shown_total: '4464',
      payment_method: 'bacs',
    });
    expect(placed.statusCode).toBe(303);
    const order = Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);

    const { owner } = await ownerShopper(shop.app);
    const page = await owner.send(shop.app, 'GET', `/admin/orders/${order}/`);
    expect(page.statusCode).toBe(200);
    expect(totalsOf(page.body)).toEqual([
      'Subtotal: $36.00',
      'Shipping: Flat rate ($5.00)',
      'NY tax: $3.64',
      'Payment method: Direct bank transfer',
      'Total: $44.64',
    ]);
    expect(sectionText(page.body, 'order-billing')).toContain(
      'Billing address Ada Lovelace 12 Analytical Row Springfield, IL 62701 United States (US)',
    );
    expect(sectionText(page.body, 'order-shipping')).toBe(
      'Shipping address Charles Babbage 350 Fifth Ave New York, NY 10118 United States (US)',
    );
    expect(page.body).toContain('Payment via Direct bank transfer');
  });

  it('shows "Free" for a method that costs nothing, and an order from before shipping without shipping', async () => {
    const shopper = new Shopper();
    const form = await shopper.readyForm(shop.app, MUG, 1);
    // Pickup in Springfield: 18.00 × 6.25 % = 1.125 → 1.13; total 19.13.
    const placed = await shopper.send(shop.app, 'POST', '/checkout/', {
      ...form,
      shipping_method: 'local_pickup:3',
      shown_total: '1913',
    });
    expect(placed.statusCode).toBe(303);
    const pickup = Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
    await shop.query(
      `INSERT INTO orders (order_key, status, currency, subtotal, total, payment_method, billing, created_at)
       VALUES ('wc_order_beforeshipping', 'completed', 'USD', 1800, 1800, 'cheque', ?, '2020-01-01T00:00:00.000Z')`,
      // The billing as the checkout stored it then: no state.
      [
        JSON.stringify({
          firstName: 'Old',
          lastName: 'Order',
          company: '',
          address1: '1 High St',
          address2: '',
          city: 'London',
          postcode: 'SW1A 1AA',
          country: 'GB',
          email: 'old@example.com',
          phone: '',
        }),
      ],
    );
    const [old] = await shop.query<{ id: number }>(
      "SELECT id FROM orders WHERE order_key = 'wc_order_beforeshipping'",
    );

    const { owner } = await ownerShopper(shop.app);
    const pickupPage = await owner.send(shop.app, 'GET', `/admin/orders/${pickup}/`);
    expect(totalsOf(pickupPage.body)).toEqual([
      'Subtotal: $18.00',
      'Shipping: Local pickup (Free)',
      'IL tax: $1.13',
      'Payment method: Cash on delivery',
      'Total: $19.13',
    ]);
    expect(sectionText(pickupPage.body, 'order-shipping')).toBe(
      'Shipping address Ada Lovelace 12 Analytical Row Springfield, IL 62701 United States (US)',
    );

    const oldPage = await owner.send(shop.app, 'GET', `/admin/orders/${Number(old?.id)}/`);
    expect(oldPage.statusCode).toBe(200);
    expect(totalsOf(oldPage.body)).toEqual([
      'Subtotal: $18.00',
      'Payment method: Check payments',
      'Total: $18.00',
    ]);
    expect(sectionText(oldPage.body, 'order-billing')).toContain(
      '1 High St SW1A 1AA London United Kingdom (UK)',
    );
    expect(sectionText(oldPage.body, 'order-shipping')).toBe(
      'Shipping address None: the order was placed before the shop shipped.',
    );
  });
});
