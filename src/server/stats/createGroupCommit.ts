/*
 * Group commit: records submitted while a batch is open are written together in one transaction, and each
 * submitter's promise settles only after that transaction committed. An acknowledged hit is therefore on disk (in
 * SQLite's WAL, which survives the process being killed); a hit whose batch failed is answered with an error, never
 * acknowledged. One batch is written at a time, in submission order.
 */

interface GroupCommitOptions {
  /** The longest a record waits for more to join its batch. */
  maxDelayMs: number;
  /** A batch this large is written at once. */
  maxBatch: number;
}

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
  { maxDelayMs, maxBatch }: GroupCommitOptions,
): GroupCommit<T> {
  let queue: Waiting<T>[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = null;
    if (queue.length === 0) return writing;
    const batch = queue;
    queue = [];
    writing = writing.then(async () => {
      try {
        await write(batch.map((each) => each.record));
        for (const each of batch) each.resolve();
      } catch (error) {
        for (const each of batch) each.reject(error);
      }
    });
    return writing;
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
