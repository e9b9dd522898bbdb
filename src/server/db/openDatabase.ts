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
  memoizeStatements(db);
  return db;
}

/** How many distinct statements a connection keeps compiled; past it they are all compiled again as used. */
const STATEMENT_CACHE_SIZE = 1_000;

/**
 * `prepare` compiles SQL every time it is called, and the repositories call it on every request: compiling the
 * same few statements was a tenth of a page's render. Each connection keeps what it compiled, by SQL text. A
 * statement comes back in its default mode (not plucked, raw or expanded), since callers set the mode they need
 * on the statement they are handed; none binds parameters for good or iterates, which a shared statement would
 * not allow.
 */
function memoizeStatements(db: SqliteDatabase): void {
  const statements = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      statement = prepare(sql);
      statements.set(sql, statement);
    } else if (statement.reader) {
      statement.pluck(false).expand(false).raw(false);
    }
    return statement;
  }) as SqliteDatabase['prepare'];
}
