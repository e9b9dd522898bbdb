import { describe, expect, it, vi } from 'vitest';
import { countTurns } from '../../../../test-support/eventLoopTurns';
import { createWriteRetryQueue, type WriteRetryOptions } from './createWriteRetryQueue';
import { isTransientWriteError } from './isTransientWriteError';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

function queueWith(overrides: Partial<WriteRetryOptions> = {}) {
  const drops: unknown[] = [];
  const queue = createWriteRetryQueue({
    maxPending: 100,
    baseDelayMs: 1,
    maxDelayMs: 4,
    giveUpAfterMs: 60_000,
    onDrop: (drop) => drops.push(drop),
    ...overrides,
  });
  return { queue, drops };
}

/** A database that answers busy until opened, and keeps what was written. */
function lockableStore() {
  const rows: string[] = [];
  let locked = true;
  let attempts = 0;
  return {
    rows,
    attempts: () => attempts,
    unlock: () => {
      locked = false;
    },
    write: (row: string) => async () => {
      attempts += 1;
      if (locked) throw busy();
      rows.push(row);
    },
  };
}

describe('createWriteRetryQueue', () => {
  it('writes at once while the database is free', async () => {
    const { queue, drops } = queueWith();
    const rows: string[] = [];
    queue.submit('searchQueries', async () => {
      rows.push('a');
    });
    await queue.idle();
    expect(rows).toEqual(['a']);
    expect(queue.dropped().searchQueries).toBe(0);
    expect(drops).toEqual([]);
  });

  it('retries busy writes until the lock is free, in the order they were sent, and drops nothing', async () => {
    const { queue, drops } = queueWith();
    const store = lockableStore();
    for (const row of ['a', 'b', 'c']) queue.submit('searchQueries', store.write(row));
    // Retried while locked: several attempts, nothing written, all three still pending.
    await vi.waitFor(() => expect(store.attempts()).toBeGreaterThan(5));
    expect(store.rows).toEqual([]);
    expect(queue.pending()).toBe(3);
    store.unlock();
    await queue.idle();
    expect(store.rows).toEqual(['a', 'b', 'c']);
    expect(queue.pending()).toBe(0);
    expect(queue.dropped()).toEqual({ searchQueries: 0, searchCartAdds: 0, orderLinks: 0 });
    expect(drops).toEqual([]);
  });

  it('writes its line one write per turn of the event loop once the database is free: requests run between', async () => {
    const { queue } = queueWith();
    const store = lockableStore();
    // The requests: one turn of the event loop after another, counted.
    const loop = countTurns();
    const turnsAtWrite: number[] = [];
    for (const row of ['a', 'b', 'c', 'd']) {
      const write = store.write(row);
      queue.submit('searchQueries', async () => {
        await write();
        turnsAtWrite.push(loop.turns());
      });
    }
    await vi.waitFor(() => expect(store.attempts()).toBeGreaterThan(3));
    store.unlock();
    await queue.idle();
    loop.stop();
    expect(store.rows).toEqual(['a', 'b', 'c', 'd']);
    // Each write of the line after the first came a turn later than the one before it.
    for (let i = 1; i < turnsAtWrite.length; i++)
      expect(turnsAtWrite[i]).toBeGreaterThan(turnsAtWrite[i - 1] as number);
  });

  it('is bounded: a write beyond maxPending is dropped and counted under its kind', async () => {
    const { queue, drops } = queueWith({ maxPending: 2 });
    const store = lockableStore();
    queue.submit('searchQueries', store.write('a'));
    queue.submit('searchQueries', store.write('b'));
    queue.submit('searchCartAdds', store.write('c'));
    expect(queue.pending()).toBe(2);
    expect(queue.dropped()).toEqual({ searchQueries: 0, searchCartAdds: 1, orderLinks: 0 });
    expect(drops).toEqual([{ kind: 'searchCartAdds', reason: 'queue_full', dropped: 1 }]);
    store.unlock();
    await queue.idle();
    expect(store.rows).toEqual(['a', 'b']);
  });

  it('keeps its bound and its counts in rows: a batch weighs what it carries', async () => {
    const { queue, drops } = queueWith({ maxPending: 4 });
    const store = lockableStore();
    queue.submit('searchQueries', store.write('batch of 3'), 3);
    queue.submit('searchQueries', store.write('batch of 2'), 2);
    queue.submit('searchQueries', store.write('one'));
    expect(queue.pending()).toBe(4);
    expect(queue.dropped().searchQueries).toBe(2);
    expect(drops).toEqual([{ kind: 'searchQueries', reason: 'queue_full', dropped: 2 }]);
    store.unlock();
    await queue.idle();
    expect(store.rows).toEqual(['batch of 3', 'one']);
    expect(queue.pending()).toBe(0);
  });

  it('gives up a write busy for longer than giveUpAfterMs, and counts it', async () => {
    let clock = 0;
    const { queue, drops } = queueWith({ now: () => clock, giveUpAfterMs: 1_000 });
    const store = lockableStore();
    queue.submit('orderLinks', store.write('a'));
    await vi.waitFor(() => expect(store.attempts()).toBeGreaterThan(2));
    clock = 1_000;
    await queue.idle();
    expect(store.rows).toEqual([]);
    expect(queue.dropped().orderLinks).toBe(1);
    expect(drops).toEqual([{ kind: 'orderLinks', reason: 'gave_up', code: 'SQLITE_BUSY', dropped: 1 }]);
  });

  it('does not retry a write that can never succeed (a broken constraint): dropped and counted at once', async () => {
    const { queue, drops } = queueWith();
    let attempts = 0;
    queue.submit('searchQueries', async () => {
      attempts += 1;
      throw Object.assign(new Error('UNIQUE constraint failed: secret value'), { code: 'SQLITE_CONSTRAINT' });
    });
    await queue.idle();
    expect(attempts).toBe(1);
    expect(queue.dropped().searchQueries).toBe(1);
    // Only the code is reported: an error's message may quote the row's values.
    expect(drops).toEqual([
      { kind: 'searchQueries', reason: 'failed', code: 'SQLITE_CONSTRAINT', dropped: 1 },
    ]);
  });
});

describe('isTransientWriteError', () => {
  it('retries a busy SQLite and PostgreSQL serialization failures, deadlocks and lost connections', () => {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_LOCKED',
      '40001',
      '40P01',
      '55P03',
      '08006',
    ])
      expect(isTransientWriteError({ code }), code).toBe(true);
  });
  it('does not retry a broken constraint, a syntax error or an error without a code', () => {
    for (const error of [
      { code: 'SQLITE_CONSTRAINT' },
      { code: '23505' },
      { code: '42601' },
      new Error('x'),
      null,
    ])
      expect(isTransientWriteError(error)).toBe(false);
  });
});
