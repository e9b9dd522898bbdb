import { describe, expect, it } from 'vitest';
import { pageNumbers } from './pageNumbers';

describe('pageNumbers', () => {
  it('shows every page of a short archive', () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // 10 pages from page 5: 1–3 at the start, 2–8 around it, 8–10 at the end — nothing to fold.
    expect(pageNumbers(5, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('folds what lies between the ends and the pages around the current one into one gap each', () => {
    expect(pageNumbers(1, 500)).toEqual([1, 2, 3, 4, 'gap', 498, 499, 500]);
    expect(pageNumbers(250, 500)).toEqual([
      1,
      2,
      3,
      'gap',
      247,
      248,
      249,
      250,
      251,
      252,
      253,
      'gap',
      498,
      499,
      500,
    ]);
    expect(pageNumbers(500, 500)).toEqual([1, 2, 3, 'gap', 497, 498, 499, 500]);
    // One page between the start and the pages around the current one is folded too, as WordPress does.
    expect(pageNumbers(8, 20)).toEqual([1, 2, 3, 'gap', 5, 6, 7, 8, 9, 10, 11, 'gap', 18, 19, 20]);
    expect(pageNumbers(7, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 'gap', 18, 19, 20]);
  });
});
