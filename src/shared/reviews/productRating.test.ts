import { describe, expect, it } from 'vitest';
import { productRating } from './productRating';

/* The stored average and count, computed by hand for each case (docs/reviews.md "Average and count"). */

describe('productRating', () => {
  const imported = { average: 4.5, count: 12 };

  it('keeps the imported rating while no review is approved', () => {
    expect(productRating(imported, { count: 0, starsSum: 0 })).toEqual({ average: 4.5, count: 12 });
  });

  it('is 0 from 0 when there is neither an imported rating nor an approved review', () => {
    expect(productRating({ average: 0, count: 0 }, { count: 0, starsSum: 0 })).toEqual({
      average: 0,
      count: 0,
    });
    // An imported average without any count is no rating at all.
    expect(productRating({ average: 3, count: 0 }, { count: 0, starsSum: 0 })).toEqual({
      average: 0,
      count: 0,
    });
  });

  it('replaces the imported rating from the first approved review on', () => {
    // One review of 2 stars: 2 / 1 = 2.00 from 1, whatever the 12 imported ratings said.
    expect(productRating(imported, { count: 1, starsSum: 2 })).toEqual({ average: 2, count: 1 });
  });

  it('averages the approved reviews, rounded to two decimals', () => {
    // 5 + 4 + 4 = 13 over 3 = 4.333… → 4.33
    expect(productRating(imported, { count: 3, starsSum: 13 })).toEqual({ average: 4.33, count: 3 });
    // 5 + 5 + 4 = 14 over 3 = 4.666… → 4.67
    expect(productRating(imported, { count: 3, starsSum: 14 })).toEqual({ average: 4.67, count: 3 });
    // 5 + 4 = 9 over 2 = 4.5
    expect(productRating(imported, { count: 2, starsSum: 9 })).toEqual({ average: 4.5, count: 2 });
    // 1 + 2 + 2 + 5 + 5 + 5 + 3 = 23 over 7 = 3.2857… → 3.29
    expect(productRating({ average: 0, count: 0 }, { count: 7, starsSum: 23 })).toEqual({
      average: 3.29,
      count: 7,
    });
  });
});
