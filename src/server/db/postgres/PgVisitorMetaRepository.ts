import type { VisitorMetaRepository } from '../ports';
import type { PgPool } from './openPostgres';

export class PgVisitorMetaRepository implements VisitorMetaRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async get(sessionId: string, key: string) {
    const { rows } = await this.#pool.query(
      'SELECT value FROM visitor_meta WHERE session_id = $1 AND key = $2',
      [sessionId, key],
    );
    return (rows[0]?.value as string | undefined) ?? null;
  }

  async set(sessionId: string, key: string, value: string) {
    await this.#pool.query(
      `INSERT INTO visitor_meta (session_id, key, value) VALUES ($1, $2, $3)
       ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value`,
      [sessionId, key, value],
    );
  }
}
