import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrate } from '../../src/server/db/migrate';

/** Where a PostgreSQL-backed test shop keeps its database URL (startShop.ts). */
const DATABASE_URL_FILE = 'database-url';

/**
 * Reads the running shop's database (read-only) to check what a flow stored. A shop on PostgreSQL is read
 * through a snapshot: every table copied (with `psql`, synchronously, so the callers stay as they are) into an
 * in-memory SQLite database of the same schema, which the callback then reads with the same SQL.
 */
export function readShopDatabase<T>(dataDir: string, read: (db: Database.Database) => T): T {
  const urlFile = join(dataDir, DATABASE_URL_FILE);
  const db = existsSync(urlFile)
    ? snapshotOfPostgres(readFileSync(urlFile, 'utf8'))
    : new Database(join(dataDir, 'shop.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * Writes to the running shop's database on either engine, as another process would (`?` placeholders): for
 * rows a test needs that no request can make, such as statistics of a past day.
 */
export async function writeShopDatabase(dataDir: string, sql: string, params: unknown[] = []): Promise<void> {
  const urlFile = join(dataDir, DATABASE_URL_FILE);
  if (!existsSync(urlFile)) {
    const db = new Database(join(dataDir, 'shop.sqlite'), { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: readFileSync(urlFile, 'utf8') });
  await client.connect();
  try {
    let n = 0;
    await client.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await client.end();
  }
}

export function countOrders(dataDir: string): number {
  return readShopDatabase(dataDir, (db) => db.prepare('SELECT COUNT(*) FROM orders').pluck().get() as number);
}

function snapshotOfPostgres(databaseUrl: string): Database.Database {
  const db = new Database(':memory:');
  migrate(db);
  db.pragma('foreign_keys = OFF');
  // The copy brings search_changes as it is: the search triggers must not add rows of their own while copying.
  for (const trigger of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").pluck().all()) {
    db.exec(`DROP TRIGGER "${trigger}"`);
  }
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'",
    )
    .pluck()
    .all() as string[];
  // A function takes at most 100 arguments (two per table): the tables go in groups, merged with jsonb's ||.
  const groups: string[][] = [];
  for (let i = 0; i < tables.length; i += 40) groups.push(tables.slice(i, i + 40));
  const query = `SELECT ${groups
    .map(
      (group) =>
        `jsonb_build_object(${group
          .map((table) => `'${table}', (SELECT COALESCE(jsonb_agg(t), '[]'::jsonb) FROM ${table} t)`)
          .join(', ')})`,
    )
    .join(' || ')}`;
  const json = execFileSync(
    'psql',
    [databaseUrl, '-X', '-q', '-t', '-A', '-v', 'ON_ERROR_STOP=1', '-c', query],
    {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const rows = JSON.parse(json) as Record<string, Record<string, unknown>[]>;
  db.transaction(() => {
    for (const table of tables) {
      for (const row of rows[table] ?? []) {
        const columns = Object.keys(row);
        db.prepare(
          `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        ).run(...columns.map((column) => row[column] ?? null));
      }
    }
  })();
  return db;
}
