import type Database from 'better-sqlite3';
import type { OrderAttribution } from '../../../shared/attribution/orderAttribution';
import { type DayRange, dayRangeBounds } from '../../../shared/dates/dayRange';
import { toOrderAttribution } from '../attributionRows';
import type { AttributionReportRow, AttributionRepository } from '../ports';
import { ORDER_ATTRIBUTION_INSERT } from '../sql/orderAttributionInsert';

/** Writes an order's attribution row; called inside the order's transaction (SqliteOrderRepository). */
export function insertOrderAttribution(
  db: Database.Database,
  orderId: number,
  attribution: OrderAttribution,
) {
  db.prepare(ORDER_ATTRIBUTION_INSERT).run({ orderId, ...attribution });
}

export class SqliteAttributionRepository implements AttributionRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async getOrderAttribution(orderId: number): Promise<OrderAttribution | null> {
    const row = this.#db.prepare('SELECT * FROM order_attribution WHERE order_id = ?').get(orderId) as
      | Record<string, string | number | null>
      | undefined;
    if (!row) return null;
    return toOrderAttribution(row);
  }

  async summarize(range: DayRange): Promise<AttributionReportRow[]> {
    const { start, end } = dayRangeBounds(range);
    // Orders without attribution (tracking off, no consent) are counted as `unknown`, so totals match the orders.
    return this.#db
      .prepare(
        `SELECT COALESCE(a.source_type, 'unknown') AS sourceType, COALESCE(a.utm_source, '(none)') AS source,
                COALESCE(a.utm_medium, '(none)') AS medium, COALESCE(a.utm_campaign, '(none)') AS campaign,
                o.currency AS currency, COUNT(*) AS orders, SUM(o.total) AS revenue
         FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
         WHERE o.created_at >= @from AND o.created_at < @to AND o.status != 'cancelled'
         GROUP BY 1, 2, 3, 4, 5
         ORDER BY orders DESC, revenue DESC, sourceType, source, medium, campaign`,
      )
      .all({ from: start, to: end }) as AttributionReportRow[];
  }
}
