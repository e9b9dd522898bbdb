import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD, TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';
import { createApiKeyService, type IssuedApiKey } from './apiKeys/apiKeyService';

/*
 * The WooCommerce REST API over app.inject, on whichever engine the run uses: who may call (keys, permissions,
 * revoked keys, plain HTTP, throttled guesses), WooCommerce's errors, and each route on the back office's rules.
 * The official client against the listening shop is in wcRestClient.server.test.ts.
 */

const MUG = 1021;
const LINEN_SHIRT = 1001;
const SAGE_S = 1002;
let shop: TestApp;
let readWrite: IssuedApiKey;
let readOnly: IssuedApiKey;
let writeOnly: IssuedApiKey;

beforeAll(async () => {
  shop = await createTestApp();
  await shop.repositories.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
  const keys = createApiKeyService(shop.repositories.apiKeys);
  readWrite = await keys.create({ description: 'Everything', permissions: 'read_write' });
  readOnly = await keys.create({ description: 'Accounting', permissions: 'read' });
  writeOnly = await keys.create({ description: 'Stock sync', permissions: 'write' });
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop.close();
});

const basic = (key: IssuedApiKey, secret = key.consumerSecret) => ({
  authorization: `Basic ${Buffer.from(`${key.consumerKey}:${secret}`).toString('base64')}`,
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function api(
  method: Method,
  url: string,
  options: {
    key?: IssuedApiKey | null;
    body?: unknown;
    headers?: Record<string, string>;
    from?: string;
  } = {},
) {
  const key = options.key === undefined ? readWrite : options.key;
  const response = await shop.app.inject({
    method,
    url: `/wp-json/wc/v3${url}`,
    headers: { ...(key ? basic(key) : {}), ...options.headers },
    ...(options.from ? { remoteAddress: options.from } : {}),
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
  // biome-ignore lint/suspicious/noExplicitAny: WooCommerce's JSON, read field by field in the assertions.
  const json: any = response.json();
  return { status: response.statusCode, headers: response.headers, json };
}

async function placeOrder(quantity = 2): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(shop.app, MUG, quantity);
  const placed = await shopper.send(shop.app, 'POST', '/checkout/', form);
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

async function stockOf(id: number): Promise<number | null> {
  const [row] = await shop.query<{ stock: number | null }>(
    'SELECT stock_quantity AS stock FROM products WHERE id = ?',
    [id],
  );
  return row?.stock === null || row?.stock === undefined ? null : Number(row.stock);
}

describe('who may call', () => {
  it('refuses a request without a key with WooCommerce’s error', async () => {
    const list = await api('GET', '/orders', { key: null });
    expect(list.status).toBe(401);
    expect(list.json).toEqual({
      code: 'woocommerce_rest_cannot_view',
      message: 'Sorry, you cannot list resources.',
      data: { status: 401 },
    });
    const one = await api('GET', `/orders/1`, { key: null });
    expect(one.json.message).toBe('Sorry, you cannot view this resource.');
    const edit = await api('PUT', `/products/${MUG}`, { key: null, body: { stock_quantity: 1 } });
    expect(edit.status).toBe(401);
    expect(edit.json.code).toBe('woocommerce_rest_cannot_edit');
    expect(await stockOf(MUG)).toBe(50);
  });

  it('lets a read key read but not write, and a write key write but not read', async () => {
    expect((await api('GET', '/orders', { key: readOnly })).status).toBe(200);
    const write = await api('PUT', `/products/${MUG}`, { key: readOnly, body: { stock_quantity: 7 } });
    expect(write.status).toBe(401);
    expect(write.json).toMatchObject({
      code: 'woocommerce_rest_authentication_error',
      message: 'The API key provided does not have write permissions.',
    });
    expect(await stockOf(MUG)).toBe(50);
    const read = await api('GET', `/products/${MUG}`, { key: writeOnly });
    expect(read.status).toBe(401);
    expect(read.json.message).toBe('The API key provided does not have read permissions.');
  });

  it('takes the key in the query string too, and never echoes it into the Link header', async () => {
    const query = `consumer_key=${readOnly.consumerKey}&consumer_secret=${readOnly.consumerSecret}`;
    const response = await api('GET', `/products?per_page=2&${query}`, { key: null });
    expect(response.status).toBe(200);
    expect(response.headers.link).toContain('page=2');
    expect(String(response.headers.link)).not.toContain('consumer');
  });

  it('refuses a revoked key', async () => {
    const keys = createApiKeyService(shop.repositories.apiKeys);
    const doomed = await keys.create({ description: 'Old tool', permissions: 'read_write' });
    expect((await api('GET', '/orders', { key: doomed })).status).toBe(200);
    await keys.revoke(doomed.key.id);
    const refused = await api('GET', '/orders', { key: doomed });
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('woocommerce_rest_authentication_error');
  });

  it('records when a key was last used', async () => {
    const keys = createApiKeyService(shop.repositories.apiKeys);
    const fresh = await keys.create({ description: 'Fresh', permissions: 'read' });
    expect((await keys.list()).find((key) => key.id === fresh.key.id)?.lastAccess).toBeNull();
    await api('GET', '/orders', { key: fresh });
    expect((await keys.list()).find((key) => key.id === fresh.key.id)?.lastAccess).toEqual(
      expect.any(Number),
    );
  });

  it('throttles wrong secrets per client through the owner login limiter, then refuses even the right one', async () => {
    const from = '127.0.0.77';
    const wrong = `cs_${'0'.repeat(40)}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8 && !statuses.includes(429); attempt++)
      statuses.push(
        (await api('GET', '/orders', { headers: basic(readWrite, wrong), key: null, from })).status,
      );
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    const locked = await api('GET', '/orders', { from });
    expect(locked.status).toBe(429);
    expect(locked.json.code).toBe('rate_limited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is not locked by this one.
    expect((await api('GET', '/orders', { from: '127.0.0.78' })).status).toBe(200);
    // Nor is the owner's login from the locked address: a stale integration never keeps the owner out.
    const owner = await shop.app.inject({
      url: '/wp-json/stats/v1/report',
      headers: { authorization: `Basic ${Buffer.from(`owner:${TEST_OWNER_PASSWORD}`).toString('base64')}` },
      remoteAddress: from,
    });
    expect(owner.statusCode).toBe(200);
  });

  it('takes keys over plain HTTP only from this machine, never through a proxy it does not trust', async () => {
    const remote = await api('GET', '/orders', { from: '203.0.113.9' });
    expect(remote.status).toBe(401);
    expect(remote.json.message).toContain('HTTPS');
    const proxied = await api('GET', '/orders', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.status).toBe(401);
    expect(proxied.json.code).toBe('woocommerce_rest_authentication_error');
    const forgedProto = await api('GET', '/orders', {
      from: '203.0.113.9',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forgedProto.status).toBe(401);
  });

  it('takes keys from a trusted proxy that says the request came over HTTPS', async () => {
    const proxied = await createTestApp({ seed: false, settings: { server: { trustProxy: true } } });
    try {
      const key = await createApiKeyService(proxied.repositories.apiKeys).create({
        description: 'Proxied',
        permissions: 'read',
      });
      const send = (proto: string) =>
        proxied.app.inject({
          url: '/wp-json/wc/v3/orders',
          headers: { ...basic(key), 'x-forwarded-proto': proto, 'x-forwarded-for': '203.0.113.9' },
        });
      expect((await send('https')).statusCode).toBe(200);
      expect((await send('http')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });
});

describe('indexes', () => {
  it('lists wc/v3 at /wp-json/ and its routes at /wp-json/wc/v3, without a key', async () => {
    const root = await shop.app.inject({ url: '/wp-json/' });
    expect(root.json().namespaces).toContain('wc/v3');
    const index = await shop.app.inject({ url: '/wp-json/wc/v3' });
    expect(index.statusCode).toBe(200);
    const routes = index.json().routes as Record<string, { methods: string[] }>;
    expect(routes['/wc/v3/orders']?.methods).toEqual(['GET']);
    expect(routes['/wc/v3/products/(?P<id>[^/]+)']?.methods).toEqual([
      'GET',
      'PUT',
      'PATCH',
      'POST',
      'DELETE',
    ]);
  });
});

describe('orders', () => {
  it('lists, filters by status and dates, pages with WooCommerce’s headers', async () => {
    const first = await placeOrder();
    const second = await placeOrder();
    const third = await placeOrder();
    const page1 = await api('GET', '/orders?per_page=2');
    expect(page1.status).toBe(200);
    expect(Number(page1.headers['x-wp-total'])).toBeGreaterThanOrEqual(3);
    expect(page1.headers['x-wp-totalpages']).toBe(String(Math.ceil(Number(page1.headers['x-wp-total']) / 2)));
    expect(page1.headers.link).toMatch(
      /<http:\/\/[^>]+\/wp-json\/wc\/v3\/orders\?per_page=2&page=2>; rel="next"/,
    );
    expect(page1.json.map((order: { id: number }) => order.id)).toEqual([third, second]);
    const page2 = await api('GET', '/orders?per_page=2&page=2');
    expect(page2.json[0].id).toBe(first);
    expect(page2.headers.link).toContain('rel="prev"');

    const order = page1.json[0];
    expect(order).toMatchObject({
      id: third,
      number: String(third),
      status: 'processing',
      currency: 'USD',
      billing: { email: expect.stringContaining('@') },
      line_items: [expect.objectContaining({ product_id: MUG, quantity: 2 })],
    });
    expect(order.total).toMatch(/^\d+\.\d\d$/);

    const several = await api('GET', '/orders?status=processing,completed&per_page=100');
    expect(several.json.length).toBeGreaterThanOrEqual(3);
    for (const each of several.json) expect(['processing', 'completed']).toContain(each.status);
    expect((await api('GET', '/orders?status=on-hold,pending')).json).toEqual([]);
    expect((await api('GET', '/orders?status=processing,shipped')).status).toBe(400);

    const future = await api('GET', '/orders?after=2999-01-01T00:00:00');
    expect(future.json).toEqual([]);
    const past = await api('GET', '/orders?before=2000-01-01T00:00:00');
    expect(past.headers['x-wp-total']).toBe('0');
    const bad = await api('GET', '/orders?after=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('rest_invalid_param');
    expect((await api('GET', '/orders?per_page=1000')).status).toBe(400);
  });

  it('changes the status as the back office does: stock back once, a note, and 404 for an unknown order', async () => {
    const id = await placeOrder(3);
    const before = await stockOf(MUG);
    const cancelled = await api('PUT', `/orders/${id}`, { body: { status: 'cancelled' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.status).toBe('cancelled');
    expect(await stockOf(MUG)).toBe((before ?? 0) + 3);
    // The same change again gives nothing back a second time.
    await api('PUT', `/orders/${id}`, { body: { status: 'cancelled' } });
    expect(await stockOf(MUG)).toBe((before ?? 0) + 3);
    const notes = await api('GET', `/orders/${id}/notes`);
    expect(notes.json).toContainEqual(
      expect.objectContaining({
        note: 'Status changed from Processing to Cancelled.',
        author: 'system',
        customer_note: false,
      }),
    );
    // The same listener as the back office's: the customer's "order cancelled" mail is on its way.
    expect(notes.json).toContainEqual(
      expect.objectContaining({ note: expect.stringContaining('Order cancelled email') }),
    );

    const missing = await api('GET', '/orders/999999');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      code: 'woocommerce_rest_shop_order_invalid_id',
      message: 'Invalid ID.',
      data: { status: 404 },
    });
    const badStatus = await api('PUT', `/orders/${id}`, { body: { status: 'shipped' } });
    expect(badStatus.status).toBe(400);
    expect(badStatus.json.code).toBe('rest_invalid_param');
  });

  it('changes the customer’s note, and the history says so', async () => {
    const id = await placeOrder();
    const changed = await api('PUT', `/orders/${id}`, { body: { customer_note: 'Ring the bell twice' } });
    expect(changed.status).toBe(200);
    expect(changed.json.customer_note).toBe('Ring the bell twice');
    expect((await api('GET', `/orders/${id}`)).json.customer_note).toBe('Ring the bell twice');
    const notes = await api('GET', `/orders/${id}/notes`);
    // Among the others: the order's mail notes may be newer, as the outbox sends when it can.
    expect(notes.json).toContainEqual(
      expect.objectContaining({ author: 'system', note: 'Customer note changed to: Ring the bell twice' }),
    );
    expect((await api('PUT', '/orders/999999', { body: { customer_note: 'x' } })).status).toBe(404);
  });

  it('adds and reads notes', async () => {
    const id = await placeOrder();
    const added = await api('POST', `/orders/${id}/notes`, { body: { note: 'Label printed: 1Z999' } });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ note: 'Label printed: 1Z999', author: 'owner' });
    const one = await api('GET', `/orders/${id}/notes/${added.json.id}`);
    expect(one.json.note).toBe('Label printed: 1Z999');
    const empty = await api('POST', `/orders/${id}/notes`, { body: { note: '  ' } });
    expect(empty.status).toBe(400);
    expect((await api('GET', `/orders/${id}/notes/424242`)).json.code).toBe('woocommerce_rest_invalid_id');
    expect((await api('POST', '/orders/999999/notes', { body: { note: 'x' } })).json.code).toBe(
      'woocommerce_rest_order_invalid_id',
    );
  });
});

describe('products', () => {
  it('lists by status, SKU, search, category, stock status and type', async () => {
    const bySku = await api('GET', '/products?sku=DEMO-LINEN-SHIRT-SAGE-S');
    expect(bySku.json.map((product: { id: number }) => product.id)).toEqual([LINEN_SHIRT]);
    const kitchen = await api('GET', '/products?category=7&per_page=100');
    expect(kitchen.json.map((product: { id: number }) => product.id)).toContain(MUG);
    for (const product of kitchen.json)
      expect(product.categories.map((category: { id: number }) => category.id)).toContain(7);
    const out = await api('GET', '/products?stock_status=outofstock&per_page=100');
    for (const product of out.json) expect(product.stock_status).toBe('outofstock');
    const variable = await api('GET', '/products?type=variable&search=linen');
    expect(variable.json.map((product: { id: number }) => product.id)).toContain(LINEN_SHIRT);
    for (const product of variable.json) expect(product.type).toBe('variable');
    expect((await api('GET', '/products?status=pending')).json).toEqual([]);
    expect((await api('GET', '/products/424242')).json.code).toBe('woocommerce_rest_product_invalid_id');
  });

  it('updates stock, prices, name and status, and shoppers see it on the product page', async () => {
    const updated = await api('PUT', `/products/${MUG}`, {
      body: { stock_quantity: 3, regular_price: '30.00', sale_price: '25.50', name: 'Stoneware Mug, glazed' },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({
      stock_quantity: 3,
      manage_stock: true,
      stock_status: 'instock',
      regular_price: '30.00',
      sale_price: '25.50',
      price: '25.50',
      on_sale: true,
      name: 'Stoneware Mug, glazed',
    });
    const page = await new Shopper().send(shop.app, 'GET', `/product/${updated.json.slug}/`);
    expect(page.body).toContain('Stoneware Mug, glazed');
    expect(page.body).toContain('3 in stock');
    expect(page.body).toContain('$25.50');

    const refused = await api('PUT', `/products/${MUG}`, { body: { sale_price: '99.00' } });
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('rest_invalid_param');
    expect(refused.json.message).toContain('The sale price must be below the regular price.');
    const sku = await api('PUT', `/products/${MUG}`, { body: { sku: 'DEMO-ORGANIC-TSHIRT' } });
    expect(sku.json.code).toBe('product_invalid_sku');

    // A stock quantity sent for a product whose stock was not managed starts managing it, as WooCommerce does.
    const sweatshirt = await api('PUT', '/products/1205', { body: { stock_quantity: 5 } });
    expect(sweatshirt.json).toMatchObject({ manage_stock: true, stock_quantity: 5 });

    const draft = await api('PUT', `/products/${MUG}`, { body: { status: 'draft' } });
    expect(draft.json.status).toBe('draft');
    expect((await new Shopper().send(shop.app, 'GET', `/product/${updated.json.slug}/`)).statusCode).toBe(
      404,
    );
    await api('PUT', `/products/${MUG}`, { body: { status: 'publish', stock_quantity: 50 } });
  });

  it('creates a simple product, trashes it, lists the trash, and deletes it for good', async () => {
    const made = await api('POST', '/products', {
      body: {
        name: 'Beeswax Candle',
        type: 'simple',
        regular_price: '12.00',
        sku: 'API-CANDLE',
        categories: [{ id: 7 }],
        manage_stock: true,
        stock_quantity: 9,
      },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      name: 'Beeswax Candle',
      slug: 'beeswax-candle',
      status: 'publish',
      price: '12.00',
      stock_quantity: 9,
      categories: [{ id: 7, slug: 'kitchen' }],
    });
    expect((await new Shopper().send(shop.app, 'GET', '/product/beeswax-candle/')).statusCode).toBe(200);
    const variable = await api('POST', '/products', { body: { name: 'Kit', type: 'variable' } });
    expect(variable.json.code).toBe('woocommerce_rest_invalid_product_type');

    const trashed = await api('DELETE', `/products/${made.json.id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.json.status).toBe('trash');
    expect((await new Shopper().send(shop.app, 'GET', '/product/beeswax-candle/')).statusCode).toBe(404);
    const trash = await api('GET', '/products?status=trash');
    expect(trash.json.map((product: { id: number }) => product.id)).toEqual([made.json.id]);
    const any = await api('GET', '/products?sku=API-CANDLE');
    expect(any.json).toEqual([]);
    expect((await api('DELETE', `/products/${made.json.id}`)).json.code).toBe(
      'woocommerce_rest_already_trashed',
    );

    const deleted = await api('DELETE', `/products/${made.json.id}?force=true`);
    expect(deleted.status).toBe(200);
    expect(deleted.json.id).toBe(made.json.id);
    expect((await api('GET', `/products/${made.json.id}`)).status).toBe(404);
  });

  it('lists, reads and updates variations', async () => {
    const list = await api('GET', `/products/${LINEN_SHIRT}/variations?per_page=2`);
    expect(list.headers['x-wp-total']).toBe('5');
    expect(list.json).toHaveLength(2);
    const sage = await api('GET', `/products/${LINEN_SHIRT}/variations/${SAGE_S}`);
    expect(sage.json).toMatchObject({ id: SAGE_S, sku: 'DEMO-LINEN-SHIRT-SAGE-S', stock_quantity: 4 });
    expect(sage.json.attributes.map((attribute: { option: string }) => attribute.option)).toEqual([
      'Sage',
      'S',
    ]);
    const updated = await api('PUT', `/products/${LINEN_SHIRT}/variations/${SAGE_S}`, {
      body: { stock_quantity: 11, sale_price: '60.00' },
    });
    expect(updated.json).toMatchObject({ stock_quantity: 11, sale_price: '60.00', on_sale: true });
    expect(await stockOf(SAGE_S)).toBe(11);
    expect((await api('GET', `/products/${MUG}/variations/${SAGE_S}`)).json.code).toBe(
      'woocommerce_rest_product_variation_invalid_id',
    );
  });
});

describe('product categories', () => {
  it('lists with counts and reads one', async () => {
    const list = await api('GET', '/products/categories?per_page=100');
    const kitchen = list.json.find((category: { slug: string }) => category.slug === 'kitchen');
    expect(kitchen).toMatchObject({ id: 7, name: 'Kitchen', parent: expect.any(Number) });
    expect(kitchen.count).toBeGreaterThan(0);
    expect((await api('GET', '/products/categories/7')).json.slug).toBe('kitchen');
    const missing = await api('GET', '/products/categories/424242');
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('woocommerce_rest_term_invalid');
  });
});

describe('reports/sales', () => {
  it('adds up the day’s processing, completed and on-hold orders, computed here from the orders’ rows', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const report = await api('GET', `/reports/sales?date_min=${today}&date_max=${today}`);
    expect(report.status).toBe(200);
    const rows = await shop.query<{
      status: string;
      total: number;
      tax_total: number;
      shipping_total: number;
      items: number;
    }>(
      `SELECT o.status, o.total, o.tax_total, o.shipping_total,
              (SELECT SUM(quantity) FROM order_items i WHERE i.order_id = o.id) AS items FROM orders o`,
    );
    const counted = rows.filter((row) => ['processing', 'completed', 'on-hold'].includes(row.status));
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.length).toBeLessThan(rows.length); // a cancelled order exists and is left out
    const cents = (field: 'total' | 'tax_total' | 'shipping_total' | 'items') =>
      counted.reduce((sum, row) => sum + Number(row[field]), 0);
    const money = (minor: number) => (minor / 100).toFixed(2);
    const [summary] = report.json;
    expect(summary).toMatchObject({
      total_sales: money(cents('total')),
      total_tax: money(cents('tax_total')),
      total_shipping: money(cents('shipping_total')),
      net_sales: money(cents('total') - cents('tax_total') - cents('shipping_total')),
      total_orders: counted.length,
      total_items: cents('items'),
      totals_grouped_by: 'day',
    });
    expect(Object.keys(summary.totals)).toEqual([today]);
    expect(summary.totals[today].orders).toBe(counted.length);
    const week = await api('GET', '/reports/sales?period=week');
    expect(Object.keys(week.json[0].totals)).toHaveLength(7);
  });
});
