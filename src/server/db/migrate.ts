import type Database from 'better-sqlite3';
import { MIGRATIONS_DIR, readMigrations } from './migrationSql';

/**
 * Applies the SQL files of the migrations folder that the database has not seen, in name order, each in its own
 * transaction, so a failed migration leaves the schema as it was.
 */
export function migrate(db: Database.Database, dir = MIGRATIONS_DIR): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT name FROM schema_migrations').pluck().all() as string[]);
  const pending = readMigrations('sqlite', dir).filter((migration) => !applied.has(migration.name));
  for (const { name: file, sql } of pending) {
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(
        file,
        new Date().toISOString(),
      );
    })();
  }
  return pending.map((migration) => migration.name);
}
