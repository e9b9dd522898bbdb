import type { QueuedOrderMail } from '../../../shared/orders/orderMail';
import { CLAIMED_MAIL_COLUMNS, MAIL_RECORD_COLUMNS, toClaimedMail, toMailRecord } from '../mailOutboxRows';
import type { SqliteDatabase } from '../openDatabase';
import type { MailOutboxRepository } from '../ports';
import { claimDueSql } from '../sql/outboxClaim';
import { writeWhenFree } from './withoutBusyWait';

const CLAIM_MAIL_SQLITE = claimDueSql('sqlite', { table: 'mail_outbox', returning: CLAIMED_MAIL_COLUMNS });

/*
 * Every write here waits out a lock held elsewhere (an import, another process) without holding the process
 * (writeWhenFree): one statement each, so a busy answer changed nothing and the statement is simply tried again.
 */
export class SqliteMailOutboxRepository implements MailOutboxRepository {
  #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async enqueue(mail: QueuedOrderMail, now: number) {
    const { changes } = await writeWhenFree(this.#db, () =>
      this.#db
        .prepare(
          `INSERT INTO mail_outbox (kind, order_id, recipient, subject, text_body, html_body, next_attempt_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, kind) DO NOTHING`,
        )
        .run(mail.kind, mail.orderId, mail.recipient, mail.subject, mail.text, mail.html, now, now),
    );
    return changes > 0;
  }

  async claimDue(now: number, leaseUntil: number, limit: number) {
    const rows = (await writeWhenFree(this.#db, () =>
      this.#db.prepare(CLAIM_MAIL_SQLITE).all({ now, leaseUntil, limit }),
    )) as Record<string, unknown>[];
    return rows.map(toClaimedMail).sort((a, b) => a.id - b.id);
  }

  async markSent(id: number, now: number) {
    await writeWhenFree(this.#db, () =>
      this.#db
        .prepare("UPDATE mail_outbox SET status = 'sent', sent_at = ?, last_error = NULL WHERE id = ?")
        .run(now, id),
    );
  }

  async markFailed(id: number, error: string, retryAt: number | null) {
    await writeWhenFree(this.#db, () =>
      retryAt === null
        ? this.#db
            .prepare("UPDATE mail_outbox SET status = 'failed', last_error = ? WHERE id = ?")
            .run(error, id)
        : this.#db
            .prepare('UPDATE mail_outbox SET last_error = ?, next_attempt_at = ? WHERE id = ?')
            .run(error, retryAt, id),
    );
  }

  async forOrder(orderId: number) {
    const rows = this.#db
      .prepare(`SELECT ${MAIL_RECORD_COLUMNS} FROM mail_outbox WHERE order_id = ? ORDER BY created_at, id`)
      .all(orderId) as Record<string, unknown>[];
    return rows.map(toMailRecord);
  }
}
