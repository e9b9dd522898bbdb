import type { SqliteDatabase } from '../openDatabase';

/** How long the import's process keeps trying, and how often: the server's readers move on within milliseconds. */
const CHECKPOINT_WAIT_MS = 2000;
const CHECKPOINT_EVERY_MS = 25;

/*
 * A big import leaves its pages in the WAL, and SQLite copies them into the database file (a checkpoint) in whichever
 * connection commits past the WAL's threshold next. The import's own commit cannot copy them while the server's
 * readers still hold the snapshot from before it (a page such a reader may still read from the file must not be
 * overwritten yet), so the server's next write did it: after an import of 20,000 products, a shopper's search
 * recorded took 50 ms with every request waiting behind it. The import's process copies them instead, once the
 * readers have moved on: a passive checkpoint (it never waits for a lock), tried again until the WAL is all copied.
 * Returns whether it was; if not, SQLite's next checkpoint copies the rest, as before.
 */
export async function checkpointAfterImport(
  db: SqliteDatabase,
  { waitMs = CHECKPOINT_WAIT_MS, everyMs = CHECKPOINT_EVERY_MS } = {},
): Promise<boolean> {
  const started = Date.now();
  for (;;) {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
    // Not a WAL database (log -1), or every frame copied.
    if (!result || result.checkpointed >= result.log) return true;
    if (Date.now() - started >= waitMs) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
