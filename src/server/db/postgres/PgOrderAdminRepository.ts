import type { DeviceType } from '../../../shared/attribution/deviceTypeOf';
import type { OrderStatus } from '../../../shared/orders/orderStatus';
import { STOCK_RELEASING_STATUSES } from '../../../shared/orders/orderStatus';
import { type OrderItemRow, type OrderRow, orderFromRows } from '../orderRows';
import type {
  OrderAdminRepository,
  OrderDetail,
  OrderListPage,
  OrderListQuery,
  OrderNote,
  OrderNoteAuthor,
  StatusChange,
} from '../ports';
import {
  assertStockToRetake,
  INSERT_NOTE,
  orderListSql,
  RETURN_STOCK,
  SELECT_NOTES,
  SELECT_ORDER_LINES_STOCK,
  SELECT_STOCK,
  type StockLine,
  salesByDaySql,
  TAKE_STOCK,
  toDailySales,
  toOrderNote,
  toOrderSummary,
  UPDATE_CUSTOMER_NOTE,
} from '../sql/orderAdminSql';
import { ENQUEUE_WEBHOOK_EVENT, webhookEventParams } from '../sql/webhookSql';
import { queryNamed } from './namedQuery';
import { inTransaction, type PgClient, type PgPool } from './openPostgres';
import { refreshDerivedFieldsPg } from './refreshDerivedFields';

export class PgOrderAdminRepository implements OrderAdminRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async listOrders(query: OrderListQuery): Promise<OrderListPage> {
    const sql = orderListSql('postgres', query);
    const { limit: _limit, offset: _offset, ...filter } = sql.params;
    const [rows, count] = await Promise.all([
      queryNamed(this.#pool, sql.list, sql.params),
      queryNamed(this.#pool, sql.count, filter),
    ]);
    return { orders: rows.map(toOrderSummary), total: Number(count[0]?.n ?? 0) };
  }

  async salesByDay(from: string, to: string) {
    return (await queryNamed(this.#pool, salesByDaySql(), { from, to })).map(toDailySales);
  }

  async getOrderDetail(id: number): Promise<OrderDetail | null> {
    const [orders, items, attributions, notes] = await Promise.all([
      this.#pool.query('SELECT * FROM orders WHERE id = $1', [id]),
      this.#pool.query('SELECT * FROM order_items WHERE order_id = $1 ORDER BY id', [id]),
      this.#pool.query(
        `SELECT source_type AS "sourceType", utm_source AS "utmSource", utm_medium AS "utmMedium",
           utm_campaign AS "utmCampaign", device_type AS "deviceType" FROM order_attribution WHERE order_id = $1`,
        [id],
      ),
      queryNamed(this.#pool, SELECT_NOTES, { orderId: id }),
    ]);
    // The pool parses BIGINT as numbers (openPostgres.ts), so the rows map as SQLite's do.
    const row = orders.rows[0] as (OrderRow & { stock_reduced: number }) | undefined;
    if (!row) return null;
    const order = orderFromRows(row, items.rows as OrderItemRow[]);
    const attribution = attributions.rows[0] as OrderDetail['attribution'] | undefined;
    return {
      order,
      attribution: attribution ? { ...attribution, deviceType: attribution.deviceType as DeviceType } : null,
      notes: notes.map(toOrderNote),
      stockReduced: row.stock_reduced === 1,
    };
  }

  async changeStatus(
    id: number,
    to: OrderStatus,
    note: (from: OrderStatus, to: OrderStatus) => string,
  ): Promise<StatusChange | null> {
    return inTransaction(this.#pool, async (client) => {
      // The order's row lock: a second click (any process) waits here, then reads the status the first wrote.
      const { rows } = await client.query(
        'SELECT status, stock_reduced FROM orders WHERE id = $1 FOR UPDATE',
        [id],
      );
      const row = rows[0] as { status: OrderStatus; stock_reduced: number | string } | undefined;
      if (!row) return null;
      const from = row.status;
      if (from === to) return { from, to, restocked: false, reduced: false };
      const releases = STOCK_RELEASING_STATUSES.has(to);
      const restocked = releases && Number(row.stock_reduced) === 1;
      const reduced = !releases && Number(row.stock_reduced) === 0;
      if (restocked || reduced) await this.#moveStock(client, id, restocked ? 'return' : 'take');
      await client.query('UPDATE orders SET status = $1, stock_reduced = $2 WHERE id = $3', [
        to,
        releases ? 0 : 1,
        id,
      ]);
      await queryNamed(client, INSERT_NOTE, { orderId: id, author: 'system', text: note(from, to) });
      await queryNamed(client, ENQUEUE_WEBHOOK_EVENT, webhookEventParams('order.updated', id));
      return { from, to, restocked, reduced };
    });
  }

  async #moveStock(client: PgClient, orderId: number, direction: 'return' | 'take') {
    const lines = (await queryNamed(client, SELECT_ORDER_LINES_STOCK, { orderId })).map(
      (line): StockLine => ({
        itemId: Number(line.itemId),
        productId: Number(line.productId),
        quantity: Number(line.quantity),
      }),
    );
    // Lock the items in id order, as placing an order does, so the two never deadlock.
    const itemIds = [...new Set(lines.map((line) => line.itemId))].sort((a, b) => a - b);
    await client.query('SELECT id FROM products WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE', [
      itemIds,
    ]);
    const parents = new Set<number>();
    for (const line of lines) {
      const [row] = await queryNamed<{
        parent_id: number | null;
        stock_status: string;
        stock_quantity: number | null;
      }>(client, SELECT_STOCK, { id: line.itemId });
      if (direction === 'take') assertStockToRetake(orderId, line, row);
      await queryNamed(client, direction === 'return' ? RETURN_STOCK : TAKE_STOCK, {
        id: line.itemId,
        quantity: line.quantity,
      });
      if (row?.parent_id != null) parents.add(Number(row.parent_id));
    }
    for (const parent of parents) await refreshDerivedFieldsPg(client, parent);
  }

  async setCustomerNote(orderId: number, text: string, note: string): Promise<boolean> {
    return inTransaction(this.#pool, async (client) => {
      if ((await queryNamed(client, UPDATE_CUSTOMER_NOTE, { orderId, text })).length === 0) return false;
      await queryNamed(client, INSERT_NOTE, { orderId, author: 'system', text: note });
      await queryNamed(client, ENQUEUE_WEBHOOK_EVENT, webhookEventParams('order.updated', orderId));
      return true;
    });
  }

  async addOrderNote(
    orderId: number,
    note: { author: OrderNoteAuthor; text: string },
  ): Promise<OrderNote | null> {
    const [row] = await queryNamed(this.#pool, INSERT_NOTE, {
      orderId,
      author: note.author,
      text: note.text,
    });
    return row ? toOrderNote(row) : null;
  }
}
