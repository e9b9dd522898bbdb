import { describe, expect, it } from 'vitest';
import { formatText } from './formatText';

describe('formatText', () => {
  it('fills %s in order, numbered placeholders by position, and keeps %% as a percent sign', () => {
    expect(formatText('Only %s left in stock', 3)).toBe('Only 3 left in stock');
    expect(formatText('Showing %1$s–%2$s of %3$s results', 13, 24, 31)).toBe('Showing 13–24 of 31 results');
    expect(formatText('%2$s sur %1$s', 'a', 'b')).toBe('b sur a');
    expect(formatText('100%% cotton, %s', 'XL')).toBe('100% cotton, XL');
    expect(formatText('No placeholder')).toBe('No placeholder');
  });
});
