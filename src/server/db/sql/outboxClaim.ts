import type { SqlDialect } from './dialect';

/*
 * The claim every durable outbox makes (order mail, webhooks), written once for both: the due rows (status
 * 'queued', `next_attempt_at` reached) get an attempt counted and `next_attempt_at` moved to the lease's end, so
 * no other sender, in this process or another, takes them until the lease runs out (a sender that dies mid-send
 * only delays its rows). Named parameters @now, @leaseUntil, @limit.
 *
 * SQLite: one UPDATE statement, atomic against every other connection through the file's write lock.
 * PostgreSQL: the due rows are picked once (a MATERIALIZED CTE: as a subquery of the UPDATE, PostgreSQL may run the
 * pick again and claim more than `limit`), locked as picked, and SKIP LOCKED leaves rows another sender is claiming
 * right now to it instead of waiting for them; the rechecked conditions keep a row from being claimed twice.
 */

export interface OutboxClaim {
  table: string;
  /** What the claim answers, as the table's own columns (the rows' mapper reads these). */
  returning: string;
  /** Another table the pick needs (e.g. the webhook a delivery belongs to), joined to the outbox as `d`. */
  join?: string;
  /** A further condition on the pick, over `d` and the joined table. */
  where?: string;
}

export function claimDueSql(
  dialect: SqlDialect,
  { table, returning, join = '', where }: OutboxClaim,
): string {
  const pick = `SELECT d.id FROM ${table} d ${join}
    WHERE d.status = 'queued' AND d.next_attempt_at <= @now${where ? ` AND ${where}` : ''}
    ORDER BY d.next_attempt_at, d.id LIMIT @limit`;
  if (dialect === 'sqlite')
    return `UPDATE ${table} SET attempts = attempts + 1, next_attempt_at = @leaseUntil
      WHERE id IN (${pick}) RETURNING ${returning}`;
  return `WITH due AS MATERIALIZED (${pick.replace('SELECT d.id', 'SELECT d.id AS due_id')} FOR UPDATE OF d SKIP LOCKED)
    UPDATE ${table} SET attempts = attempts + 1, next_attempt_at = @leaseUntil
    FROM due WHERE ${table}.id = due.due_id AND ${table}.status = 'queued' AND ${table}.next_attempt_at <= @now
    RETURNING ${returning}`;
}
