import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_FORM } from '../../../test-support/billingForm';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { ATTRIBUTION_FIELDS } from '../../shared/attribution/attributionFields';
import { attributionReport } from '../reports/attributionReport';

/*
 * Checkout with attribution inputs through HTTP: the order stores them bounded and validated, bad input
 * never blocks the order, and the report counts what was stored.
 */

const PREFIX = 'wc_order_attribution_';
const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => {
  await shop.close();
});

/** Puts a mug in a new visitor's cart and submits the checkout with the given extra fields. */
async function placeOrder(fields: Record<string, string>, userAgent = DESKTOP): Promise<number> {
  const headers = { host: 'shop.test', 'user-agent': userAgent };
  const added = await shop.app.inject({
    method: 'POST',
    url: '/?wc-ajax=add_to_cart',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'product_id=1021&quantity=1',
  });
  const cookie = added.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
  const page = await shop.app.inject({ method: 'GET', url: '/checkout/', headers: { ...headers, cookie } });
  const hidden = (name: string) =>
    new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(page.body)?.[1] ?? '';
  for (const field of ATTRIBUTION_FIELDS) expect(page.body).toContain(`name="${PREFIX}${field}"`);
  const response = await shop.app.inject({
    method: 'POST',
    url: '/checkout/',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      ...BILLING_FORM,
      _wpnonce: hidden('_wpnonce'),
      cart_hash: hidden('cart_hash'),
      ...fields,
    }).toString(),
  });
  expect(response.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(response.headers.location))?.[1]);
}

const prefixed = (fields: Record<string, string>) =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [`${PREFIX}${name}`, value]));

describe('orders with attribution', () => {
  it('stores the checkout fields with the order, and the device from the user agent', async () => {
    const orderId = await placeOrder(
      prefixed({
        source_type: 'utm',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'spring',
        referrer: '(none)',
        session_entry: 'https://shop.test/?utm_source=newsletter',
        session_start_time: '2026-11-22 01:00:00',
        session_pages: '3',
        session_count: '2',
        user_agent: PHONE,
        device_type: 'Desktop',
        promo_code: '123456',
      }),
      PHONE,
    );
    expect(await shop.repositories.attribution.getOrderAttribution(orderId)).toMatchObject({
      sourceType: 'utm',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring',
      sessionPages: 3,
      sessionCount: 2,
      userAgent: PHONE,
      deviceType: 'Mobile',
      promoCode: '123456',
      utmTerm: null,
    });
  });

  it('places the order with oversized, malformed and unknown fields, truncated or ignored', async () => {
    const orderId = await placeOrder({
      ...prefixed({
        source_type: 'evil<script>',
        utm_source: 'x'.repeat(10_000),
        referrer: `https://example.org/${'a'.repeat(5000)}`,
        session_pages: 'many',
        session_count: '99999999999999999999',
        promo_code: '%E0%A4%A',
      }),
      [`${PREFIX}favourite_colour`]: 'blue',
    });
    const stored = await shop.repositories.attribution.getOrderAttribution(orderId);
    expect(stored?.sourceType).toBe('unknown');
    expect(stored?.utmSource).toHaveLength(200);
    expect(stored?.referrer).toHaveLength(2048);
    expect(stored?.sessionPages).toBeNull();
    expect(stored?.sessionCount).toBeNull();
    expect(stored?.deviceType).toBe('Desktop');
    expect(Object.keys(stored ?? {})).not.toContain('favouriteColour');
  });

  it('places an order without attribution when the browser sent none', async () => {
    const orderId = await placeOrder({});
    expect(await shop.repositories.orders.getOrder(orderId)).not.toBeNull();
    expect(await shop.repositories.attribution.getOrderAttribution(orderId)).toBeNull();
  });

  it('reports orders and revenue by source type, source, medium and campaign', async () => {
    const organic = [
      await placeOrder(prefixed({ source_type: 'organic', utm_source: 'google', utm_medium: 'organic' })),
      await placeOrder(prefixed({ source_type: 'organic', utm_source: 'google', utm_medium: 'organic' })),
    ];
    const today = new Date().toISOString().slice(0, 10);
    let json = '';
    await attributionReport(['--from', today, '--to', today, '--json'], {
      repositories: shop.repositories,
      write: (text) => {
        json += text;
      },
    });
    const report = JSON.parse(json) as {
      rows: { sourceType: string; source: string; orders: number; revenue: number }[];
    };
    let revenue = 0;
    for (const id of organic) revenue += (await shop.repositories.orders.getOrder(id))?.total ?? 0;
    expect(revenue).toBeGreaterThan(0);
    expect(report.rows.find((row) => row.sourceType === 'organic')).toMatchObject({
      source: 'google',
      orders: 2,
      revenue,
    });
    // Every order of the range is counted once: the one without attribution as unknown.
    const orders = (await shop.query<{ n: number }>('SELECT COUNT(*) AS n FROM orders'))[0]?.n ?? -1;
    expect(report.rows.reduce((sum, row) => sum + row.orders, 0)).toBe(orders);

    let text = '';
    await attributionReport(['--from', today, '--to', today], {
      repositories: shop.repositories,
      write: (chunk) => {
        text += chunk;
      },
    });
    expect(text).toMatch(/organic\s+google\s+organic\s+\(none\)\s+2\s+/);
    expect(text).toContain(`${orders} orders`);
  });

  it('rejects a reversed or malformed date range', async () => {
    const context = { repositories: shop.repositories, write: () => {} };
    await expect(attributionReport(['--from', '2026-02-01', '--to', '2026-01-01'], context)).rejects.toThrow(
      /after/,
    );
    await expect(attributionReport(['--from', 'yesterday'], context)).rejects.toThrow(/Not a date/);
  });
});
