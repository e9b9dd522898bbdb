import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';

/* The JSON-LD the pages carry, read back as a search engine reads it: every ld+json script parsed. */

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { server: { mail: { shopUrl: 'https://shop.example' } } } });
});
afterAll(() => shop.close());

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, read path by path as the assertions need
type Parsed = Record<string, any>;

async function structuredData(url: string): Promise<Parsed[]> {
  const response = await shop.app.inject({ method: 'GET', url, headers: { host: 'shop.test' } });
  expect(response.statusCode).toBe(200);
  return [...response.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] as string),
  );
}

describe('structured data', () => {
  it('a product page carries a Product with an offer and its rating, and its breadcrumb trail', async () => {
    const [product, trail, ...rest] = await structuredData('/product/cafe-au-lait-mug/');
    expect(rest).toEqual([]);
    expect(product).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Product',
      name: 'Café au Lait Mug',
      sku: 'DEMO-CAFE-MUG',
      url: 'https://shop.example/product/cafe-au-lait-mug/',
      brand: { '@type': 'Brand', name: 'Hollow Oak Ceramics' },
      offers: {
        '@type': 'Offer',
        price: '18.00',
        priceCurrency: 'USD',
        availability: 'https://schema.org/InStock',
        url: 'https://shop.example/product/cafe-au-lait-mug/',
      },
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.8, ratingCount: 44 },
    });
    expect(product?.image?.[0]).toMatch(/^https:\/\/shop\.example\//);
    expect(trail).toMatchObject({ '@type': 'BreadcrumbList' });
    expect(trail?.itemListElement.map((item: { name: string }) => item.name)).toEqual([
      'Home',
      'Shop',
      'Gifts',
      'Café au Lait Mug',
    ]);
    const sold = await structuredData('/product/espresso-cup-pair/');
    expect(sold[0]?.offers.availability).toBe('https://schema.org/OutOfStock');
  });

  it('a category page carries its products as an ItemList and its trail with every ancestor', async () => {
    const [list, trail] = await structuredData('/product-category/home/kitchen/');
    expect(list?.['@type']).toBe('ItemList');
    expect(list?.itemListElement.length).toBeGreaterThan(0);
    expect(list?.itemListElement[0]).toMatchObject({ '@type': 'ListItem', position: 1 });
    expect(list?.itemListElement[0].url).toMatch(/^https:\/\/shop\.example\/product\/[^/]+\/$/);
    expect(
      trail?.itemListElement.map((item: { name: string; item: string }) => [item.name, item.item]),
    ).toEqual([
      ['Home', 'https://shop.example/'],
      ['Shop', 'https://shop.example/shop/'],
      ['Home', 'https://shop.example/product-category/home/'],
      ['Kitchen', 'https://shop.example/product-category/home/kitchen/'],
    ]);
  });
});
