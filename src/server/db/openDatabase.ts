import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';

export type SqliteDatabase = Database.Database;

/** Opens (creating if needed) the shop's SQLite file in the data dir and brings its schema up to date. */
export function openDatabase(dataDir: string): SqliteDatabase {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'shop.sqlite'));
  // WAL lets readers (page renders) run while a writer (an order, an import) commits.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Several processes may open the same file (npm run import while the shop runs): wait rather than fail.
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
