import { isTransientWriteError, writeErrorCode } from './isTransientWriteError';

/*
 * Fire-and-forget writes a shopper's request makes after its answer (search analytics, the facts behind the
 * owner's figures) must land even while a catalog import holds the database: a write that fails because the
 * database is busy waits here and is tried again, in order, with a growing pause, until it lands or is too old.
 *
 * Memory is bounded: at most `maxPending` rows are queued or running (a batched write counts its rows); a write past
 * that is dropped. Every row given up (queue full, too old, or a failure that is not transient) is counted per kind,
 * shown by GET /healthz (expected 0), and logged at warn level with its kind and error code only: never the write's
 * values.
 *
 * While nothing waits, a write runs at once (several may run together on PostgreSQL's pool). Once one is waiting,
 * later ones queue behind it, so a busy database is asked again by one write at a time, not by every request; once
 * it is free, the line is written one write per turn of the event loop.
 */

export const DURABLE_WRITE_KINDS = ['searchQueries', 'searchCartAdds', 'orderLinks'] as const;
export type DurableWriteKind = (typeof DURABLE_WRITE_KINDS)[number];

export type DroppedWrites = Record<DurableWriteKind, number>;

export interface WriteRetryOptions {
  /** Rows queued or running at most (a batch counts its rows); a write past it is dropped. */
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
   * again, or dropped), so a caller may await it to keep its own order; never rejects. `rows`: how many records the
   * write carries (a batch), what the bound and the dropped counts are kept in.
   */
  submit(kind: DurableWriteKind, write: () => Promise<void>, rows?: number): Promise<void>;
  /** Rows given up so far, per kind. */
  dropped(): DroppedWrites;
  /** Rows queued or running. */
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
  rows: number;
  write: () => Promise<void>;
  firstTriedAt: number;
}

export function createWriteRetryQueue(options: WriteRetryOptions = DEFAULT_WRITE_RETRY): WriteRetryQueue {
  const { maxPending, baseDelayMs, maxDelayMs, giveUpAfterMs, now = Date.now, onDrop } = options;
  const dropped = Object.fromEntries(DURABLE_WRITE_KINDS.map((kind) => [kind, 0])) as DroppedWrites;
  /** Writes waiting to be tried again, oldest first. */
  const waiting: Entry[] = [];
  /** Rows of the writes running their first try, and of those waiting. */
  let running = 0;
  let waitingRows = 0;
  let draining = false;
  let idleWaiters: (() => void)[] = [];

  function drop(
    { kind, rows }: { kind: DurableWriteKind; rows: number },
    reason: DropReason,
    error?: unknown,
  ) {
    dropped[kind] += rows;
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
    running += entry.rows;
    try {
      await entry.write();
    } catch (error) {
      if (isTransientWriteError(error)) {
        wait(entry);
        void drain();
      } else drop(entry, 'failed', error);
    } finally {
      running -= entry.rows;
      settle();
    }
  }

  function wait(entry: Entry) {
    waiting.push(entry);
    waitingRows += entry.rows;
  }

  function unwait() {
    const entry = waiting.shift() as Entry;
    waitingRows -= entry.rows;
    return entry;
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
          unwait();
          failures = 0;
          // Requests get a turn between two writes of the line: an import that held the lock for seconds leaves
          // hundreds behind, which written back to back held the event loop for a few hundred milliseconds.
          if (waiting.length > 0) await new Promise((resolve) => setImmediate(resolve));
        } catch (error) {
          if (!isTransientWriteError(error)) {
            unwait();
            drop(entry, 'failed', error);
          } else if (now() - entry.firstTriedAt >= giveUpAfterMs) {
            unwait();
            drop(entry, 'gave_up', error);
          } else failures += 1;
        }
      }
    } finally {
      draining = false;
      settle();
    }
  }

  return {
    submit(kind, write, rows = 1) {
      const entry = { kind, rows, write, firstTriedAt: now() };
      if (running + waitingRows + rows > maxPending) {
        drop(entry, 'queue_full');
        return Promise.resolve();
      }
      if (waiting.length === 0) return tryNow(entry);
      wait(entry);
      return Promise.resolve();
    },
    dropped: () => ({ ...dropped }),
    pending: () => running + waitingRows,
    idle() {
      if (running === 0 && waiting.length === 0 && !draining) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
