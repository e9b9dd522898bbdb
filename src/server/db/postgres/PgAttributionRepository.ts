import type { OrderAttribution } from '../../../shared/attribution/orderAttribution';
import { type DayRange, dayRangeBounds } from '../../../shared/dates/dayRange';
import { toOrderAttribution } from '../attributionRows';
import type { AttributionReportRow, AttributionRepository } from '../ports';
import { ORDER_ATTRIBUTION_INSERT } from '../sql/orderAttributionInsert';
import { queryNamed } from './namedQuery';
import type { PgPool, Queryable } from './openPostgres';

/** Writes an order's attribution row; called inside the order's transaction (PgOrderRepository). */
export async function insertOrderAttribution(db: Queryable, orderId: number, attribution: OrderAttribution) {
  await queryNamed(db, ORDER_ATTRIBUTION_INSERT, { orderId, ...attribution });
}

export class PgAttributionRepository implements AttributionRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async getOrderAttribution(orderId: number): Promise<OrderAttribution | null> {
    const { rows } = await this.#pool.query('SELECT * FROM order_attribution WHERE order_id = $1', [orderId]);
    const row = rows[0] as Record<string, string | number | null> | undefined;
    if (!row) return null;
    return toOrderAttribution(row);
  }

  async summarize(range: DayRange): Promise<AttributionReportRow[]> {
    const { start, end } = dayRangeBounds(range);
    // Orders without attribution (tracking off, no consent) are counted as `unknown`, so totals match the orders.
    return queryNamed<AttributionReportRow>(
      this.#pool,
      `SELECT COALESCE(a.source_type, 'unknown') AS "sourceType", COALESCE(a.utm_source, '(none)') AS source,
              COALESCE(a.utm_medium, '(none)') AS medium, COALESCE(a.utm_campaign, '(none)') AS campaign,
              o.currency AS currency, COUNT(*) AS orders, SUM(o.total) AS revenue
       FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
       WHERE o.created_at >= @from AND o.created_at < @to AND o.status != 'cancelled'
       GROUP BY 1, 2, 3, 4, 5
       ORDER BY orders DESC, revenue DESC, "sourceType", source, medium, campaign`,
      { from: start, to: end },
    );
  }
}
