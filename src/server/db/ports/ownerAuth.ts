/** How one key's failures back off (see owner/loginLimiter.ts for the numbers and why). */
export interface BackoffPolicy {
  /** The counted failure that sets the first lock (the ones before it only count). */
  freeFailures: number;
  /** The first lock; each further counted failure doubles it. */
  firstLockMs: number;
  maxLockMs: number;
  /** A key's failures are forgotten this long after its last counted try. */
  forgetMs: number;
}

export interface BackoffVerdict {
  allowed: boolean;
  /** Counted failures so far, this try included when it was allowed. */
  failures: number;
  /** Milliseconds until the key may try again (0 when it is not locked). */
  retryAfterMs: number;
}

/** The owner's password and address as `npm run owner -- set-password` stored them (migration 0018). */
export interface OwnerAccount {
  passwordHash: string;
  email: string | null;
}

/** The owner's server-side sessions and the back-off of credential checks (migration 0013), and the account. */
export interface OwnerAuthRepository {
  getOwnerAccount(): Promise<OwnerAccount | null>;
  /** Sets the password hash; `email` undefined keeps the stored address, null clears it. */
  setOwnerAccount(passwordHash: string, email: string | null | undefined, now: number): Promise<void>;
  createSession(tokenHash: string, credentials: string, createdAt: number, expiresAt: number): Promise<void>;
  /** Whether the session exists, has not expired and was opened with the current credentials. */
  hasSession(tokenHash: string, credentials: string, now: number): Promise<boolean>;
  deleteSession(tokenHash: string): Promise<void>;
  /** "Log out everywhere". */
  deleteAllSessions(): Promise<void>;
  /** The key's lock, without counting anything. */
  peekBackoff(bucket: string, now: number): Promise<BackoffVerdict>;
  /**
   * Counts one try of `bucket` as a failure before the credential is checked (so concurrent tries can never all
   * pass an unlocked check), unless the key is locked: then nothing is counted and the try is refused. Atomic on
   * both engines (one write transaction on SQLite, a row lock on PostgreSQL).
   */
  takeBackoff(bucket: string, now: number, policy: BackoffPolicy): Promise<BackoffVerdict>;
  /** A right credential forgets the key's failures and lock. */
  clearBackoff(bucket: string): Promise<void>;
  deleteExpired(now: number): Promise<void>;
}
