import type { PgClient } from './openPostgres';

/**
 * The PostgreSQL side of db/sqlite/withoutBusyWait.ts, for writes the retry queue owns (db/durableWrites): inside
 * their transaction, a lock held elsewhere for longer than this fails the write with 55P03, which the queue tries
 * again later. Waiting instead would keep a pool connection per waiting write, and a few of them would leave every
 * shopper's request of the process waiting for a connection.
 */
export async function withoutLockWait(client: PgClient): Promise<void> {
  await client.query("SET LOCAL lock_timeout = '200ms'");
}
