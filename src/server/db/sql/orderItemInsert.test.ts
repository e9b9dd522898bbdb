import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewOrderLine } from '../../../shared/orders/orderTypes';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import { type OrderItemRow, type OrderRow, orderFromRows } from '../orderRows';
import { openPostgres, type PgPool } from '../postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../postgres/testDatabase';
import type { SqlDialect } from './dialect';
import { orderItemInsertSql, orderItemValues } from './orderItemInsert';

/* An order's lines written with the shared INSERT read back as the lines that were bought, on both engines. */

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

interface Engine {
  /** Writes an order row, then its lines through the builder; answers the order as read back. */
  writeOrder(lines: readonly NewOrderLine[]): Promise<ReturnType<typeof orderFromRows>>;
  close(): Promise<void>;
}

const ORDER = `INSERT INTO orders (order_key, status, currency, subtotal, total, payment_method, billing)
  VALUES ('wc_order_test', 'processing', 'EUR', 15300, 15300, 'cod', '{}')`;

async function openSqliteEngine(dialect: SqlDialect): Promise<Engine> {
  const dataDir = mkdtempSync(join(tmpdir(), 'order-item-insert-'));
  const db: SqliteDatabase = openDatabase(dataDir);
  return {
    async writeOrder(lines) {
      const orderId = Number(db.prepare(ORDER).run().lastInsertRowid);
      const addLine = db.prepare(orderItemInsertSql(dialect));
      for (const line of lines) addLine.run(...orderItemValues(orderId, line));
      const row = db.prepare('SELECT * FROM orders WHERE id = ?').get(orderId) as OrderRow;
      const items = db
        .prepare('SELECT * FROM order_items WHERE order_id = ? ORDER BY id')
        .all(orderId) as OrderItemRow[];
      return orderFromRows(row, items);
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
    async writeOrder(lines) {
      const orderId = Number((await pool.query(`${ORDER} RETURNING id`)).rows[0].id);
      for (const line of lines) await pool.query(orderItemInsertSql(dialect), orderItemValues(orderId, line));
      const row = (await pool.query('SELECT * FROM orders WHERE id = $1', [orderId])).rows[0] as OrderRow;
      const items = (await pool.query('SELECT * FROM order_items WHERE order_id = $1 ORDER BY id', [orderId]))
        .rows as OrderItemRow[];
      return orderFromRows(row, items);
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

    it('stores each line as bought, with its total', async () => {
      const order = await engine.writeOrder(LINES);
      expect(order.lines).toEqual(
        LINES.map((line) => ({ ...line, lineTotal: line.unitPrice * line.quantity })),
      );
    });
  });
}
