import { type BackoffRow, backoffVerdict, takeBackoffRow } from '../backoffRows';
import type { SqliteDatabase } from '../openDatabase';
import type { BackoffPolicy, OwnerAccount, OwnerAuthRepository } from '../ports';
import { ownerAccountUpsertSql } from '../sql/ownerAccountUpsert';

const SELECT_BACKOFF = `SELECT failures, lock_ms AS lockMs, locked_until AS lockedUntil, expires_at AS expiresAt
  FROM login_backoffs WHERE bucket = ?`;

export class SqliteOwnerAuthRepository implements OwnerAuthRepository {
  #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async getOwnerAccount(): Promise<OwnerAccount | null> {
    const row = this.#db
      .prepare('SELECT password_hash AS passwordHash, email FROM owner_account WHERE id = 1')
      .get() as OwnerAccount | undefined;
    return row ?? null;
  }

  async setOwnerAccount(passwordHash: string, email: string | null | undefined, now: number) {
    this.#db
      .prepare(ownerAccountUpsertSql(email === undefined, ['?', '?', '?']))
      .run(passwordHash, email ?? null, now);
  }

  async createSession(tokenHash: string, credentials: string, createdAt: number, expiresAt: number) {
    this.#db
      .prepare(
        'INSERT INTO owner_sessions (token_hash, credentials, created_at, expires_at) VALUES (?, ?, ?, ?)',
      )
      .run(tokenHash, credentials, createdAt, expiresAt);
  }

  async hasSession(tokenHash: string, credentials: string, now: number) {
    return (
      this.#db
        .prepare('SELECT 1 FROM owner_sessions WHERE token_hash = ? AND credentials = ? AND expires_at > ?')
        .get(tokenHash, credentials, now) !== undefined
    );
  }

  async deleteSession(tokenHash: string) {
    this.#db.prepare('DELETE FROM owner_sessions WHERE token_hash = ?').run(tokenHash);
  }

  async deleteAllSessions() {
    this.#db.prepare('DELETE FROM owner_sessions').run();
  }

  async peekBackoff(bucket: string, now: number) {
    return backoffVerdict(this.#db.prepare(SELECT_BACKOFF).get(bucket) as BackoffRow | undefined, now);
  }

  async takeBackoff(bucket: string, now: number, policy: BackoffPolicy) {
    // IMMEDIATE takes the write lock before the read: another process's try waits and then sees this one.
    return this.#db
      .transaction(() => {
        const taken = takeBackoffRow(
          this.#db.prepare(SELECT_BACKOFF).get(bucket) as BackoffRow | undefined,
          now,
          policy,
        );
        if (taken.row)
          this.#db
            .prepare(
              `INSERT INTO login_backoffs (bucket, failures, lock_ms, locked_until, expires_at) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (bucket) DO UPDATE SET failures = excluded.failures, lock_ms = excluded.lock_ms,
                 locked_until = excluded.locked_until, expires_at = excluded.expires_at`,
            )
            .run(bucket, taken.row.failures, taken.row.lockMs, taken.row.lockedUntil, taken.row.expiresAt);
        return taken.verdict;
      })
      .immediate();
  }

  async clearBackoff(bucket: string) {
    this.#db.prepare('DELETE FROM login_backoffs WHERE bucket = ?').run(bucket);
  }

  async deleteExpired(now: number) {
    this.#db.prepare('DELETE FROM owner_sessions WHERE expires_at <= ?').run(now);
    this.#db.prepare('DELETE FROM login_backoffs WHERE expires_at <= ?').run(now);
  }
}
