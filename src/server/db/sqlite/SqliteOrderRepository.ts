import type Database from 'better-sqlite3';
import { ShopError } from '../../../shared/errors/ShopError';
import type { Order } from '../../../shared/orders/orderTypes';
import {
  assertPurchasable,
  type OrderItemRow,
  type OrderRow,
  orderFromRows,
  type StockRow,
} from '../orderRows';
import type { NewOrder, OrderRepository } from '../repositories';
import { refreshDerivedFields } from './refreshDerivedFields';
import { insertOrderAttribution } from './SqliteAttributionRepository';

export class SqliteOrderRepository implements OrderRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async placeOrder(order: NewOrder): Promise<Order> {
    const id = this.#db.transaction(() => this.#write(order))();
    const placed = await this.getOrder(id);
    if (!placed) throw new ShopError('internal_error', 'The order was written but cannot be read back');
    return placed;
  }

  #write(order: NewOrder): number {
    const stock = this.#db.prepare(
      'SELECT id, parent_id, stock_status, stock_quantity, status FROM products WHERE id = ?',
    );
    const takeStock = this.#db.prepare(
      `UPDATE products SET stock_quantity = stock_quantity - @quantity,
         stock_status = CASE WHEN stock_quantity - @quantity <= 0 THEN 'outofstock' ELSE stock_status END
       WHERE id = @id AND stock_quantity IS NOT NULL`,
    );
    const countSale = this.#db.prepare('UPDATE products SET total_sales = total_sales + ? WHERE id = ?');
    const parentsToRefresh = new Set<number>();
    // Stock is checked again inside the transaction: two shoppers buying the last one cannot both succeed.
    for (const line of order.lines) {
      const itemId = line.variationId ?? line.productId;
      const row = stock.get(itemId) as StockRow | undefined;
      assertPurchasable(line, row);
      takeStock.run({ id: itemId, quantity: line.quantity });
      countSale.run(line.quantity, line.productId);
      if (row.parent_id !== null) parentsToRefresh.add(row.parent_id);
    }
    for (const parentId of parentsToRefresh) refreshDerivedFields(this.#db, parentId);

    const subtotal = order.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
    const orderId = Number(
      this.#db
        .prepare(
          `INSERT INTO orders (order_key, status, currency, subtotal, total, payment_method, billing, customer_note, session_id)
           VALUES (?, 'processing', ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          order.orderKey,
          order.currency,
          subtotal,
          subtotal,
          order.paymentMethod,
          JSON.stringify(order.billing),
          order.customerNote,
          order.sessionId,
        ).lastInsertRowid,
    );
    const addLine = this.#db.prepare(
      `INSERT INTO order_items (order_id, product_id, variation_id, name, sku, attributes, quantity, unit_price, line_total)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const line of order.lines) {
      addLine.run(
        orderId,
        line.productId,
        line.variationId,
        line.name,
        line.sku,
        JSON.stringify(line.attributes),
        line.quantity,
        line.unitPrice,
        line.unitPrice * line.quantity,
      );
    }
    if (order.attribution) insertOrderAttribution(this.#db, orderId, order.attribution);
    this.#db.prepare("UPDATE sessions SET cart = '[]' WHERE id = ?").run(order.sessionId);
    return orderId;
  }

  async getOrder(id: number): Promise<Order | null> {
    const row = this.#db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as OrderRow | undefined;
    if (!row) return null;
    const items = this.#db
      .prepare('SELECT * FROM order_items WHERE order_id = ? ORDER BY id')
      .all(id) as OrderItemRow[];
    return orderFromRows(row, items);
  }
}
