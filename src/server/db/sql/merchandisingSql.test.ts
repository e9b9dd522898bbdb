import { describe, expect, it } from 'vitest';
import { alsoBoughtIds, coPurchasePairs, productPageListIds, relatedProductIds } from './merchandisingSql';

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

describe('list lengths written into the statements', () => {
  const statements: string[] = [];
  const read = async <T>(sql: string) => {
    statements.push(sql);
    return [] as T[];
  };

  it('writes a whole number into the statement and binds nothing for it', async () => {
    await relatedProductIds(read, 1001, 4, [1002]);
    await productPageListIds(read, 1001, 4, 2);
    expect(statements.every((sql) => sql.includes('LIMIT 4') && !sql.includes('@limit'))).toBe(true);
    expect(statements[1]).toContain('>= 2');
  });

  it('refuses anything but a small whole number, before any statement runs', async () => {
    statements.length = 0;
    for (const limit of [1.5, -1, Number.NaN, 1e6, '4; DROP TABLE products' as unknown as number]) {
      await expect(relatedProductIds(read, 1001, limit)).rejects.toThrow(RangeError);
      await expect(alsoBoughtIds(read, 1001, limit)).rejects.toThrow(RangeError);
      await expect(productPageListIds(read, 1001, 4, limit)).rejects.toThrow(RangeError);
    }
    expect(statements).toEqual([]);
  });
});
