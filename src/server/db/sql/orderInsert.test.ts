import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewOrderLine, Order } from '../../../shared/orders/orderTypes';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import { type OrderItemRow, type OrderRow, orderFromRows } from '../orderRows';
import type { NewOrder } from '../ports';
import { openPostgres, type PgPool } from '../postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../postgres/testDatabase';
import type { SqlDialect } from './dialect';
import { orderInsertSql, orderValues } from './orderInsert';
import { orderItemInsertSql, orderItemValues } from './orderItemInsert';

/* An order and its lines written with the shared INSERTs read back as the order that was placed, on both engines. */

const LINES: NewOrderLine[] = [
  {
    productId: 11,
    variationId: 12,
    name: 'Hoodie – Blue',
    sku: 'HOOD-B',
    attributes: { attribute_color: 'Blue' },
    quantity: 3,
    unitPrice: 4500,
  },
  { productId: 20, variationId: null, name: 'Cap', sku: null, attributes: {}, quantity: 1, unitPrice: 1800 },
];

/** The order as read back, with the columns that only the checkout reads (a replayed submit). */
type StoredOrder = Order & { sessionId: string | null; idempotencyKey: string | null };

function stored(
  row: OrderRow & { session_id: string | null; idempotency_key: string | null },
  items: OrderItemRow[],
) {
  return { ...orderFromRows(row, items), sessionId: row.session_id, idempotencyKey: row.idempotency_key };
}

interface Engine {
  /** Writes the order's row, then its lines through the builders; answers the order as read back. */
  writeOrder(order: NewOrder): Promise<StoredOrder>;
  close(): Promise<void>;
}

const ORDER: NewOrder = {
  orderKey: 'wc_order_test',
  currency: 'EUR',
  paymentMethod: 'cod',
  billing: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    company: '',
    address1: '12 St James Square',
    address2: '',
    city: 'London',
    state: '',
    postcode: 'SW1Y 4JH',
    country: 'GB',
    email: 'ada@example.com',
    phone: '',
  },
  customerNote: 'Leave at the door',
  sessionId: 'session-1',
  idempotencyKey: 'form-key-1',
  pricedCart: [],
  lines: LINES,
};

async function openSqliteEngine(dialect: SqlDialect): Promise<Engine> {
  const dataDir = mkdtempSync(join(tmpdir(), 'order-insert-'));
  const db: SqliteDatabase = openDatabase(dataDir);
  return {
    async writeOrder(order) {
      const orderId = Number(db.prepare(orderInsertSql(dialect)).run(...orderValues(order)).lastInsertRowid);
      const addLine = db.prepare(orderItemInsertSql(dialect));
      for (const line of order.lines) addLine.run(...orderItemValues(orderId, line));
      const row = db.prepare('SELECT * FROM orders WHERE id = ?').get(orderId) as Parameters<
        typeof stored
      >[0];
      const items = db
        .prepare('SELECT * FROM order_items WHERE order_id = ? ORDER BY id')
        .all(orderId) as OrderItemRow[];
      return stored(row, items);
    },
    async close() {
      db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openPostgresEngine(dialect: SqlDialect): Promise<Engine> {
  const database = await createTestDatabase();
  const pool: PgPool = await openPostgres(database.url);
  return {
    async writeOrder(order) {
      const orderId = Number((await pool.query(orderInsertSql(dialect), orderValues(order))).rows[0].id);
      for (const line of order.lines)
        await pool.query(orderItemInsertSql(dialect), orderItemValues(orderId, line));
      const row = (await pool.query('SELECT * FROM orders WHERE id = $1', [orderId])).rows[0] as Parameters<
        typeof stored
      >[0];
      const items = (await pool.query('SELECT * FROM order_items WHERE order_id = $1 ORDER BY id', [orderId]))
        .rows as OrderItemRow[];
      return stored(row, items);
    },
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}

const ENGINES = [
  { dialect: 'sqlite' as const, open: openSqliteEngine, skip: false },
  { dialect: 'postgres' as const, open: openPostgresEngine, skip: !TEST_DATABASE_URL },
];

for (const { dialect, open, skip } of ENGINES) {
  describe.skipIf(skip)(`orderItemInsert on ${dialect}`, { timeout: 60_000 }, () => {
    let engine: Engine;

    beforeAll(async () => {
      engine = await open(dialect);
    });

    afterAll(async () => {
      await engine?.close();
    });

    it('stores the order as placed, totalled from its lines, and each line as bought', async () => {
      const order = await engine.writeOrder(ORDER);
      expect(order).toMatchObject({
        orderKey: 'wc_order_test',
        status: 'processing',
        currency: 'EUR',
        subtotal: 3 * 4500 + 1800,
        total: 3 * 4500 + 1800,
        paymentMethod: 'cod',
        billing: ORDER.billing,
        customerNote: 'Leave at the door',
        sessionId: 'session-1',
        idempotencyKey: 'form-key-1',
      });
      expect(order.lines).toEqual(
        LINES.map((line) => ({ ...line, lineTotal: line.unitPrice * line.quantity, lineTax: 0 })),
      );
      expect(order).toMatchObject({ shipping: null, taxTotal: 0, shippingAddress: { city: 'London' } });
    });

    it('stores where the order ships, its shipping line and its tax, and totals them', async () => {
      const shippingAddress = {
        firstName: 'Charles',
        lastName: 'Babbage',
        company: '',
        address1: '1 Market St',
        address2: '',
        city: 'San Francisco',
        state: 'CA',
        postcode: '94105',
        country: 'US',
      };
      const order = await engine.writeOrder({
        ...ORDER,
        orderKey: 'wc_order_shipped',
        idempotencyKey: 'form-key-2',
        status: 'on-hold',
        paymentMethod: 'bacs',
        shippingAddress,
        shipping: { methodId: 'flat_rate:1', title: 'Flat rate', cost: 500, tax: 36 },
        taxLabel: 'CA tax',
        lines: [
          { ...(LINES[0] as NewOrderLine), lineTax: 979 },
          { ...(LINES[1] as NewOrderLine), lineTax: 131 },
        ],
      });
      expect(order).toMatchObject({
        status: 'on-hold',
        paymentMethod: 'bacs',
        subtotal: 15300,
        taxTotal: 979 + 131 + 36,
        total: 15300 + 979 + 131 + 500 + 36,
        shippingAddress,
        shipping: { methodId: 'flat_rate:1', title: 'Flat rate', cost: 500, tax: 36 },
        taxLabel: 'CA tax',
        pricesIncludeTax: false,
      });
      expect(order.lines.map((line) => line.lineTax)).toEqual([979, 131]);
    });
  });
}
