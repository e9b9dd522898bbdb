import type { RateLimitRepository } from '../ports';
import type { PgPool } from './openPostgres';

export class PgRateLimitRepository implements RateLimitRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async hit(bucket: string, windowStart: number, expiresAt: number) {
    const { rows } = await this.#pool.query(
      `INSERT INTO rate_limits (bucket, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`,
      [bucket, windowStart, expiresAt],
    );
    return Number(rows[0].count);
  }

  async hitMany(hits: readonly { bucket: string; tries: number }[], windowStart: number, expiresAt: number) {
    if (hits.length === 0) return [];
    // One statement for the whole batch; each bucket once, so no row is upserted twice in it.
    const { rows } = await this.#pool.query(
      `INSERT INTO rate_limits (bucket, window_start, count, expires_at)
       SELECT bucket, $2, tries, $3 FROM unnest($1::text[], $4::int[]) AS hit (bucket, tries)
       ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + excluded.count
       RETURNING bucket, count`,
      [hits.map((hit) => hit.bucket), windowStart, expiresAt, hits.map((hit) => hit.tries)],
    );
    const counts = new Map(rows.map((row) => [String(row.bucket), Number(row.count)]));
    return hits.map((hit) => counts.get(hit.bucket) ?? 0);
  }

  async peek(bucket: string, windowStart: number) {
    const { rows } = await this.#pool.query(
      'SELECT count FROM rate_limits WHERE bucket = $1 AND window_start = $2',
      [bucket, windowStart],
    );
    return rows[0] ? Number(rows[0].count) : 0;
  }

  async clear(bucket: string) {
    await this.#pool.query('DELETE FROM rate_limits WHERE bucket = $1', [bucket]);
  }

  async deleteExpired(now: number) {
    return (await this.#pool.query('DELETE FROM rate_limits WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }
}
