import type { PageChanges, PagePart, PageVersionRepository } from '../ports';
import {
  ARCHIVE_TERMS,
  archiveLookup,
  CHANGE_LOG_PART_ROWS_PG,
  CHANGE_LOG_ROWS,
  type ChangeLogRow,
  pageChangesOf,
} from '../sql/pageChangeSql';
import { inTransaction, type PgPool } from './openPostgres';

const RULES = "SELECT coalesce((SELECT value FROM search_settings WHERE key = 'revision'), '0')";

/** How long a read of the log waits for catalog writers in flight before answering "not yet" (asked again soon). */
const CHANGE_LOG_LOCK_TIMEOUT = '200ms';

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
         (${RULES}) AS rules
       FROM search_changes`,
    );
    const [row] = rows;
    return `${row?.max}.${row?.count}.${row?.sum}.${row?.rules}`;
  }

  async pageChangesSince(seq: number, limit: number, part?: PagePart): Promise<PageChanges> {
    try {
      return await inTransaction(this.#pool, async (client) => {
        // As the search replicas read it (PgSearchRepository.changesSince): the SHARE lock waits for every writer
        // of the log in flight, so no seq below the newest read can still commit and be skipped.
        await client.query(`SET LOCAL lock_timeout = '${CHANGE_LOG_LOCK_TIMEOUT}'`);
        await client.query('LOCK TABLE search_changes IN SHARE MODE');
        const rows = (
          part
            ? await client.query<ChangeLogRow>(CHANGE_LOG_PART_ROWS_PG, [seq, limit + 1, part.wideAfter])
            : await client.query<ChangeLogRow>(CHANGE_LOG_ROWS.postgres, [seq, limit + 1])
        ).rows;
        const rules = (await client.query<{ rules: string }>(`${RULES} AS rules`)).rows[0]?.rules ?? '0';
        const changes = pageChangesOf(seq, rows, limit, rules, part !== undefined);
        if (changes.full) {
          const newest = await client.query<{ max: number }>(
            'SELECT coalesce(max(seq), 0)::int AS max FROM search_changes',
          );
          return { ...changes, seq: newest.rows[0]?.max ?? seq };
        }
        const lookup = archiveLookup(changes);
        if (lookup.products.length > 0 || lookup.terms.length > 0)
          changes.archiveTerms = (
            await client.query<{ id: number }>(ARCHIVE_TERMS.postgres, [lookup.products, lookup.terms])
          ).rows.map((row) => row.id);
        return changes;
      });
    } catch (error) {
      // A long catalog write (an import) holds the log: nothing read now; the caller asks again.
      if ((error as { code?: string }).code === '55P03')
        return {
          seq,
          full: false,
          rules: null,
          products: [],
          terms: [],
          vendors: [],
          posts: [],
          archiveTerms: [],
        };
      throw error;
    }
  }
}
