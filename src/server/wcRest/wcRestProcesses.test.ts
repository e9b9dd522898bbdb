import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerShopper } from '../../../test-support/ownerBrowser';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';
import { createApiKeyService, type IssuedApiKey } from './apiKeys/apiKeyService';

/*
 * The API on a scaled-out shop: two server processes on one database (two SQLite connections under `npm test`, two
 * PostgreSQL pools under `npm run test:postgres`). Concurrent status changes restock once, by the order desk's row
 * lock, whether they come through the API on both processes or through the API and the back office at once; wrong
 * keys are counted per client across processes.
 */

const MUG = 1021;
let shop: ShopProcesses;
let key: IssuedApiKey;

beforeAll(async () => {
  shop = await openShopProcesses(2);
  await shop.repositories[0]?.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
  key = await createApiKeyService(shop.repositories[0]?.apiKeys as never).create({
    description: 'Both processes',
    permissions: 'read_write',
  });
  await shop.query("UPDATE products SET stock_quantity = 100, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop.close();
});

const app = (n: number) => shop.apps[n] as FastifyInstance;
const basic = (secret = key.consumerSecret) => ({
  authorization: `Basic ${Buffer.from(`${key.consumerKey}:${secret}`).toString('base64')}`,
});

async function placeOrder(quantity: number): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(app(0), MUG, quantity);
  const placed = await shopper.send(app(0), 'POST', '/checkout/', form);
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

async function stockOfMug(): Promise<number> {
  const [row] = await shop.query<{ stock: number }>(
    'SELECT stock_quantity AS stock FROM products WHERE id = ?',
    [MUG],
  );
  return Number(row?.stock);
}

const cancelThroughApi = (process: number, order: number) =>
  app(process).inject({
    method: 'PUT',
    url: `/wp-json/wc/v3/orders/${order}`,
    headers: basic(),
    payload: { status: 'cancelled' },
  });

describe('order status changes through the API on two processes', () => {
  it('restocks once when both processes cancel the same order at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const order = await placeOrder(4);
      const before = await stockOfMug();
      const answers = await Promise.all([cancelThroughApi(0, order), cancelThroughApi(1, order)]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      expect(await stockOfMug()).toBe(before + 4);
      const notes = await shop.query<{ text: string }>(
        'SELECT body AS text FROM order_notes WHERE order_id = ?',
        [order],
      );
      expect(notes.filter((note) => note.text.startsWith('Status changed'))).toHaveLength(1);
    }
  });

  it('restocks once when the back office and the API cancel the same order at the same moment', async () => {
    const order = await placeOrder(2);
    const before = await stockOfMug();
    const { owner } = await ownerShopper(app(1));
    const page = await owner.send(app(1), 'GET', `/admin/orders/${order}/`);
    const nonce =
      new RegExp(`action="/admin/orders/${order}/status"[\\s\\S]*?name="_wpnonce" value="([^"]+)"`).exec(
        page.body,
      )?.[1] ?? '';
    const [api, admin] = await Promise.all([
      cancelThroughApi(0, order),
      owner.send(app(1), 'POST', `/admin/orders/${order}/status`, { status: 'cancelled', _wpnonce: nonce }),
    ]);
    expect(api.statusCode).toBe(200);
    expect(admin.statusCode).toBe(303);
    expect(await stockOfMug()).toBe(before + 2);
  });
});

describe('product writes through the API on two processes', () => {
  it('makes one product when both processes create the same SKU at the same moment', async () => {
    for (let round = 0; round < 3; round++) {
      const sku = `RACE-${round}`;
      const create = (process: number) =>
        app(process).inject({
          method: 'POST',
          url: '/wp-json/wc/v3/products',
          headers: basic(),
          payload: { name: `Race ${round} from ${process}`, sku, regular_price: '5.00' },
        });
      const answers = await Promise.all([create(0), create(1)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 400]);
      expect(answers.find((answer) => answer.statusCode === 400)?.json().code).toBe('product_invalid_sku');
      const rows = await shop.query('SELECT id FROM products WHERE sku = ?', [sku]);
      expect(rows).toHaveLength(1);
    }
  });

  it('leaves one of two concurrent stock settings, whole, and answers both', async () => {
    const set = (process: number, quantity: number) =>
      app(process).inject({
        method: 'PUT',
        url: `/wp-json/wc/v3/products/${MUG}`,
        headers: basic(),
        payload: { stock_quantity: quantity },
      });
    const answers = await Promise.all([set(0, 5), set(1, 9)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [row] = await shop.query<{ stock: number; status: string }>(
      'SELECT stock_quantity AS stock, stock_status AS status FROM products WHERE id = ?',
      [MUG],
    );
    expect([5, 9]).toContain(Number(row?.stock));
    expect(row?.status).toBe('instock');
  });
});

describe('wrong keys on two processes', () => {
  it('counts one client’s guesses on both processes together', async () => {
    const from = '127.0.0.91';
    const wrong = `cs_${'2'.repeat(40)}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10 && !statuses.includes(429); attempt++) {
      const response = await app(attempt % 2).inject({
        url: '/wp-json/wc/v3/orders',
        headers: basic(wrong),
        remoteAddress: from,
      });
      statuses.push(response.statusCode);
    }
    // Five failures in all, alternating processes (not five on each), lock the client: the sixth try is refused
    // unchecked by the process that did not count the fifth.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
