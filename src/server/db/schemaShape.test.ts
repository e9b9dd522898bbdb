import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSqlFor } from './migrationSql';
import { openDatabase, type SqliteDatabase } from './openDatabase';
import { openPostgres, type PgPool } from './postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from './postgres/testDatabase';

/** The schema as both engines can describe it: what the repositories rely on, engine spelling aside. */
interface Shape {
  columns: string[];
  indexes: string[];
  foreignKeys: string[];
}

function typeClass(type: string): string {
  const t = type.toLowerCase();
  if (t.includes('int')) return 'integer';
  if (t.includes('real') || t.includes('double')) return 'real';
  if (t.includes('text') || t.includes('char')) return 'text';
  return t;
}

function sqliteShape(db: SqliteDatabase): Shape {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  const shape: Shape = { columns: [], indexes: [], foreignKeys: [] };
  for (const table of tables) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as {
      name: string;
      type: string;
      notnull: number;
      pk: number;
      dflt_value: string | null;
    }[];
    for (const c of columns) {
      // A primary key column is NOT NULL in PostgreSQL; SQLite only says so when it is written out.
      const notNull = c.notnull === 1 || c.pk > 0;
      shape.columns.push(
        `${table}.${c.name} ${typeClass(c.type)}${notNull ? ' not null' : ''}${c.pk ? ' pk' : ''}`,
      );
    }
    const indexes = db.prepare(`PRAGMA index_list(${table})`).all() as {
      name: string;
      unique: number;
      origin: string;
    }[];
    for (const index of indexes) {
      if (index.origin === 'pk') continue;
      const cols = (db.prepare(`PRAGMA index_info(${index.name})`).all() as { name: string }[]).map(
        (r) => r.name,
      );
      // Constraint indexes have engine-made names; compare them by their columns.
      const name = index.origin === 'c' ? index.name : 'unique';
      shape.indexes.push(`${table}(${cols.join(',')})${index.unique ? ' unique' : ''} ${name}`);
    }
    const fks = db.prepare(`PRAGMA foreign_key_list(${table})`).all() as {
      table: string;
      from: string;
      to: string;
      on_delete: string;
    }[];
    for (const fk of fks) {
      shape.foreignKeys.push(
        `${table}.${fk.from} → ${fk.table}.${fk.to} on delete ${fk.on_delete.toLowerCase()}`,
      );
    }
  }
  return sort(shape);
}

async function postgresShape(pool: PgPool): Promise<Shape> {
  const shape: Shape = { columns: [], indexes: [], foreignKeys: [] };
  const pk = await pool.query(`
    SELECT tc.table_name, kcu.column_name FROM information_schema.table_constraints tc
    JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name
    WHERE tc.table_schema = 'public' AND tc.constraint_type = 'PRIMARY KEY'`);
  const pkColumns = new Set(pk.rows.map((r) => `${r.table_name}.${r.column_name}`));
  const columns = await pool.query(`
    SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
    WHERE table_schema = 'public'`);
  for (const c of columns.rows) {
    const key = `${c.table_name}.${c.column_name}`;
    shape.columns.push(
      `${key} ${typeClass(c.data_type)}${c.is_nullable === 'NO' ? ' not null' : ''}${pkColumns.has(key) ? ' pk' : ''}`,
    );
  }
  const indexes = await pool.query(`
    SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique, ix.indisprimary,
           EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid) AS is_constraint,
           ARRAY(SELECT pg_get_indexdef(ix.indexrelid, k.n::int, true)
                 FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n) ORDER BY k.n) AS columns
    FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`);
  for (const index of indexes.rows) {
    if (index.indisprimary) continue;
    const name = index.is_constraint ? 'unique' : index.index_name;
    // Columns as pg_get_indexdef spells them (a reserved word quoted); an index on lower(x) is the twin of
    // SQLite's index on x COLLATE NOCASE (the listings' order by name).
    const columns = (index.columns as string[]).map((column) => {
      const bare = column.replace(/^"(.*)"$/, '$1');
      return /^lower\((\w+)\)$/.exec(bare)?.[1] ?? bare;
    });
    shape.indexes.push(
      `${index.table_name}(${columns.join(',')})${index.indisunique ? ' unique' : ''} ${name}`,
    );
  }
  const fks = await pool.query(`
    SELECT c.conrelid::regclass::text AS table_name, a.attname AS from_col, c.confrelid::regclass::text AS ref_table,
           af.attname AS to_col, c.confdeltype
    FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    JOIN pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = c.confkey[1]
    WHERE c.contype = 'f'`);
  const action: Record<string, string> = {
    a: 'no action',
    c: 'cascade',
    n: 'set null',
    r: 'restrict',
    d: 'set default',
  };
  for (const fk of fks.rows) {
    shape.foreignKeys.push(
      `${fk.table_name}.${fk.from_col} → ${fk.ref_table}.${fk.to_col} on delete ${action[fk.confdeltype]}`,
    );
  }
  return sort(shape);
}

