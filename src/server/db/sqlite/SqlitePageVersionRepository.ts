import type Database from 'better-sqlite3';
import type { PageVersionRepository } from '../ports';

/**
 * SQLite has one writer and takes the feed's AUTOINCREMENT seq inside it, so seqs become visible in order and the
 * newest is the version.
 */
export class SqlitePageVersionRepository implements PageVersionRepository {
  #statement: Database.Statement;

  constructor(db: Database.Database) {
    this.#statement = db.prepare(
      `SELECT coalesce((SELECT max(seq) FROM search_changes), 0) AS catalog,
         coalesce((SELECT value FROM search_settings WHERE key = 'revision'), '0') AS rules`,
    );
  }

  async catalogVersion(): Promise<string> {
    const row = this.#statement.get() as { catalog: number; rules: string };
    return `${row.catalog}.${row.rules}`;
  }
}
