import type Database from 'better-sqlite3';
import type { PageChanges, PagePart, PageVersionRepository } from '../ports';
import {
  ARCHIVE_TERMS,
  archiveLookup,
  CHANGE_LOG_ROWS,
  type ChangeLogRow,
  pageChangesOf,
} from '../sql/pageChangeSql';

const RULES = "SELECT coalesce((SELECT value FROM search_settings WHERE key = 'revision'), '0')";

/**
 * SQLite has one writer and takes the feed's AUTOINCREMENT seq inside it, so seqs become visible in order and the
 * newest is the version.
 */
export class SqlitePageVersionRepository implements PageVersionRepository {
  #version: Database.Statement;
  #rows: Database.Statement;
  #archives: Database.Statement;
  #rules: Database.Statement;
  #newest: Database.Statement;

  constructor(db: Database.Database) {
    this.#version = db.prepare(
      `SELECT coalesce((SELECT max(seq) FROM search_changes), 0) AS catalog, (${RULES}) AS rules`,
    );
    this.#rows = db.prepare(CHANGE_LOG_ROWS.sqlite);
    this.#archives = db.prepare(ARCHIVE_TERMS.sqlite).pluck();
    this.#rules = db.prepare(RULES).pluck();
    this.#newest = db.prepare('SELECT coalesce(max(seq), 0) FROM search_changes').pluck();
  }

  async catalogVersion(): Promise<string> {
    const row = this.#version.get() as { catalog: number; rules: string };
    return `${row.catalog}.${row.rules}`;
  }

  async pageChangesSince(seq: number, limit: number, part?: PagePart): Promise<PageChanges> {
    const rows = this.#rows.all(part?.wideAfter ?? seq, seq, limit + 1) as ChangeLogRow[];
    const changes = pageChangesOf(seq, rows, limit, String(this.#rules.get()), part !== undefined);
    if (changes.full) return { ...changes, seq: this.#newest.get() as number };
    const lookup = archiveLookup(changes);
    if (lookup.products.length > 0 || lookup.terms.length > 0)
      changes.archiveTerms = this.#archives.all(
        JSON.stringify(lookup.products),
        JSON.stringify(lookup.terms),
      ) as number[];
    return changes;
  }
}
