import { describe, expect, it } from 'vitest';
import { addDays, dayOf, dayRangeBounds } from './dayRange';

describe('day ranges', () => {
  it('cover every instant of their last day and none of the next', () => {
    const { start, end } = dayRangeBounds({ from: '2026-02-27', to: '2026-02-28' });
    expect(start).toBe('2026-02-27T00:00:00.000Z');
    expect(end).toBe('2026-03-01T00:00:00.000Z');
    expect('2026-02-28T23:59:59.999Z' < end).toBe(true);
    expect('2026-03-01T00:00:00.000Z' < end).toBe(false);
  });

  it('count days across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(dayOf(Date.parse('2026-05-04T23:59:59Z'))).toBe('2026-05-04');
  });
});
