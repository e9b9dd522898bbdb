import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, get } from 'node:https';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import WooCommerceRestApi from '@woocommerce/woocommerce-rest-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { type HttpsProxy, startHttpsProxy } from '../../../test-support/httpsProxy';
import { Shopper } from '../../../test-support/shopper';
import { projectPath } from '../projectPath';
import { createApiKeyService, type IssuedApiKey } from './apiKeys/apiKeyService';

/*
 * The official WooCommerce JavaScript client (@woocommerce/woocommerce-rest-api, which no one here wrote) and
 * curl, running the examples of docs/rest-api.md, against the shop listening on a free port behind a TLS proxy
 * (the way a shop is deployed; `server.trustProxy` on), as a shipping or accounting tool would connect.
 */

const MUG = 1021;
let shop: TestApp;
let proxy: HttpsProxy;
let readWrite: IssuedApiKey;
let readOnly: IssuedApiKey;

beforeAll(async () => {
  shop = await createTestApp({ settings: { server: { trustProxy: true } } });
  await shop.app.listen({ port: 0, host: '127.0.0.1' });
  proxy = await startHttpsProxy((shop.app.server.address() as AddressInfo).port);
  const keys = createApiKeyService(shop.repositories.apiKeys);
  readWrite = await keys.create({ description: 'Label printer', permissions: 'read_write' });
  readOnly = await keys.create({ description: 'Accounting', permissions: 'read' });
  await shop.query("UPDATE products SET stock_quantity = 40, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await shop?.close();
});

function client(key: IssuedApiKey, options: { queryStringAuth?: boolean } = {}) {
  return new WooCommerceRestApi({
    url: proxy.origin,
    consumerKey: key.consumerKey,
    consumerSecret: key.consumerSecret,
    version: 'wc/v3',
    queryStringAuth: options.queryStringAuth ?? false,
    axiosConfig: { httpsAgent: new Agent({ ca: proxy.certificate }) },
  });
}

async function placeOrder(quantity = 2): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(shop.app, MUG, quantity);
  const placed = await shopper.send(shop.app, 'POST', '/checkout/', form);
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

/** A GET through the proxy, trusting its certificate: what a shopper's browser (or a keyless client) receives. */
function httpsGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(`${proxy.origin}${path}`, { ca: proxy.certificate }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

async function productPage(slug: string): Promise<string> {
  const page = await httpsGet(`/product/${slug}/`);
  expect(page.status).toBe(200);
  return page.body;
}

/** What a rejected call of the client carried: WooCommerce's error body and status. */
async function failureOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: { code: string; message: string } } })
      .response;
    if (response) return response;
    throw error;
  }
  throw new Error('The call succeeded');
}

