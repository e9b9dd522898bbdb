import type { SqliteDatabase } from '../openDatabase';

/*
 * better-sqlite3 waits for a busy lock synchronously: the connection's busy timeout (openDatabase) holds the whole
 * process, every shopper's request with it, for as long as another process (an import) keeps the write lock. A
 * write that a retry queue will try again (db/durableWrites) must not wait that way: it fails at once with
 * SQLITE_BUSY and is tried again later, while the event loop goes on serving pages.
 */
export function withoutBusyWait<T>(db: SqliteDatabase, work: () => T): T {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return work();
  } finally {
    db.pragma(`busy_timeout = ${Number(timeout)}`);
  }
}
