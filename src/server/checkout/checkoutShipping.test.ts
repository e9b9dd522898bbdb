import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';

/*
 * A checkout that ships, the way a shopper's browser drives it, on whichever engine the test app runs (SQLite, or
 * PostgreSQL under `npm run test:postgres`): a US address with its state and ZIP, the shipping choices and totals
 * with tax from `update_order_review`, then the order with those totals in the database. Prices: the mug is
 * $18.00; California's rate is 7.25 % and taxes shipping.
 */

const MUG = 1021;
const CALIFORNIA: Record<string, string> = {
  billing_first_name: 'Ada',
  billing_last_name: 'Lovelace',
  billing_country: 'US',
  billing_address_1: '1 Market St',
  billing_city: 'San Francisco',
  billing_state: 'CA',
  billing_postcode: '94105',
  billing_phone: '+1 415 555 0100',
  billing_email: 'ada@example.com',
};
const ORDER_RECEIVED = /^\/checkout\/order-received\/(\d+)\/\?key=(wc_order_[A-Za-z0-9_-]+)$/;

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({
    settings: {
      checkout: {
        taxRates: [{ country: 'US', state: 'CA', rate: 7.25, label: 'CA tax' }],
        payment: {
          bacs: {
            accounts: [{ accountName: 'Storefront Ltd', accountNumber: '12345678', sortCode: '01-02-03' }],
          },
        },
      },
    },
  });
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop?.close();
});

interface ReviewAnswer {
  cart_hash: string;
  review: string;
  shipping: { rates: { id: string; title: string; cost: number }[]; chosen: string | null };
  total: number;
}

async function reviewFor(
  shopper: Shopper,
  form: Record<string, string>,
  app = shop.app,
): Promise<ReviewAnswer> {
  const response = await shopper.send(app, 'POST', '/?wc-ajax=update_order_review', form);
  expect(response.statusCode).toBe(200);
  return response.json() as ReviewAnswer;
}

