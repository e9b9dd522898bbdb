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
    // SQLite cannot alter a CHECK constraint; its documented way is to edit the stored definition under
    // `PRAGMA writable_schema`, which better-sqlite3's defensive mode refuses. Only such a migration lifts it.
    const editsSchema = /\bwritable_schema\b/i.test(sql);
    if (editsSchema) db.unsafeMode(true);
    try {
      db.transaction(() => {
        db.exec(sql);
        if (editsSchema) assertIntegrity(db, file);
        db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(
          file,
          new Date().toISOString(),
        );
      })();
    } finally {
      if (editsSchema) db.unsafeMode(false);
    }
  }
  return pending.map((migration) => migration.name);
}

/** A hand-edited schema must still parse and match its data: a wrong edit rolls the migration back. */
function assertIntegrity(db: Database.Database, file: string) {
  const result = db.prepare('PRAGMA integrity_check').pluck().all() as string[];
  if (result.join() !== 'ok') throw new Error(`${file} left the schema inconsistent: ${result.join('; ')}`);
}