function sort(shape: Shape): Shape {
  return {
    columns: shape.columns.sort(),
    indexes: shape.indexes.sort(),
    foreignKeys: shape.foreignKeys.sort(),
  };
}

describe('migration translation', () => {
  it('maps the portable subset and keeps each engine block for its engine only', () => {
    const sql = [
      'CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, r REAL,',
      "  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')));",
      '-- engine: sqlite',
      'CREATE VIRTUAL TABLE f USING fts5(x);',
      '-- engine: end',
      '-- engine: postgres',
      'CREATE INDEX t_r ON t(r);',
      '-- engine: end',
    ].join('\n');
    const pg = migrationSqlFor('postgres', sql);
    expect(pg).toContain('id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY');
    expect(pg).toContain('n BIGINT NOT NULL');
    expect(pg).toContain('r DOUBLE PRECISION');
    expect(pg).toContain("to_char(now() AT TIME ZONE 'UTC'");
    expect(pg).toContain('CREATE INDEX t_r');
    expect(pg).not.toContain('fts5');
    const lite = migrationSqlFor('sqlite', sql);
    expect(lite).toContain('fts5');
    expect(lite).not.toContain('CREATE INDEX t_r');
  });

  it('refuses SQLite-only syntax outside an engine block for PostgreSQL', () => {
    expect(() => migrationSqlFor('postgres', "INSERT OR IGNORE INTO options VALUES ('a', 'b');")).toThrow(
      /SQLite-only/,
    );
    expect(migrationSqlFor('sqlite', "INSERT OR IGNORE INTO options VALUES ('a', 'b');")).toContain(
      'OR IGNORE',
    );
  });
});

describe.skipIf(!TEST_DATABASE_URL)('schema shape on both engines', () => {
  let dataDir: string;
  let sqlite: SqliteDatabase;
  let pool: PgPool;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'shape-'));
    sqlite = openDatabase(dataDir);
    const database = await createTestDatabase();
    drop = database.drop;
    pool = await openPostgres(database.url);
  });

  afterAll(async () => {
    sqlite?.close();
    rmSync(dataDir, { recursive: true, force: true });
    await pool?.end();
    await drop?.();
  });

  it('gives the same tables, columns (type class, not null, key), indexes and foreign keys', async () => {
    const lite = sqliteShape(sqlite);
    const pg = await postgresShape(pool);
    expect(lite.columns.length).toBeGreaterThan(100);
    expect(pg).toEqual(lite);
  });

  it('applies each migration once when several processes migrate at the same time', async () => {
    const { migratePostgres } = await import('./postgres/openPostgres');
    const again = await Promise.all([migratePostgres(pool), migratePostgres(pool)]);
    expect(again).toEqual([[], []]);
    const names = await pool.query('SELECT name FROM schema_migrations');
    expect(names.rowCount).toBe(new Set(names.rows.map((r) => r.name)).size);
  });
});
