import type { BackoffPolicy, BackoffVerdict } from './ports';

/** A `login_backoffs` row (migration 0013) as both engines read it. */
export interface BackoffRow {
  failures: number;
  lockMs: number;
  lockedUntil: number;
  expiresAt: number;
}

/** What the key's stored row says now: a forgotten row counts as none. */
export function backoffVerdict(row: BackoffRow | undefined, now: number): BackoffVerdict {
  if (!row || row.expiresAt <= now) return { allowed: true, failures: 0, retryAfterMs: 0 };
  const retryAfterMs = Math.max(0, row.lockedUntil - now);
  return { allowed: retryAfterMs === 0, failures: row.failures, retryAfterMs };
}

/**
 * One try counted against the row, the same rule on both engines: refused without counting while locked;
 * otherwise one more failure; the `freeFailures`-th locks the key for `firstLockMs`, and each further counted
 * failure doubles the lock, up to `maxLockMs`.
 */
export function takeBackoffRow(
  row: BackoffRow | undefined,
  now: number,
  policy: BackoffPolicy,
): { verdict: BackoffVerdict; row: BackoffRow | null } {
  const current = backoffVerdict(row, now);
  if (!current.allowed) return { verdict: current, row: null };
  const live = row && row.expiresAt > now ? row : undefined;
  const failures = (live?.failures ?? 0) + 1;
  const lockMs =
    failures < policy.freeFailures
      ? 0
      : Math.min(policy.maxLockMs, live?.lockMs ? live.lockMs * 2 : policy.firstLockMs);
  // A free failure locks nothing: a lock ending "now" would refuse a concurrent try whose clock read a moment
  // earlier (tries read the time before they queue for the row), turning a free failure into a refusal.
  const lockedUntil = lockMs > 0 ? now + lockMs : 0;
  return {
    verdict: { allowed: true, failures, retryAfterMs: 0 },
    row: { failures, lockMs, lockedUntil, expiresAt: Math.max(lockedUntil, now + policy.forgetMs) },
  };
}