describe('checkout with shipping and tax', { timeout: 60_000 }, () => {
  it('quotes a US address with state and ZIP, and stores the order with the totals the shopper saw', async () => {
    const shopper = new Shopper();
    const form = { ...(await shopper.readyForm(shop.app, MUG, 2)), ...CALIFORNIA };

    // Two mugs, $36.00: under the $50 free-shipping minimum, so flat rate and pickup; pickup is cheapest.
    const quoted = await reviewFor(shopper, form);
    expect(quoted.shipping.rates.map((rate) => [rate.id, rate.cost])).toEqual([
      ['flat_rate:1', 500],
      ['local_pickup:3', 0],
    ]);
    expect(quoted.shipping.chosen).toBe('local_pickup:3');
    // 36.00 × 7.25 % = 2.61; pickup is free, so no shipping tax.
    expect(quoted.total).toBe(3600 + 261);
    expect(quoted.review).toContain('CA tax');
    expect(quoted.review).toContain('$2.61');

    // Flat rate chosen: 5.00 + 7.25 % = 0.3625 → 0.36.
    const withFlatRate = await reviewFor(shopper, { ...form, shipping_method: 'flat_rate:1' });
    expect(withFlatRate.shipping.chosen).toBe('flat_rate:1');
    expect(withFlatRate.total).toBe(3600 + 261 + 500 + 36);
    expect(withFlatRate.review).toContain('Flat rate: $5.00');
    expect(withFlatRate.review).toContain('$43.97');

    const placed = await shopper.send(shop.app, 'POST', '/checkout/', {
      ...form,
      shipping_method: 'flat_rate:1',
      shown_total: String(withFlatRate.total),
      payment_method: 'bacs',
    });
    expect(placed.statusCode).toBe(303);
    const [, id, key] = ORDER_RECEIVED.exec(String(placed.headers.location)) ?? [];
    const [row] = await shop.query<Record<string, unknown>>('SELECT * FROM orders WHERE id = ?', [
      Number(id),
    ]);
    expect(row).toMatchObject({
      status: 'on-hold',
      payment_method: 'bacs',
      shipping_method_id: 'flat_rate:1',
      shipping_method_title: 'Flat rate',
      tax_label: 'CA tax',
    });
    expect(
      [row?.subtotal, row?.shipping_total, row?.shipping_tax, row?.tax_total, row?.total].map(Number),
    ).toEqual([3600, 500, 36, 261 + 36, 4397]);
    expect(JSON.parse(String(row?.shipping_address))).toMatchObject({ state: 'CA', postcode: '94105' });
    const [line] = await shop.query<{ line_tax: number }>(
      'SELECT line_tax FROM order_items WHERE order_id = ?',
      [Number(id)],
    );
    expect(Number(line?.line_tax)).toBe(261);

    const receipt = await shopper.send(shop.app, 'GET', `/checkout/order-received/${id}/?key=${key}`);
    expect(receipt.body).toContain('Our bank details');
    expect(receipt.body).toContain('12345678');
    expect(receipt.body).toContain('$43.97');
    expect(receipt.body).toContain('San Francisco, California, 94105');
  });

  it('offers free shipping once the items reach its minimum, and ships to a different address', async () => {
    const shopper = new Shopper();
    const form = {
      ...(await shopper.readyForm(shop.app, MUG, 3)),
      ...CALIFORNIA,
      ship_to_different_address: '1',
      shipping_first_name: 'Charles',
      shipping_last_name: 'Babbage',
      shipping_country: 'US',
      shipping_address_1: '350 Fifth Ave',
      shipping_city: 'New York',
      shipping_state: 'NY',
      shipping_postcode: '10118',
    };
    // Shipped to New York: no California tax, and 54.00 ≥ 50.00 offers free shipping.
    const quoted = await reviewFor(shopper, form);
    expect(quoted.shipping.rates.map((rate) => rate.id)).toEqual([
      'flat_rate:1',
      'free_shipping:2',
      'local_pickup:3',
    ]);
    expect(quoted.shipping.chosen).toBe('free_shipping:2');
    expect(quoted.total).toBe(5400);
    const placed = await shopper.send(shop.app, 'POST', '/checkout/', {
      ...form,
      shipping_method: 'free_shipping:2',
      shown_total: '5400',
    });
    expect(placed.statusCode).toBe(303);
    const id = Number(ORDER_RECEIVED.exec(String(placed.headers.location))?.[1]);
    const order = await shop.repositories.orders.getOrder(id);
    expect(order).toMatchObject({
      status: 'processing',
      total: 5400,
      taxTotal: 0,
      shipping: { methodId: 'free_shipping:2', title: 'Free shipping', cost: 0, tax: 0 },
      billing: { state: 'CA', city: 'San Francisco' },
      shippingAddress: { state: 'NY', city: 'New York', firstName: 'Charles' },
    });
  });

  it('refuses a UK postcode for a US address with a readable message', async () => {
    const shopper = new Shopper();
    const form = {
      ...(await shopper.readyForm(shop.app, MUG, 1)),
      ...CALIFORNIA,
      billing_postcode: 'SW1A 1AA',
    };
    const response = await shopper.send(shop.app, 'POST', '/checkout/', form);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Please enter a valid postcode / ZIP for United States (US).');
    expect(
      await shop.repositories.orders.findByIdempotencyKey(
        String(shopper.cookies.get('shop_session')),
        (form as Record<string, string>).checkout_key ?? '',
      ),
    ).toBeNull();
  });

  it('never takes the posted totals: a total the address does not cost is the cart-changed page (409)', async () => {
    const shopper = new Shopper();
    // The form was shown for the default address (no state, no tax): $18.00. California adds tax.
    const form = { ...(await shopper.readyForm(shop.app, MUG, 1)), ...CALIFORNIA };
    expect(form.shown_total).toBe('1800');
    const response = await shopper.send(shop.app, 'POST', '/checkout/', form);
    expect(response.statusCode).toBe(409);
    // 18.00 × 7.25 % = 1.305 → 1.31
    expect(response.body).toContain('The total for this address is $19.31');
    // The page shows the new total, and its form carries it: the next submit places the order.
    const hidden = /<input type="hidden" name="shown_total" value="(\d+)"/.exec(response.body)?.[1];
    expect(hidden).toBe('1931');
    const again = await shopper.send(shop.app, 'POST', '/checkout/', {
      ...form,
      shown_total: '1931',
      _wpnonce: /name="_wpnonce" value="([^"]+)"/.exec(response.body)?.[1] ?? '',
      checkout_key: /name="checkout_key" value="([^"]+)"/.exec(response.body)?.[1] ?? '',
    });
    expect(again.statusCode).toBe(303);
  });

  it('re-shows the form with a notice when the chosen method is not offered for the address', async () => {
    const shopper = new Shopper();
    const form = {
      ...(await shopper.readyForm(shop.app, MUG, 1)),
      ...CALIFORNIA,
      shipping_method: 'free_shipping:2',
    };
    const response = await shopper.send(shop.app, 'POST', '/checkout/', form);
    expect(response.statusCode).toBe(409);
    expect(response.body).toContain('The shipping method you chose is not available for this address.');
    expect(
      await shop.query('SELECT id FROM orders WHERE session_id = ?', [shopper.cookies.get('shop_session')]),
    ).toEqual([]);
  });

  it('answers update_order_review for an empty cart with a 400 the checkout reloads on', async () => {
    const response = await new Shopper().send(shop.app, 'POST', '/?wc-ajax=update_order_review', CALIFORNIA);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'empty_cart' });
  });
});

describe('a shop that ships only to some places', { timeout: 60_000 }, () => {
  let narrow: TestApp;
  beforeAll(async () => {
    narrow = await createTestApp({
      settings: {
        checkout: {
          allowedCountries: ['US', 'CA'],
          shippingZones: [{ name: 'US', regions: ['US'], methods: [{ type: 'flat_rate', cost: 700 }] }],
        },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await narrow?.close();
  });

  it('lists only the allowed countries, refuses others, and says when an address has no shipping', async () => {
    const shopper = new Shopper();
    const form = { ...(await shopper.readyForm(narrow.app, MUG, 1)), ...CALIFORNIA };
    const page = await shopper.send(narrow.app, 'GET', '/checkout/');
    expect(page.body).toContain('<option value="CA">Canada</option>');
    expect(page.body).not.toContain('<option value="GB">');

    const uk = await shopper.send(narrow.app, 'POST', '/checkout/', {
      ...form,
      billing_country: 'GB',
      billing_state: '',
      billing_postcode: 'SW1A 1AA',
    });
    expect(uk.statusCode).toBe(400);
    expect(uk.body).toContain('Please choose a country.');

    const canada = { ...form, billing_country: 'CA', billing_state: 'ON', billing_postcode: 'K1A 0B1' };
    const quoted = await reviewFor(shopper, canada, narrow.app);
    expect(quoted.shipping).toEqual({ rates: [], chosen: null });
    expect(quoted.review).toContain('No shipping options for this address');
    const refused = await shopper.send(narrow.app, 'POST', '/checkout/', canada);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('There are no shipping options available for this address.');
  });
});
