import type { DeviceType } from '../../../shared/attribution/deviceTypeOf';
import type { OrderStatus } from '../../../shared/orders/orderStatus';
import { STOCK_RELEASING_STATUSES } from '../../../shared/orders/orderStatus';
import type { SqliteDatabase } from '../openDatabase';
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
import { refreshDerivedFields } from './refreshDerivedFields';
import { writeWhenFree } from './withoutBusyWait';

export class SqliteOrderAdminRepository implements OrderAdminRepository {
  #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async listOrders(query: OrderListQuery): Promise<OrderListPage> {
    const sql = orderListSql('sqlite', query);
    const { limit: _limit, offset: _offset, ...filter } = sql.params;
    const rows = this.#db.prepare(sql.list).all(sql.params) as Record<string, unknown>[];
    const total = this.#db.prepare(sql.count).pluck().get(filter) as number;
    return { orders: rows.map(toOrderSummary), total };
  }

  async salesByDay(from: string, to: string) {
    const rows = this.#db.prepare(salesByDaySql()).all({ from, to }) as Record<string, unknown>[];
    return rows.map(toDailySales);
  }

  async getOrderDetail(id: number): Promise<OrderDetail | null> {
    const row = this.#db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as
      | (OrderRow & { stock_reduced: number })
      | undefined;
    if (!row) return null;
    const items = this.#db
      .prepare('SELECT * FROM order_items WHERE order_id = ? ORDER BY id')
      .all(id) as OrderItemRow[];
    const attribution = this.#db
      .prepare(
        `SELECT source_type AS sourceType, utm_source AS utmSource, utm_medium AS utmMedium,
           utm_campaign AS utmCampaign, device_type AS deviceType FROM order_attribution WHERE order_id = ?`,
      )
      .get(id) as OrderDetail['attribution'] | undefined;
    const notes = this.#db.prepare(SELECT_NOTES).all({ orderId: id }) as Record<string, unknown>[];
    return {
      order: orderFromRows(row, items),
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
    // IMMEDIATE takes the write lock before the status is read: the order's row lock on this engine, so a second
    // click (in this process or another) reads the status the first one wrote. Waited out without holding the process.
    return writeWhenFree(this.#db, () => this.#db.transaction(() => this.#change(id, to, note)).immediate());
  }

  #change(id: number, to: OrderStatus, note: (from: OrderStatus, to: OrderStatus) => string) {
    const row = this.#db.prepare('SELECT status, stock_reduced FROM orders WHERE id = ?').get(id) as
      | { status: OrderStatus; stock_reduced: number }
      | undefined;
    if (!row) return null;
    const from = row.status;
    if (from === to) return { from, to, restocked: false, reduced: false };
    const releases = STOCK_RELEASING_STATUSES.has(to);
    const restocked = releases && row.stock_reduced === 1;
    const reduced = !releases && row.stock_reduced === 0;
    if (restocked || reduced) this.#moveStock(id, restocked ? 'return' : 'take');
    this.#db
      .prepare('UPDATE orders SET status = ?, stock_reduced = ? WHERE id = ?')
      .run(to, releases ? 0 : 1, id);
    this.#db.prepare(INSERT_NOTE).get({ orderId: id, author: 'system', text: note(from, to) });
    this.#db.prepare(ENQUEUE_WEBHOOK_EVENT).run(webhookEventParams('order.updated', id));
    return { from, to, restocked, reduced };
  }

  #moveStock(orderId: number, direction: 'return' | 'take') {
    const lines = this.#db.prepare(SELECT_ORDER_LINES_STOCK).all({ orderId }) as StockLine[];
    const stock = this.#db.prepare(SELECT_STOCK);
    const update = this.#db.prepare(direction === 'return' ? RETURN_STOCK : TAKE_STOCK);
    const parents = new Set<number>();
    for (const line of lines) {
      const row = stock.get({ id: line.itemId }) as
        | { parent_id: number | null; stock_status: string; stock_quantity: number | null }
        | undefined;
      if (direction === 'take') assertStockToRetake(orderId, line, row);
      update.run({ id: line.itemId, quantity: line.quantity });
      if (row?.parent_id != null) parents.add(row.parent_id);
    }
    for (const parent of parents) refreshDerivedFields(this.#db, parent);
  }

  async setCustomerNote(orderId: number, text: string, note: string): Promise<boolean> {
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() => {
          if (this.#db.prepare(UPDATE_CUSTOMER_NOTE).all({ orderId, text }).length === 0) return false;
          this.#db.prepare(INSERT_NOTE).get({ orderId, author: 'system', text: note });
          this.#db.prepare(ENQUEUE_WEBHOOK_EVENT).run(webhookEventParams('order.updated', orderId));
          return true;
        })
        .immediate(),
    );
  }

  async addOrderNote(
    orderId: number,
    note: { author: OrderNoteAuthor; text: string },
  ): Promise<OrderNote | null> {
    const row = (await writeWhenFree(this.#db, () =>
      this.#db.prepare(INSERT_NOTE).get({ orderId, author: note.author, text: note.text }),
    )) as Record<string, unknown> | undefined;
    return row ? toOrderNote(row) : null;
  }
}
