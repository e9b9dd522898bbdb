import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { buildArchiveSwatches } from './buildArchiveSwatches';

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { swatches: { showOnArchive: true } } });
});
afterAll(async () => shop.close());

describe('buildArchiveSwatches', () => {
  it("takes the colour attribute and each colour's image and price range", async () => {
    const hoodie = await shop.repositories.catalog.getProductById(1100);
    if (!hoodie) throw new Error('demo hoodie missing');
    const swatches = buildArchiveSwatches(hoodie);
    expect(swatches?.attribute.slug).toBe('color');
    const blue = hoodie.variations.find((variation) => variation.sku === 'DEMO-HOODIE-BLUE-PLAIN');
    expect(swatches?.values).toEqual([
      expect.objectContaining({ slug: 'red', price: { min: 4500, max: 4500 }, inStock: true }),
      expect.objectContaining({ slug: 'green', price: { min: 4500, max: 4500 }, inStock: true }),
      { slug: 'blue', image: blue?.image, price: { min: 4500, max: 5000 }, inStock: true },
    ]);
  });

  it('marks a value whose variations are all sold out', async () => {
    const shirt = await shop.repositories.catalog.getProductById(1001);
    if (!shirt) throw new Error('demo shirt missing');
    const indigo = buildArchiveSwatches(shirt)?.values.find((value) => value.slug === 'indigo');
    expect(indigo?.inStock).toBe(false);
  });
});

describe('archive pages', () => {
  it('carry card swatches for variable products when showOnArchive is on', async () => {
    const page = await shop.app.inject('/product-category/apparel/knitwear/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-island="cardSwatches"');
  });

  it('carry none by default', async () => {
    const plain = await createTestApp();
    try {
      const page = await plain.app.inject('/product-category/apparel/knitwear/');
      expect(page.body).not.toContain('data-island="cardSwatches"');
    } finally {
      await plain.close();
    }
  });
});
