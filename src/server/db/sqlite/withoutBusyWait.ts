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

/** How long a request-path write waits out a busy database (asynchronously) before failing with SQLITE_BUSY. */
const REQUEST_WRITE_PATIENCE_MS = 30_000;

/**
 * A write on a request's path that should wait for the lock without holding the process: tried without the
 * synchronous busy wait, then again after a growing pause (20 ms doubling to 500 ms) while SQLite answers busy, for
 * up to 30 s. Other requests are served meanwhile; this one waits.
 */
export async function writeWhenFree<T>(db: SqliteDatabase, work: () => T): Promise<T> {
  const started = Date.now();
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    try {
      return withoutBusyWait(db, work);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const busy = typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
      if (!busy || Date.now() - started >= REQUEST_WRITE_PATIENCE_MS) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
