import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './createGroupCommit';

describe('createGroupCommit', () => {
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
