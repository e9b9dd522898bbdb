/*
 * Group commit: records submitted while a batch is open (or while the one before it is written) are written together
 * in one transaction, and each submitter's promise settles only after that transaction committed. An acknowledged
 * hit is therefore on disk (in SQLite's WAL, which survives the process being killed); a hit whose batch failed is
 * answered with an error, never acknowledged. One batch is written at a time, in submission order.
 *
 * A batch that fails because the database is busy (an import holding SQLite's write lock) is tried again with a
 * growing pause for up to `retryForMs` before its hits are answered with the error: the hits wait, unanswered, rather
 * than being lost. Any other failure is answered at once.
 */

import { isTransientWriteError } from '../db/durableWrites/isTransientWriteError';

interface GroupCommitOptions {
  /** The longest a record waits for more to join its batch. */
  maxDelayMs: number;
  /** A batch this large is written at once. */
  maxBatch: number;
  /** How long a batch failing with a busy database is tried again (default 30 s; 0: never). */
  retryForMs?: number;
}

const FIRST_RETRY_MS = 20;
const LONGEST_RETRY_MS = 1_000;

interface GroupCommit<T> {
  submit(record: T): Promise<void>;
  /** Writes what is pending now (on shutdown). */
  flush(): Promise<void>;
  pending(): number;
}

interface Waiting<T> {
  record: T;
  resolve(): void;
  reject(error: unknown): void;
}

export function createGroupCommit<T>(
  write: (records: T[]) => Promise<void>,
  { maxDelayMs, maxBatch, retryForMs = 30_000 }: GroupCommitOptions,
): GroupCommit<T> {
  const queue: Waiting<T>[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The batches being written, until the queue is empty. */
  let writing: Promise<void> | null = null;

  async function writeRetryingWhileBusy(records: T[]): Promise<void> {
    const started = Date.now();
    for (let delay = FIRST_RETRY_MS; ; delay = Math.min(delay * 2, LONGEST_RETRY_MS)) {
      try {
        return await write(records);
      } catch (error) {
        if (!isTransientWriteError(error) || Date.now() - started >= retryForMs) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /*
   * A batch is cut when the write before it is over: what arrives while one is written (or tried again while the
   * database is busy) joins the next. After an import held the lock for seconds, its backlog is written as one
   * batch (or a few of maxBatch, one per turn of the event loop), not as the hundreds a timer would have cut, which
   * were written back to back and held the event loop from every request meanwhile.
   */
  async function writeBatches(): Promise<void> {
    for (let first = true; queue.length > 0; first = false) {
      // Requests get a turn between two batches written back to back (a backlog of several maxBatch).
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      const batch = queue.splice(0, maxBatch);
      try {
        await writeRetryingWhileBusy(batch.map((each) => each.record));
        for (const each of batch) each.resolve();
      } catch (error) {
        for (const each of batch) each.reject(error);
      }
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!writing && queue.length > 0) {
      writing = writeBatches().finally(() => {
        writing = null;
      });
    }
    return writing ?? Promise.resolve();
  }

  return {
    submit(record) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ record, resolve, reject });
        if (queue.length >= maxBatch) void flush();
        else timer ??= setTimeout(() => void flush(), maxDelayMs);
      });
    },
    flush,
    pending: () => queue.length,
  };
}
