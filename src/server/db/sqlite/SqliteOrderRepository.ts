import type Database from 'better-sqlite3';
import { ShopError } from '../../../shared/errors/ShopError';
import type { Order } from '../../../shared/orders/orderTypes';
import {
  assertCartUnchanged,
  assertPurchasable,
  foreignIdempotencyKey,
  type OrderItemRow,
  type OrderRow,
  orderFromRows,
  type StockRow,
} from '../orderRows';
import type { CartLine, NewOrder, OrderRepository, PlacedOrder } from '../ports';
import { COUNT_CO_PURCHASE, coPurchasePairs } from '../sql/merchandisingSql';
import { orderInsertSql, orderValues } from '../sql/orderInsert';
import { orderItemInsertSql, orderItemValues } from '../sql/orderItemInsert';
import { ENQUEUE_WEBHOOK_EVENT, webhookEventParams } from '../sql/webhookSql';
import { refreshDerivedFields } from './refreshDerivedFields';
import { insertOrderAttribution } from './SqliteAttributionRepository';
import { writeWhenFree } from './withoutBusyWait';

export class SqliteOrderRepository implements OrderRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async placeOrder(order: NewOrder): Promise<PlacedOrder> {
    // IMMEDIATE takes the write lock before the cart is read again: the session's lock on this engine. A lock held
    // elsewhere (an import, another process's order) is waited out without holding the process (writeWhenFree): busy
    // fails at BEGIN, before anything is read or written, so the whole transaction is simply tried again.
    const { id, replayed } = await writeWhenFree(this.#db, () =>
      this.#db.transaction(() => this.#placeOnce(order)).immediate(),
    );
    const placed = await this.getOrder(id);
    if (!placed) throw new ShopError('internal_error', 'The order was written but cannot be read back');
    return { order: placed, replayed };
  }

  async countOrders(): Promise<number> {
    return this.#db.prepare('SELECT COUNT(*) FROM orders').pluck().get() as number;
  }

  async findByIdempotencyKey(sessionId: string, key: string): Promise<Order | null> {
    const id = this.#db
      .prepare('SELECT id FROM orders WHERE idempotency_key = ? AND session_id = ?')
      .pluck()
      .get(key, sessionId) as number | undefined;
    return id === undefined ? null : this.getOrder(id);
  }

  #placeOnce(order: NewOrder): { id: number; replayed: boolean } {
    if (order.idempotencyKey) {
      const made = this.#db
        .prepare('SELECT id, session_id FROM orders WHERE idempotency_key = ?')
        .get(order.idempotencyKey) as { id: number; session_id: string | null } | undefined;
      if (made && made.session_id !== order.sessionId) throw foreignIdempotencyKey();
      if (made) return { id: made.id, replayed: true };
    }
    const cart = this.#db
      .prepare('SELECT cart FROM sessions WHERE id = ? AND expires_at > ?')
      .pluck()
      .get(order.sessionId, Date.now()) as string | undefined;
    assertCartUnchanged(order.pricedCart, cart ? (JSON.parse(cart) as CartLine[]) : []);
    return { id: this.#write(order), replayed: false };
  }

  #write(order: NewOrder): number {
    const stock = this.#db.prepare(
      'SELECT id, parent_id, stock_status, stock_quantity, status FROM products WHERE id = ?',
    );
    const takeStock = this.#db.prepare(
      `UPDATE products SET stock_quantity = stock_quantity - @quantity,
         -- A product on backorder stays on backorder below zero (what is owed); an in-stock one sells out.
         stock_status = CASE WHEN stock_status = 'instock' AND stock_quantity - @quantity <= 0 THEN 'outofstock' ELSE stock_status END
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

    const orderId = Number(
      this.#db.prepare(orderInsertSql('sqlite')).run(...orderValues(order)).lastInsertRowid,
    );
    const addLine = this.#db.prepare(orderItemInsertSql('sqlite'));
    for (const line of order.lines) addLine.run(...orderItemValues(orderId, line));
    // "Customers also bought" counts, in the order's transaction: an order that is written is counted, once.
    const countPair = this.#db.prepare(COUNT_CO_PURCHASE);
    for (const [productId, otherId] of coPurchasePairs(order.lines.map((line) => line.productId)))
      countPair.run({ productId, otherId });
    if (order.attribution) insertOrderAttribution(this.#db, orderId, order.attribution);
    this.#db.prepare("UPDATE sessions SET cart = '[]' WHERE id = ?").run(order.sessionId);
    this.#db.prepare(ENQUEUE_WEBHOOK_EVENT).run(webhookEventParams('order.created', orderId));
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
