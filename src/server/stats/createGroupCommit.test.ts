import { describe, expect, it } from 'vitest';
import { countTurns } from '../../../test-support/eventLoopTurns';
import { createGroupCommit } from './createGroupCommit';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('createGroupCommit', () => {
  it('tries a batch again while the database is busy, answering its hits only once it is written', async () => {
    const written: number[][] = [];
    let busyFor = 3;
    const commit = createGroupCommit<number>(
      async (records) => {
        if (busyFor-- > 0) throw busy();
        written.push(records);
      },
      { maxDelayMs: 1, maxBatch: 100 },
    );
    await Promise.all([commit.submit(1), commit.submit(2)]);
    expect(written).toEqual([[1, 2]]);
  });

  it('writes what arrived while the database was busy as one batch once it is free, not one per delay', async () => {
    const written: number[][] = [];
    let locked = true;
    const commit = createGroupCommit<number>(
      async (records) => {
        if (locked) throw busy();
        written.push(records);
      },
      { maxDelayMs: 1, maxBatch: 100 },
    );
    const first = commit.submit(1);
    const later: Promise<void>[] = [];
    // Each a few delays apart: a batch would have been cut for each of them.
    for (const record of [2, 3, 4]) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      later.push(commit.submit(record));
    }
    expect(written).toEqual([]);
    locked = false;
    await Promise.all([first, ...later]);
    expect(written).toEqual([[1], [2, 3, 4]]);
  });

  it('writes a backlog of several full batches one per turn of the event loop: requests run between', async () => {
    // The requests: one turn of the event loop after another, counted.
    const loop = countTurns();
    const written: { records: number[]; turn: number }[] = [];
    let locked = true;
    const commit = createGroupCommit<number>(
      async (records) => {
        if (locked) throw busy();
        written.push({ records, turn: loop.turns() });
      },
      { maxDelayMs: 1, maxBatch: 2 },
    );
    const submitted = [1, 2, 3, 4, 5, 6].map((record) => commit.submit(record));
    await new Promise((resolve) => setTimeout(resolve, 30));
    locked = false;
    await Promise.all(submitted);
    loop.stop();
    expect(written.map((batch) => batch.records)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(written[1]?.turn).toBeGreaterThan(written[0]?.turn as number);
    expect(written[2]?.turn).toBeGreaterThan(written[1]?.turn as number);
  });

  it('answers a batch with its error at once when the failure is not a busy database, or busy for too long', async () => {
    let attempts = 0;
    const broken = createGroupCommit<number>(
      async () => {
        attempts += 1;
        throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' });
      },
      { maxDelayMs: 1, maxBatch: 100 },
    );
    await expect(broken.submit(1)).rejects.toThrow('constraint');
    expect(attempts).toBe(1);
    const alwaysBusy = createGroupCommit<number>(
      async () => {
        throw busy();
      },
      { maxDelayMs: 1, maxBatch: 100, retryForMs: 50 },
    );
    await expect(alwaysBusy.submit(1)).rejects.toThrow('database is locked');
  });

  it('writes concurrent submissions in one batch and answers each only after it is written', async () => {
    const written: number[][] = [];
    const settledBeforeWrite: boolean[] = [];
    let settled = 0;
    const commit = createGroupCommit<number>(
      async (records) => {
        settledBeforeWrite.push(settled > 0);
        written.push(records);
      },
      { maxDelayMs: 5, maxBatch: 100 },
    );
    await Promise.all(
      [1, 2, 3, 4, 5].map((each) =>
        commit.submit(each).then(() => {
          settled += 1;
        }),
      ),
    );
    expect(written).toEqual([[1, 2, 3, 4, 5]]);
    expect(settledBeforeWrite).toEqual([false]);
    expect(settled).toBe(5);
  });

  it('starts a new batch when one is full, keeping the order', async () => {
    const written: number[][] = [];
    const commit = createGroupCommit<number>(async (records) => void written.push(records), {
      maxDelayMs: 1000,
      maxBatch: 2,
    });
    await Promise.all([1, 2, 3, 4].map((each) => commit.submit(each)));
    expect(written).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('rejects every submission of a failed batch, and later batches still succeed', async () => {
    let fail = true;
    const commit = createGroupCommit<string>(
      async () => {
        if (fail) throw new Error('disk full');
      },
      { maxDelayMs: 1, maxBatch: 10 },
    );
    const results = await Promise.allSettled([commit.submit('a'), commit.submit('b')]);
    expect(results.map((each) => each.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(commit.submit('c')).resolves.toBeUndefined();
  });

  it('flush writes what is pending at once', async () => {
    const written: string[][] = [];
    const commit = createGroupCommit<string>(async (records) => void written.push(records), {
      maxDelayMs: 60_000,
      maxBatch: 10,
    });
    const pending = commit.submit('x');
    expect(commit.pending()).toBe(1);
    await commit.flush();
    await pending;
    expect(written).toEqual([['x']]);
  });
});
