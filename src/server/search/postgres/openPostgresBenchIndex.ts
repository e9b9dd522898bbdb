import pg from 'pg';
import { survivingDroppedConnections } from '../../db/postgres/openPostgres';
import { createTestDatabase } from '../../db/postgres/testDatabase';
import { createPostgresSearchIndex, type PostgresSearchIndex } from './PostgresSearchIndex';

/**
 * For bench/search.bench.mjs: a PostgresSearchIndex in a fresh database on TEST_DATABASE_URL's server
 * (`node scripts/ensure-postgres.mjs -- npm run bench -- search`), with the size of its tables, dropped on close.
 */
export async function openPostgresBenchIndex(): Promise<{
  index: PostgresSearchIndex;
  sizeMb(): Promise<number>;
  close(): Promise<void>;
}> {
  const database = await createTestDatabase();
  const pool = survivingDroppedConnections(new pg.Pool({ connectionString: database.url, max: 4 }));
  const index = await createPostgresSearchIndex(pool);
  return {
    index,
    async sizeMb() {
      const { rows } = await pool.query<{ bytes: string }>(
        `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
         WHERE c.relkind = 'r' AND c.relname LIKE 'search_index_%'`,
      );
      return Number(rows[0]?.bytes ?? 0) / 2 ** 20;
    },
    async close() {
      await pool.end();
      await database.drop();
    },
  };
}
