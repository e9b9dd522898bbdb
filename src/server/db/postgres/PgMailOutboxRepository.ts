import type { QueuedOrderMail } from '../../../shared/orders/orderMail';
import { CLAIMED_MAIL_COLUMNS, MAIL_RECORD_COLUMNS, toClaimedMail, toMailRecord } from '../mailOutboxRows';
import type { MailOutboxRepository } from '../ports';
import { claimDueSql } from '../sql/outboxClaim';
import { queryNamed } from './namedQuery';
import type { PgPool } from './openPostgres';

const CLAIM_MAIL_PG = claimDueSql('postgres', { table: 'mail_outbox', returning: CLAIMED_MAIL_COLUMNS });

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
    const rows = await queryNamed(this.#pool, CLAIM_MAIL_PG, { now, leaseUntil, limit });
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
