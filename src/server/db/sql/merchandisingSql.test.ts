import { describe, expect, it } from 'vitest';
import { coPurchasePairs } from './merchandisingSql';

describe('coPurchasePairs', () => {
  it('pairs each two distinct products of an order both ways, sorted, so concurrent orders upsert in one order', () => {
    expect(coPurchasePairs([1026, 1021, 1022])).toEqual([
      [1021, 1022],
      [1021, 1026],
      [1022, 1021],
      [1022, 1026],
      [1026, 1021],
      [1026, 1022],
    ]);
  });

  it('counts a product once however many lines (variations) it has, and an order of one product adds nothing', () => {
    expect(coPurchasePairs([1001, 1001, 1021])).toEqual([
      [1001, 1021],
      [1021, 1001],
    ]);
    expect(coPurchasePairs([1001, 1001])).toEqual([]);
  });
});
