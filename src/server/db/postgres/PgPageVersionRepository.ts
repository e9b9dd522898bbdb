import type { PageVersionRepository } from '../ports';
import type { PgPool } from './openPostgres';

/**
 * On PostgreSQL a writer takes its feed seq before it commits, so a long write (an import) can commit a seq below
 * one already visible and the newest seq alone would not move. The feed holds one row per changed object (a change
 * replaces the object's older row with a higher seq), so the row count with the sum of seqs moves at every commit
 * that touches it; the table is as small as the catalog, read at most every 200 ms per process.
 */
export class PgPageVersionRepository implements PageVersionRepository {
  #pool: PgPool;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async catalogVersion(): Promise<string> {
    const { rows } = await this.#pool.query<{ count: string; sum: string; max: string; rules: string }>(
      `SELECT count(*)::text AS count, coalesce(sum(seq), 0)::text AS sum, coalesce(max(seq), 0)::text AS max,
         coalesce((SELECT value FROM search_settings WHERE key = 'revision'), '0') AS rules
       FROM search_changes`,
    );
    const [row] = rows;
    return `${row?.max}.${row?.count}.${row?.sum}.${row?.rules}`;
  }
}
