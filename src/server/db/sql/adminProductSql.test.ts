import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { uniqueViolationField } from './adminProductSql';

/*
 * A save that loses a race with another owner's (both checked the SKU before either wrote) fails on the unique key
 * inside its transaction; the engine's own error must still become a message on the right field, not a 500.
 */

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => shop?.close());

async function errorOf(sql: string): Promise<unknown> {
  try {
    await shop.query(sql);
  } catch (error) {
    return error;
  }
  throw new Error('the statement should have failed');
}

describe('uniqueViolationField', () => {
  it('names the SKU or the slug from the engine’s own unique-key error', async () => {
    const sku = await errorOf("UPDATE products SET sku = 'DEMO-CAFE-MUG' WHERE id = 1022");
    expect(uniqueViolationField(sku)).toBe('sku');
    const slug = await errorOf("UPDATE products SET slug = 'cafe-au-lait-mug' WHERE id = 1022");
    expect(uniqueViolationField(slug)).toBe('slug');
    const other = await errorOf("UPDATE products SET stock_status = 'sold' WHERE id = 1022");
    expect(uniqueViolationField(other)).toBeNull();
  });
});
