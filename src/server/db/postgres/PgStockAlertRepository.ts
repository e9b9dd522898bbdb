import type { DueStockAlert, StockAlertMail, StockAlertRepository } from '../ports';
import {
  ALERT_TARGET,
  type AlertTargetRow,
  alertTargetExists,
  DELETE_ALERT,
  DUE_ALERTS,
  type DueAlertRow,
  HAS_DUE,
  INSERT_ALERT,
  isAvailable,
  QUEUE_ALERT_MAIL,
  toDueAlert,
  UNSUBSCRIBE,
} from '../sql/stockAlertSql';
import { queryNamed } from './namedQuery';
import { inTransaction, type PgPool } from './openPostgres';

export class PgStockAlertRepository implements StockAlertRepository {
  #pool: PgPool;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async subscribe(alert: { productId: number; email: string; emailKey: string; now: number }) {
    return inTransaction(this.#pool, async (client) => {
      // FOR SHARE waits for a restock writing this row and then reads what it committed; a restock that starts
      // after waits for this insert, and its trigger then marks the new alert due.
      const [target] = await queryNamed<AlertTargetRow>(client, `${ALERT_TARGET} FOR SHARE OF p`, {
        productId: alert.productId,
      });
      if (!alertTargetExists(target)) return { result: 'not_found' as const, slug: null };
      if (isAvailable(target)) return { result: 'available' as const, slug: target.slug };
      const inserted = await queryNamed(client, `${INSERT_ALERT} RETURNING id`, alert);
      const result = inserted.length > 0 ? ('subscribed' as const) : ('already_subscribed' as const);
      return { result, slug: target.slug };
    });
  }

  async queueDue(render: (alert: DueStockAlert) => StockAlertMail, now: number, limit: number) {
    return inTransaction(this.#pool, async (client) => {
      // SKIP LOCKED: another sender's alerts are its own; each due alert is queued by the one that locked it.
      const rows = await queryNamed<DueAlertRow>(client, `${DUE_ALERTS} FOR UPDATE OF a SKIP LOCKED`, {
        limit,
      });
      for (const row of rows) {
        const alert = toDueAlert(row);
        await queryNamed(client, QUEUE_ALERT_MAIL, { ...render(alert), now });
        await queryNamed(client, DELETE_ALERT, { id: alert.id });
      }
      return rows.length;
    });
  }

  async hasDue() {
    return (await this.#pool.query(HAS_DUE)).rows.length > 0;
  }

  async unsubscribe(emailKey: string) {
    return (await queryNamed(this.#pool, `${UNSUBSCRIBE} RETURNING id`, { emailKey })).length;
  }
}
