import pg from 'pg';
import { MIGRATIONS_DIR, readMigrations } from '../migrationSql';

export type PgPool = pg.Pool;
export type PgClient = pg.PoolClient;
/** What a query can run on: the pool (autocommit) or one client inside a transaction. */
export type Queryable = Pick<pg.Pool, 'query'>;

/*
 * BIGINT (our integers, counts) and NUMERIC (sums) arrive as strings by default so that nothing above 2^53 loses
 * precision; the shop's values (ids, minor units, Unix milliseconds) stay far below that, and the repositories
 * return numbers as the SQLite ones do. The parsers are set on this pool's clients only, not process-wide.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    if (oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * PostgreSQL's text cannot hold U+0000, which SQLite stores and compares like any character; a NUL in a value
 * (a slug or search term from a URL, a field of a hit) would make the query fail and the page answer 500. Such a
 * value cannot equal anything stored, so it becomes U+FFFD: lookups find nothing, as on SQLite, and writes keep
 * the rest of the text.
 */
function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.includes('\0') ? value.replaceAll('\0', '\uFFFD') : value;
  if (Array.isArray(value)) return value.map(withoutNul);
  return value;
}

class NulSafeClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this only rewrites values.
  override query(config: any, values?: any, callback?: any): any {
    if (Array.isArray(values)) return super.query(config, values.map(withoutNul), callback);
    if (
      config &&
      typeof config === 'object' &&
      typeof config.submit !== 'function' &&
      Array.isArray(config.values)
    ) {
      return super.query({ ...config, values: config.values.map(withoutNul) }, values, callback);
    }
    return super.query(config, values, callback);
  }
}

/**
 * Every connection without JIT compilation: PostgreSQL compiles a statement whose estimate passes `jit_above_cost`,
 * and a shop's statements are short; during an import, with the catalog's statistics not yet caught up, a term count
 * for the search index took 950 ms and an import statement 2.5 s, most of it compiling (auto_explain).
 */
const NO_JIT = '-c jit=off';

/** A connection pool for DATABASE_URL with the schema brought up to date. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<PgPool> {
  const pool = survivingDroppedConnections(
    new pg.Pool({
      connectionString: url,
      max: options.max ?? 10,
      types,
      Client: NulSafeClient,
      options: NO_JIT,
    }),
  );
  await migratePostgres(pool);
  return pool;
}

/**
 * A connection the server closes (restart, failover, a dropped test database) must not crash the process: the
 * pool replaces it, and a query that was using it fails on its own. Idle clients report to the pool, a client
 * being ended by pool.end() (or still checked out) to itself.
 */
export function survivingDroppedConnections<P extends pg.Pool>(pool: P): P {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Runs `work` in one transaction on one client: COMMIT when it resolves, ROLLBACK when it throws. */
export async function inTransaction<T>(pool: PgPool, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Applies pending migrations, each in its own transaction. Several server processes may start at once: a
 * transaction-scoped advisory lock makes them take turns, and each re-reads what is applied under the lock.
 */
export async function migratePostgres(pool: PgPool, dir = MIGRATIONS_DIR): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of readMigrations('postgres', dir)) {
    await inTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(7263001)');
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)',
      );
      const seen = await client.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
      if (seen.rowCount) return;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (name, applied_at) VALUES ($1, $2)', [
        migration.name,
        new Date().toISOString(),
      ]);
      applied.push(migration.name);
    });
  }
  return applied;
}
