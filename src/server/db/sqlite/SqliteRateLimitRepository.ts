import type Database from 'better-sqlite3';
import type { RateLimitRepository } from '../ports';
import { writeWhenFree } from './withoutBusyWait';

export class SqliteRateLimitRepository implements RateLimitRepository {
  #db: Database.Database;
  #hit: Database.Statement;
  #hitMany: Database.Statement;
  #peek: Database.Statement;
  #clear: Database.Statement;
  #deleteExpired: Database.Statement;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#hit = db
      .prepare(
        `INSERT INTO rate_limits (bucket, window_start, count, expires_at) VALUES (?, ?, 1, ?)
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + 1 RETURNING count`,
      )
      .pluck();
    this.#hitMany = db
      .prepare(
        `INSERT INTO rate_limits (bucket, window_start, count, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (bucket, window_start) DO UPDATE SET count = count + excluded.count RETURNING count`,
      )
      .pluck();
    this.#peek = db.prepare('SELECT count FROM rate_limits WHERE bucket = ? AND window_start = ?').pluck();
    this.#clear = db.prepare('DELETE FROM rate_limits WHERE bucket = ?');
    this.#deleteExpired = db.prepare('DELETE FROM rate_limits WHERE expires_at <= ?');
  }

  async hit(bucket: string, windowStart: number, expiresAt: number) {
    // Counted on a shopper's path (a new session): an import's lock is waited out without holding the process.
    return writeWhenFree(this.#db, () => this.#hit.get(bucket, windowStart, expiresAt) as number);
  }

  async hitMany(hits: readonly { bucket: string; tries: number }[], windowStart: number, expiresAt: number) {
    // Off the request path (a batch of recorded searches), yet waited out without holding the process all the same.
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() =>
          hits.map(({ bucket, tries }) => this.#hitMany.get(bucket, windowStart, tries, expiresAt) as number),
        )
        .immediate(),
    );
  }

  async peek(bucket: string, windowStart: number) {
    return (this.#peek.get(bucket, windowStart) as number | undefined) ?? 0;
  }

  async clear(bucket: string) {
    this.#clear.run(bucket);
  }

  async deleteExpired(now: number) {
    return this.#deleteExpired.run(now).changes;
  }
}
