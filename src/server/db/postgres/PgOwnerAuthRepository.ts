import { type BackoffRow, backoffVerdict, takeBackoffRow } from '../backoffRows';
import type { BackoffPolicy, OwnerAccount, OwnerAuthRepository } from '../ports';
import { ownerAccountUpsertSql } from '../sql/ownerAccountUpsert';
import { inTransaction, type PgPool } from './openPostgres';

const SELECT_BACKOFF = `SELECT failures, lock_ms AS "lockMs", locked_until AS "lockedUntil", expires_at AS "expiresAt"
  FROM login_backoffs WHERE bucket = $1`;

function toRow(row: Record<string, unknown> | undefined): BackoffRow | undefined {
  if (!row) return undefined;
  return {
    failures: Number(row.failures),
    lockMs: Number(row.lockMs),
    lockedUntil: Number(row.lockedUntil),
    expiresAt: Number(row.expiresAt),
  };
}

export class PgOwnerAuthRepository implements OwnerAuthRepository {
  #pool: PgPool;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async getOwnerAccount(): Promise<OwnerAccount | null> {
    const { rows } = await this.#pool.query(
      'SELECT password_hash AS "passwordHash", email FROM owner_account WHERE id = 1',
    );
    return (rows[0] as OwnerAccount | undefined) ?? null;
  }

  async setOwnerAccount(passwordHash: string, email: string | null | undefined, now: number) {
    await this.#pool.query(ownerAccountUpsertSql(email === undefined, ['$1', '$2', '$3']), [
      passwordHash,
      email ?? null,
      now,
    ]);
  }

  async createSession(tokenHash: string, credentials: string, createdAt: number, expiresAt: number) {
    await this.#pool.query(
      'INSERT INTO owner_sessions (token_hash, credentials, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [tokenHash, credentials, createdAt, expiresAt],
    );
  }

  async hasSession(tokenHash: string, credentials: string, now: number) {
    const { rowCount } = await this.#pool.query(
      'SELECT 1 FROM owner_sessions WHERE token_hash = $1 AND credentials = $2 AND expires_at > $3',
      [tokenHash, credentials, now],
    );
    return (rowCount ?? 0) > 0;
  }

  async deleteSession(tokenHash: string) {
    await this.#pool.query('DELETE FROM owner_sessions WHERE token_hash = $1', [tokenHash]);
  }

  async deleteAllSessions() {
    await this.#pool.query('DELETE FROM owner_sessions');
  }

  async peekBackoff(bucket: string, now: number) {
    const { rows } = await this.#pool.query(SELECT_BACKOFF, [bucket]);
    return backoffVerdict(toRow(rows[0]), now);
  }

  async takeBackoff(bucket: string, now: number, policy: BackoffPolicy) {
    return inTransaction(this.#pool, async (client) => {
      // The row exists before it is locked, so two first tries cannot both read "no row".
      await client.query(
        `INSERT INTO login_backoffs (bucket, failures, lock_ms, locked_until, expires_at) VALUES ($1, 0, 0, 0, 0)
         ON CONFLICT (bucket) DO NOTHING`,
        [bucket],
      );
      const { rows } = await client.query(`${SELECT_BACKOFF} FOR UPDATE`, [bucket]);
      const taken = takeBackoffRow(toRow(rows[0]), now, policy);
      if (taken.row)
        await client.query(
          `UPDATE login_backoffs SET failures = $2, lock_ms = $3, locked_until = $4, expires_at = $5
           WHERE bucket = $1`,
          [bucket, taken.row.failures, taken.row.lockMs, taken.row.lockedUntil, taken.row.expiresAt],
        );
      return taken.verdict;
    });
  }

  async clearBackoff(bucket: string) {
    await this.#pool.query('DELETE FROM login_backoffs WHERE bucket = $1', [bucket]);
  }

  async deleteExpired(now: number) {
    await this.#pool.query('DELETE FROM owner_sessions WHERE expires_at <= $1', [now]);
    await this.#pool.query('DELETE FROM login_backoffs WHERE expires_at <= $1', [now]);
  }
}
