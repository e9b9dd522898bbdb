/** Fixed-window counters shared by every process (migration 0012_rate_limits); see security/rateLimiter.ts. */
export interface RateLimitRepository {
  /**
   * Counts one event in `bucket`'s window starting at `windowStart` and answers the window's count so far, this one
   * included: one atomic upsert, so concurrent requests in several processes never both read the same count.
   */
  hit(bucket: string, windowStart: number, expiresAt: number): Promise<number>;
  /**
   * Counts several tries in several buckets of one window, in one transaction (a batch of recorded searches), and
   * answers each bucket's count so far, in the order given. Each bucket appears once.
   */
  hitMany(
    hits: readonly { bucket: string; tries: number }[],
    windowStart: number,
    expiresAt: number,
  ): Promise<number[]>;
  /** The window's count without counting (for checks that only look, such as a login's pre-check). */
  peek(bucket: string, windowStart: number): Promise<number>;
  /** Forgets a bucket's windows (a correct password clears its failures). */
  clear(bucket: string): Promise<void>;
  deleteExpired(now: number): Promise<number>;
}
