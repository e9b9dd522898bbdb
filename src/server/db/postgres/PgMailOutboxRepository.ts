import type { QueuedOrderMail } from '../../../shared/orders/orderMail';
import { CLAIMED_MAIL_COLUMNS, MAIL_RECORD_COLUMNS, toClaimedMail, toMailRecord } from '../mailOutboxRows';
import type { MailOutboxRepository } from '../ports';
import type { PgPool } from './openPostgres';

export class PgMailOutboxRepository implements MailOutboxRepository {
  #pool: PgPool;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async enqueue(mail: QueuedOrderMail, now: number) {
    const { rowCount } = await this.#pool.query(
      `INSERT INTO mail_outbox (kind, order_id, recipient, subject, text_body, html_body, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (order_id, kind) DO NOTHING`,
      [mail.kind, mail.orderId, mail.recipient, mail.subject, mail.text, mail.html, now],
    );
    return (rowCount ?? 0) > 0;
  }

  async claimDue(now: number, leaseUntil: number, limit: number) {
    // The due rows are picked once (a MATERIALIZED CTE: as a subquery of the UPDATE, PostgreSQL may run the pick
    // again and claim more than `limit`), locked as picked, and SKIP LOCKED leaves rows another sender is claiming
    // right now to it instead of waiting for them; the rechecked conditions keep a row from being claimed twice.
    const { rows } = await this.#pool.query(
      `WITH due AS MATERIALIZED (
         SELECT id AS due_id FROM mail_outbox WHERE status = 'queued' AND next_attempt_at <= $1
         ORDER BY next_attempt_at, id LIMIT $3 FOR UPDATE SKIP LOCKED
       )
       UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = $2
       FROM due WHERE mail_outbox.id = due.due_id AND mail_outbox.status = 'queued' AND mail_outbox.next_attempt_at <= $1
       RETURNING ${CLAIMED_MAIL_COLUMNS}`,
      [now, leaseUntil, limit],
    );
    return rows.map(toClaimedMail).sort((a, b) => a.id - b.id);
  }

  async markSent(id: number, now: number) {
    await this.#pool.query(
      "UPDATE mail_outbox SET status = 'sent', sent_at = $2, last_error = NULL WHERE id = $1",
      [id, now],
    );
  }

  async markFailed(id: number, error: string, retryAt: number | null) {
    if (retryAt === null) {
      await this.#pool.query("UPDATE mail_outbox SET status = 'failed', last_error = $2 WHERE id = $1", [
        id,
        error,
      ]);
    } else {
      await this.#pool.query('UPDATE mail_outbox SET last_error = $2, next_attempt_at = $3 WHERE id = $1', [
        id,
        error,
        retryAt,
      ]);
    }
  }

  async forOrder(orderId: number) {
    const { rows } = await this.#pool.query(
      `SELECT ${MAIL_RECORD_COLUMNS} FROM mail_outbox WHERE order_id = $1 ORDER BY created_at, id`,
      [orderId],
    );
    return rows.map(toMailRecord);
  }
}
