import type { SqliteDatabase } from '../src/server/db/openDatabase';
import type { Repositories } from '../src/server/db/ports';
import { createPgRepositories } from '../src/server/db/postgres/createPgRepositories';
import { openPostgres, type PgPool } from '../src/server/db/postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../src/server/db/postgres/testDatabase';
import { createPostgresSearchIndex } from '../src/server/search/postgres/PostgresSearchIndex';
import type { SearchIndex } from '../src/server/search/SearchIndex';

export interface TestEngine {
  repositories: Repositories;
  /** On PostgreSQL the shared index over the test's database, as a server on PostgreSQL uses; else the embedded one. */
  searchIndex?: SearchIndex;
  /** The SQLite handle; throws on PostgreSQL, where there is none. */
  db(): SqliteDatabase;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The test's own PostgreSQL database, for a second connection to it; null on SQLite. */
  databaseUrl: string | null;
  /** Drops the test's PostgreSQL database (nothing for SQLite, whose file goes with the data dir). */
  drop(): Promise<void>;
}

/**
 * The repositories an in-process test app runs on: SQLite in the data dir (`npm test`), or, when
 * TEST_DATABASE_URL is set (`npm run test:postgres`), a fresh PostgreSQL database of its own, so the same
 * `app.inject` tests check both engines.
 */
export async function testRepositories(
  openSqlite: () => { db: SqliteDatabase; repositories: Repositories },
): Promise<TestEngine> {
  if (!TEST_DATABASE_URL) {
    const { db, repositories } = openSqlite();
    return {
      repositories,
      db: () => db,
      async query<T>(sql: string, params: unknown[] = []) {
        const statement = db.prepare(sql);
        // better-sqlite3 runs a statement that returns no rows (INSERT, DELETE) with run(), not all().
        if (!statement.reader) {
          statement.run(...params);
          return [];
        }
        return statement.all(...params) as T[];
      },
      databaseUrl: null,
      async drop() {},
    };
  }
  const database = await createTestDatabase();
  const pool = await openPostgres(database.url, { max: 4 });
  return {
    repositories: createPgRepositories(pool),
    searchIndex: await createPostgresSearchIndex(pool),
    db: () => {
      throw new Error('This test reads SQLite directly; on PostgreSQL use the test app’s query()');
    },
    query: pgQuery(pool),
    databaseUrl: database.url,
    drop: database.drop,
  };
}

/** A test's `query` on a PostgreSQL pool: the SQLite-style `?` placeholders become `$1, $2…`. */
export function pgQuery(pool: { query: PgPool['query'] }) {
  return async <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => {
    let n = 0;
    return (
      await pool.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as T[];
  };
}
