/*
 * Which failures of a write are worth trying again: the database was busy, not the write wrong. A write that broke a
 * constraint or met a missing table fails the same way every time, so it is dropped (and counted) at once.
 */

/** SQLite: the write lock was held (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT…) or a table was locked. */
const SQLITE_TRANSIENT = /^SQLITE_(BUSY|LOCKED)/;

/**
 * PostgreSQL SQLSTATEs: serialization failure, deadlock detected, lock not available (a lock_timeout),
 * too many connections, and the connection exceptions (class 08) of a restarting server.
 */
const PG_TRANSIENT = new Set(['40001', '40P01', '55P03', '53300', '57P01', '57P03']);

export function isTransientWriteError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return SQLITE_TRANSIENT.test(code) || PG_TRANSIENT.has(code) || code.startsWith('08');
}

/** What a log line may say about a failure: its code, never its message (which may quote a row's values). */
export function writeErrorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.name : 'unknown';
}
