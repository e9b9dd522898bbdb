import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { migrate } from './migrate';
import { MIGRATIONS_DIR } from './migrationSql';

/* A shop that took orders before customers-also-bought existed starts with those orders counted. */

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('counts the orders placed before the migration, once per order, leaving out deleted products', () => {
  const before = mkdtempSync(join(tmpdir(), 'migrations-'));
  dirs.push(before);
  for (const name of readdirSync(MIGRATIONS_DIR).filter((file) => file < '0028')) {
    cpSync(join(MIGRATIONS_DIR, name), join(before, name));
  }
  const db = new Database(':memory:');
  migrate(db, before);
  const product = db.prepare("INSERT INTO products (id, type, name) VALUES (?, 'simple', ?)");
  for (const id of [1, 2, 3]) product.run(id, `Product ${id}`);
  const order = db.prepare(
    `INSERT INTO orders (id, order_key, status, currency, subtotal, total, payment_method, billing)
     VALUES (?, ?, 'processing', 'USD', 0, 0, 'cod', '{}')`,
  );
  const line = db.prepare(
    "INSERT INTO order_items (order_id, product_id, name, quantity, unit_price, line_total) VALUES (?, ?, 'x', 1, 0, 0)",
  );
  order.run(1, 'a');
  line.run(1, 1);
  line.run(1, 2);
  line.run(1, 2); // two lines (variations) of one product count once
  order.run(2, 'b');
  line.run(2, 1);
  line.run(2, 2);
  line.run(2, 99); // a product deleted since
  order.run(3, 'c');
  line.run(3, 3);

  migrate(db);
  expect(
    db.prepare('SELECT product_id, other_id, order_count FROM product_co_purchases ORDER BY 1, 2').all(),
  ).toEqual([
    { product_id: 1, other_id: 2, order_count: 2 },
    { product_id: 2, other_id: 1, order_count: 2 },
  ]);
  db.close();
});
