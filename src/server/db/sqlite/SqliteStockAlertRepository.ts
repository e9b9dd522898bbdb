import type { SqliteDatabase } from '../openDatabase';
import type {
  DueStockAlert,
  StockAlertMail,
  StockAlertRepository,
  StockAlertSubscribeResult,
} from '../ports';
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
import { writeWhenFree } from './withoutBusyWait';

export class SqliteStockAlertRepository implements StockAlertRepository {
  #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async subscribe(alert: { productId: number; email: string; emailKey: string; now: number }) {
    // BEGIN IMMEDIATE: the stock read and the insert hold the write lock, so no restock commits in between. A lock
    // held elsewhere is waited out without holding the process (writeWhenFree), as every write here.
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction((): { result: StockAlertSubscribeResult; slug: string | null } => {
          const target = this.#db.prepare(ALERT_TARGET).get({ productId: alert.productId }) as
            | AlertTargetRow
            | undefined;
          if (!alertTargetExists(target)) return { result: 'not_found', slug: null };
          if (isAvailable(target)) return { result: 'available', slug: target.slug };
          const { changes } = this.#db.prepare(INSERT_ALERT).run(alert);
          return { result: changes > 0 ? 'subscribed' : 'already_subscribed', slug: target.slug };
        })
        .immediate(),
    );
  }

  async queueDue(render: (alert: DueStockAlert) => StockAlertMail, now: number, limit: number) {
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() => {
          const rows = this.#db.prepare(DUE_ALERTS).all({ limit }) as DueAlertRow[];
          const queue = this.#db.prepare(QUEUE_ALERT_MAIL);
          const remove = this.#db.prepare(DELETE_ALERT);
          for (const row of rows) {
            const alert = toDueAlert(row);
            queue.run({ ...render(alert), now });
            remove.run({ id: alert.id });
          }
          return rows.length;
        })
        .immediate(),
    );
  }

  async hasDue() {
    return this.#db.prepare(HAS_DUE).get() !== undefined;
  }

  async unsubscribe(emailKey: string) {
    return (await writeWhenFree(this.#db, () => this.#db.prepare(UNSUBSCRIBE).run({ emailKey }))).changes;
  }
}
