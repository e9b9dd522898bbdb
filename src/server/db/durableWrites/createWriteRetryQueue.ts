import { isTransientWriteError, writeErrorCode } from './isTransientWriteError';

/*
 * Fire-and-forget writes a shopper's request makes after its answer (search analytics, the facts behind the
 * owner's figures) must land even while a catalog import holds the database: a write that fails because the
 * database is busy waits here and is tried again, in order, with a growing pause, until it lands or is too old.
 *
 * Memory is bounded: at most `maxPending` writes are queued or running; one more is dropped. Every write that is
 * given up (queue full, too old, or a failure that is not transient) is counted per kind, shown by GET /healthz
 * (expected 0), and logged at warn level with its kind and error code only: never the write's values.
 *
 * While nothing waits, a write runs at once (several may run together on PostgreSQL's pool). Once one is waiting,
 * later ones queue behind it, so a busy database is asked again by one write at a time, not by every request.
 */

export const DURABLE_WRITE_KINDS = ['searchQueries', 'searchCartAdds', 'orderLinks'] as const;
export type DurableWriteKind = (typeof DURABLE_WRITE_KINDS)[number];

export type DroppedWrites = Record<DurableWriteKind, number>;

export interface WriteRetryOptions {
  /** Writes queued or running at most; one more is dropped. */
  maxPending: number;
  /** The first pause after a busy failure; it doubles up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A write first tried longer ago than this is given up (an import that never ends must not grow the queue). */
  giveUpAfterMs: number;
  now?: () => number;
  /** Told of every dropped write (kind, why, the error's code, the kind's total so far). */
  onDrop?: (drop: { kind: DurableWriteKind; reason: DropReason; code?: string; dropped: number }) => void;
}

export type DropReason = 'queue_full' | 'gave_up' | 'failed';

export interface WriteRetryQueue {
  /**
   * Runs `write` now, or after what is waiting. Resolves once its first try is over (landed, waiting to be tried
   * again, or dropped), so a caller may await it to keep its own order; never rejects.
   */
  submit(kind: DurableWriteKind, write: () => Promise<void>): Promise<void>;
  /** Writes given up so far, per kind. */
  dropped(): DroppedWrites;
  /** Writes queued or running. */
  pending(): number;
  /** Resolves once nothing is queued or running (on shutdown, and for tests). */
  idle(): Promise<void>;
}

export const DEFAULT_WRITE_RETRY: WriteRetryOptions = {
  maxPending: 10_000,
  baseDelayMs: 20,
  maxDelayMs: 1_000,
  giveUpAfterMs: 5 * 60_000,
};

interface Entry {
  kind: DurableWriteKind;
  write: () => Promise<void>;
  firstTriedAt: number;
}

export function createWriteRetryQueue(options: WriteRetryOptions = DEFAULT_WRITE_RETRY): WriteRetryQueue {
  const { maxPending, baseDelayMs, maxDelayMs, giveUpAfterMs, now = Date.now, onDrop } = options;
  const dropped = Object.fromEntries(DURABLE_WRITE_KINDS.map((kind) => [kind, 0])) as DroppedWrites;
  /** Writes waiting to be tried again, oldest first. */
  const waiting: Entry[] = [];
  let running = 0;
  let draining = false;
  let idleWaiters: (() => void)[] = [];

  function drop(kind: DurableWriteKind, reason: DropReason, error?: unknown) {
    dropped[kind] += 1;
    onDrop?.({
      kind,
      reason,
      ...(error === undefined ? {} : { code: writeErrorCode(error) }),
      dropped: dropped[kind],
    });
  }

  function settle() {
    if (running > 0 || waiting.length > 0 || draining) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The first try, while nothing waits: a busy failure joins the waiting line. */
  async function tryNow(entry: Entry) {
    running += 1;
    try {
      await entry.write();
    } catch (error) {
      if (isTransientWriteError(error)) {
        waiting.push(entry);
        void drain();
      } else drop(entry.kind, 'failed', error);
    } finally {
      running -= 1;
      settle();
    }
  }

  /** One write at a time from the head of the line, pausing longer after each busy failure. */
  async function drain() {
    if (draining) return;
    draining = true;
    let failures = 0;
    try {
      while (waiting.length > 0) {
        const entry = waiting[0] as Entry;
        if (failures > 0) {
          const delay = Math.min(baseDelayMs * 2 ** (failures - 1), maxDelayMs);
          await new Promise((resolve) => setTimeout(resolve, delay).unref());
        }
        try {
          await entry.write();
          waiting.shift();
          failures = 0;
        } catch (error) {
          if (!isTransientWriteError(error)) {
            waiting.shift();
            drop(entry.kind, 'failed', error);
          } else if (now() - entry.firstTriedAt >= giveUpAfterMs) {
            waiting.shift();
            drop(entry.kind, 'gave_up', error);
          } else failures += 1;
        }
      }
    } finally {
      draining = false;
      settle();
    }
  }

  return {
    submit(kind, write) {
      if (running + waiting.length >= maxPending) {
        drop(kind, 'queue_full');
        return Promise.resolve();
      }
      const entry = { kind, write, firstTriedAt: now() };
      if (waiting.length === 0) return tryNow(entry);
      waiting.push(entry);
      return Promise.resolve();
    },
    dropped: () => ({ ...dropped }),
    pending: () => running + waiting.length,
    idle() {
      if (running === 0 && waiting.length === 0 && !draining) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