describe('the official WooCommerce client', { timeout: 60_000 }, () => {
  it('lists products and follows the pages by their headers', async () => {
    const api = client(readOnly);
    const first = await api.get('products', { per_page: 10 });
    expect(first.status).toBe(200);
    const total = Number(first.headers['x-wp-total']);
    const pages = Number(first.headers['x-wp-totalpages']);
    expect(total).toBeGreaterThan(10);
    expect(pages).toBe(Math.ceil(total / 10));
    expect(first.headers.link).toContain(`${proxy.origin}/wp-json/wc/v3/products?per_page=10&page=2`);
    const seen = new Set<number>(first.data.map((product: { id: number }) => product.id));
    for (let page = 2; page <= pages; page++) {
      const next = await api.get('products', { per_page: 10, page });
      for (const product of next.data) seen.add(product.id);
    }
    expect(seen.size).toBe(total);
    const mug = (await api.get(`products/${MUG}`)).data;
    expect(mug).toMatchObject({ id: MUG, sku: 'DEMO-CAFE-MUG', type: 'simple', stock_quantity: 40 });
    expect(mug.permalink).toBe(`${proxy.origin}/product/${mug.slug}/`);
  });

  it('updates an order’s status, and a cancellation puts the stock back once', async () => {
    const api = client(readWrite);
    const id = await placeOrder(3);
    const placedStock = (await api.get(`products/${MUG}`)).data.stock_quantity;
    const completed = await api.put(`orders/${id}`, { status: 'completed' });
    expect(completed.data).toMatchObject({ id, status: 'completed' });
    expect(
      (await api.get('orders', { status: 'completed' })).data.map((order: { id: number }) => order.id),
    ).toContain(id);
    await api.put(`orders/${id}`, { status: 'cancelled' });
    await api.put(`orders/${id}`, { status: 'cancelled' });
    expect((await api.get(`products/${MUG}`)).data.stock_quantity).toBe(placedStock + 3);
  });

  it('updates a product’s stock, and the shop’s product page shows it', async () => {
    const api = client(readWrite);
    const updated = await api.put(`products/${MUG}`, { stock_quantity: 6 });
    expect(updated.data).toMatchObject({ stock_quantity: 6, manage_stock: true, stock_status: 'instock' });
    const page = await productPage(updated.data.slug);
    expect(page).toContain('6 in stock');
    const soldOut = await api.put(`products/${MUG}`, { stock_quantity: 0 });
    expect(soldOut.data.stock_status).toBe('outofstock');
    expect(await productPage(updated.data.slug)).toContain('Out of stock');
    await api.put(`products/${MUG}`, { stock_quantity: 40 });
  });

  it('is refused with a read key, a wrong secret and no key, in WooCommerce’s words', async () => {
    const refused = await failureOf(client(readOnly).put(`products/${MUG}`, { stock_quantity: 1 }));
    expect(refused.status).toBe(401);
    expect(refused.data.code).toBe('woocommerce_rest_authentication_error');
    const wrong = await failureOf(
      client({ ...readWrite, consumerSecret: `cs_${'1'.repeat(40)}` }).get('orders'),
    );
    expect(wrong.status).toBe(401);
    const anonymous = await httpsGet('/wp-json/wc/v3/orders');
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body)).toMatchObject({
      code: 'woocommerce_rest_cannot_view',
      data: { status: 401 },
    });
    expect((await client(readWrite, { queryStringAuth: true }).get('orders')).status).toBe(200);
  });
});

describe('docs/rest-api.md examples', { timeout: 60_000 }, () => {
  /** Every `curl` line of the doc's "Examples" block, joined where a line ends with a backslash. */
  function docExamples(): string[] {
    const doc = readFileSync(projectPath('docs/rest-api.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Examples'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    return block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter((line) => line.startsWith('curl '));
  }

  it('runs each curl example with curl and gets WooCommerce JSON back', async () => {
    const examples = docExamples();
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const order = await placeOrder(1);
    const run = promisify(execFile);
    const results: { command: string; status: number; body: unknown }[] = [];
    for (const example of examples) {
      const command = example
        .replaceAll('https://shop.example', proxy.origin)
        .replaceAll('ck_YOUR_KEY:cs_YOUR_SECRET', `${readWrite.consumerKey}:${readWrite.consumerSecret}`)
        .replaceAll('ORDER_ID', String(order));
      const { stdout } = await run('sh', [
        '-c',
        `${command} --silent --show-error --cacert '${proxy.certificatePath}' --write-out '\\n%{http_code}'`,
      ]);
      const lines = stdout.trimEnd().split('\n');
      const status = Number(lines.pop());
      const body = JSON.parse(
        lines
          .join('\n')
          .split(/\r?\n\r?\n/)
          .pop() ?? 'null',
      );
      results.push({ command: example, status, body });
    }
    for (const result of results) {
      // 201 for the note the example adds, 200 for everything else.
      expect(result.status, result.command).toBe(result.command.includes('/notes') ? 201 : 200);
      expect(result.body, result.command).toBeTypeOf('object');
    }
    const completed = results.find((result) => result.command.includes('"completed"'))?.body as {
      status: string;
    };
    expect(completed.status).toBe('completed');
    const bySku = results.find((result) => result.command.includes('sku='))?.body as { id: number }[];
    expect(bySku.map((product) => product.id)).toEqual([MUG]);
    const [row] = await shop.query<{ stock: number }>(
      'SELECT stock_quantity AS stock FROM products WHERE id = ?',
      [MUG],
    );
    expect(Number(row?.stock)).toBe(12);
  });
});
