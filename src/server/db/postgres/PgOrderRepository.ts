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
import { queryNamed } from './namedQuery';
import { inTransaction, type PgClient, type PgPool } from './openPostgres';
import { insertOrderAttribution } from './PgAttributionRepository';
import { refreshDerivedFieldsPg } from './refreshDerivedFields';

export class PgOrderRepository implements OrderRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async placeOrder(order: NewOrder): Promise<PlacedOrder> {
    let placedOnce: { id: number; replayed: boolean };
    try {
      placedOnce = await inTransaction(this.#pool, (client) => this.#placeOnce(client, order));
    } catch (error) {
      // Two sessions racing with one key (a copied form): the unique index lets one order through.
      if ((error as { code?: string }).code === '23505') throw foreignIdempotencyKey();
      throw error;
    }
    const placed = await this.getOrder(placedOnce.id);
    if (!placed) throw new ShopError('internal_error', 'The order was written but cannot be read back');
    return { order: placed, replayed: placedOnce.replayed };
  }

  async countOrders(): Promise<number> {
    return Number((await this.#pool.query('SELECT COUNT(*) AS n FROM orders')).rows[0].n);
  }

  async findByIdempotencyKey(sessionId: string, key: string): Promise<Order | null> {
    const { rows } = await this.#pool.query(
      'SELECT id FROM orders WHERE idempotency_key = $1 AND session_id = $2',
      [key, sessionId],
    );
    return rows[0] ? this.getOrder(Number(rows[0].id)) : null;
  }

  async #placeOnce(client: PgClient, order: NewOrder): Promise<{ id: number; replayed: boolean }> {
    // The session's row lock comes first: submits of one cart take turns here, in any process, and each one
    // reads (READ COMMITTED: after the lock) what the one before it committed.
    const { rows } = await client.query('SELECT cart, expires_at FROM sessions WHERE id = $1 FOR UPDATE', [
      order.sessionId,
    ]);
    if (order.idempotencyKey) {
      const made = await client.query('SELECT id, session_id FROM orders WHERE idempotency_key = $1', [
        order.idempotencyKey,
      ]);
      const row = made.rows[0] as { id: number; session_id: string | null } | undefined;
      if (row && row.session_id !== order.sessionId) throw foreignIdempotencyKey();
      if (row) return { id: Number(row.id), replayed: true };
    }
    const session = rows[0] as { cart: string; expires_at: number } | undefined;
    const live = session && Number(session.expires_at) > Date.now();
    assertCartUnchanged(order.pricedCart, live ? (JSON.parse(session.cart) as CartLine[]) : []);
    return { id: await this.#write(client, order), replayed: false };
  }

  async #write(client: PgClient, order: NewOrder): Promise<number> {
    const parentsToRefresh = new Set<number>();
    // Lock the lines' rows in id order (FOR UPDATE), so two checkouts of the last one in different processes
    // take turns and the second sees the stock the first left; a fixed order avoids deadlocks between them.
    const itemIds = [...new Set(order.lines.map((line) => line.variationId ?? line.productId))].sort(
      (a, b) => a - b,
    );
    await client.query('SELECT id FROM products WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [
      itemIds,
    ]);
    for (const line of order.lines) {
      const itemId = line.variationId ?? line.productId;
      const { rows } = await client.query(
        'SELECT id, parent_id, stock_status, stock_quantity, status FROM products WHERE id = $1',
        [itemId],
      );
      const row = rows[0] as StockRow | undefined;
      assertPurchasable(line, row);
      await client.query(
        `UPDATE products SET stock_quantity = stock_quantity - $2,
           -- A product on backorder stays on backorder below zero (what is owed); an in-stock one sells out.
           stock_status = CASE WHEN stock_status = 'instock' AND stock_quantity - $2 <= 0 THEN 'outofstock' ELSE stock_status END
         WHERE id = $1 AND stock_quantity IS NOT NULL`,
        [itemId, line.quantity],
      );
      await client.query('UPDATE products SET total_sales = total_sales + $1 WHERE id = $2', [
        line.quantity,
        line.productId,
      ]);
      if (row.parent_id !== null) parentsToRefresh.add(row.parent_id);
    }
    for (const parentId of parentsToRefresh) await refreshDerivedFieldsPg(client, parentId);

    const { rows } = await client.query(orderInsertSql('postgres'), orderValues(order));
    const orderId = rows[0].id as number;
    const addLine = orderItemInsertSql('postgres');
    for (const line of order.lines) await client.query(addLine, orderItemValues(orderId, line));
    // "Customers also bought" counts, in the order's transaction, upserted in one fixed order (no deadlocks).
    for (const [productId, otherId] of coPurchasePairs(order.lines.map((line) => line.productId)))
      await queryNamed(client, COUNT_CO_PURCHASE, { productId, otherId });
    if (order.attribution) await insertOrderAttribution(client, orderId, order.attribution);
    await client.query("UPDATE sessions SET cart = '[]' WHERE id = $1", [order.sessionId]);
    await queryNamed(client, ENQUEUE_WEBHOOK_EVENT, webhookEventParams('order.created', orderId));
    return orderId;
  }

  async getOrder(id: number): Promise<Order | null> {
    const { rows } = await this.#pool.query('SELECT * FROM orders WHERE id = $1', [id]);
    const row = rows[0] as OrderRow | undefined;
    if (!row) return null;
    const items = await this.#pool.query('SELECT * FROM order_items WHERE order_id = $1 ORDER BY id', [id]);
    return orderFromRows(row, items.rows as OrderItemRow[]);
  }
}
