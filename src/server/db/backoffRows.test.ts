import { describe, expect, it } from 'vitest';
import { type BackoffRow, takeBackoffRow } from './backoffRows';

/*
 * The back-off rule both engines share, with tries taken out of the order they read the clock in: concurrent tries
 * read the time first and then queue for the row, so a later row write may carry an earlier "now".
 */

const POLICY = { freeFailures: 3, firstLockMs: 2_000, maxLockMs: 60_000, forgetMs: 86_400_000 };

function takeAll(nows: number[]) {
  let row: BackoffRow | undefined;
  return nows.map((now) => {
    const taken = takeBackoffRow(row, now, POLICY);
    if (taken.row) row = taken.row;
    return taken.verdict.allowed;
  });
}

describe('takeBackoffRow', () => {
  it('allows the free failures whatever order their clocks read, then locks', () => {
    expect(takeAll([1_005, 1_000, 1_003, 1_001, 1_002])).toEqual([true, true, true, false, false]);
  });

  it('locks for firstLockMs from the failure that used up the free ones, then doubles', () => {
    let row: BackoffRow | undefined;
    for (const now of [0, 10, 20]) row = takeBackoffRow(row, now, POLICY).row ?? row;
    expect(row).toMatchObject({ failures: 3, lockMs: 2_000, lockedUntil: 2_020 });
    expect(takeBackoffRow(row, 2_019, POLICY).verdict).toEqual({
      allowed: false,
      failures: 3,
      retryAfterMs: 1,
    });
    const next = takeBackoffRow(row, 2_020, POLICY);
    expect(next.row).toMatchObject({ failures: 4, lockMs: 4_000, lockedUntil: 6_020 });
  });
});
