import { describe, expect, it } from 'vitest';
import type { ProductDetail } from '../catalog/types';
import { breadcrumbJsonLd, itemListJsonLd, productJsonLd, serializeJsonLd } from './jsonLd';

/*
 * Checked against what Google's Product snippets need: `name`, and one of offers, review or aggregateRating;
 * recommended image, sku, brand, description, and in the offer price, priceCurrency, availability and url.
 */

const USD = { code: 'USD', decimals: 2 };
const ORIGIN = 'https://shop.example';

function product(overrides: Partial<ProductDetail> = {}): ProductDetail {
  return {
    id: 7,
    type: 'simple',
    slug: 'linen-shirt',
    name: 'Linen Shirt',
    sku: 'LS-1',
    featured: false,
    visibility: 'visible',
    shortDescription: '',
    price: { min: 5400, max: 5400, regular: null, onSale: false },
    stockStatus: 'instock',
    image: null,
    ratingAverage: 0,
    ratingCount: 0,
    totalSales: 0,
    description: '',
    images: [{ id: 1, src: '/images/1.svg', alt: 'Linen Shirt' }],
    categories: [],
    tags: [],
    brands: [
      {
        id: 3,
        taxonomy: 'product_brand',
        slug: 'fern',
        name: 'Fern',
        parentId: null,
        description: '',
        path: ['fern'],
      },
    ],
    vendor: null,
    attributes: [],
    variations: [],
    groupedChildren: [],
    externalUrl: null,
    buttonText: null,
    virtual: false,
    downloadable: false,
    downloads: [],
    stockQuantity: null,
    soldIndividually: false,
    ...overrides,
  } as ProductDetail;
}

/** What a search engine reads: the JSON back from the escaped text. */
// biome-ignore lint/suspicious/noExplicitAny: parsed JSON, read path by path as the assertions need
const roundTrip = (data: unknown) => JSON.parse(serializeJsonLd(data)) as Record<string, any>;

describe('productJsonLd', () => {
  it('carries the required and recommended properties of a Product snippet', () => {
    const data = roundTrip(
      productJsonLd({
        product: product(),
        url: '/product/linen-shirt/',
        origin: ORIGIN,
        currency: USD,
        description: 'Soft.',
      }),
    );
    expect(data['@context']).toBe('https://schema.org');
    expect(data['@type']).toBe('Product');
    expect(data.name).toBe('Linen Shirt');
    expect(data.image).toEqual(['https://shop.example/images/1.svg']);
    expect(data.sku).toBe('LS-1');
    expect(data.description).toBe('Soft.');
    expect(data.brand).toEqual({ '@type': 'Brand', name: 'Fern' });
    expect(data.offers).toEqual({
      '@type': 'Offer',
      price: '54.00',
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
      url: 'https://shop.example/product/linen-shirt/',
    });
    expect(data.aggregateRating).toBeUndefined();
    expect(data.review).toBeUndefined();
  });

  it('gives a price range as an AggregateOffer, and stock as schema.org availability', () => {
    const data = roundTrip(
      productJsonLd({
        product: product({
          type: 'variable',
          price: { min: 1900, max: 2400, regular: null, onSale: false },
          stockStatus: 'outofstock',
        }),
        url: '/product/t/',
        origin: ORIGIN,
        currency: { code: 'JPY', decimals: 0 },
      }),
    );
    expect(data.offers).toMatchObject({
      '@type': 'AggregateOffer',
      lowPrice: '1900',
      highPrice: '2400',
      priceCurrency: 'JPY',
      availability: 'https://schema.org/OutOfStock',
    });
  });

  it('adds aggregateRating only when there are ratings, and the reviews it is given', () => {
    const data = roundTrip(
      productJsonLd({
        product: product({ ratingAverage: 4.256, ratingCount: 12 }),
        url: '/product/linen-shirt/',
        origin: ORIGIN,
        currency: USD,
        reviews: [{ author: 'Ada', datePublished: '2026-01-02', reviewBody: 'Lovely.', ratingValue: 5 }],
      }),
    );
    expect(data.aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: 4.26,
      ratingCount: 12,
      bestRating: 5,
      worstRating: 1,
    });
    expect(data.review).toEqual([
      {
        '@type': 'Review',
        author: { '@type': 'Person', name: 'Ada' },
        datePublished: '2026-01-02',
        reviewBody: 'Lovely.',
        reviewRating: { '@type': 'Rating', ratingValue: 5, bestRating: 5, worstRating: 1 },
      },
    ]);
    const none = productJsonLd({
      product: product({ ratingAverage: 0, ratingCount: 0 }),
      url: '/p/',
      origin: ORIGIN,
      currency: USD,
    });
    expect(none.aggregateRating).toBeUndefined();
  });
});

describe('serializeJsonLd', () => {
  it('cannot end the script element or open a comment, whatever a name holds', () => {
    const text = serializeJsonLd(
      productJsonLd({
        product: product({ name: 'Evil </script><script>alert(1)</script> <!-- & \u2028' }),
        url: '/p/',
        origin: ORIGIN,
        currency: USD,
      }),
    );
    expect(text).not.toMatch(/<|>|&|\u2028/);
    expect(JSON.parse(text).name).toBe('Evil </script><script>alert(1)</script> <!-- & \u2028');
  });
});

describe('breadcrumbs and item lists', () => {
  it('numbers the trail from 1 with absolute addresses', () => {
    const data = roundTrip(
      breadcrumbJsonLd(
        [
          { name: 'Home', url: '/' },
          { name: 'Shirts', url: '/product-category/shirts/' },
        ],
        ORIGIN,
      ),
    );
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://shop.example/' },
        {
          '@type': 'ListItem',
          position: 2,
          name: 'Shirts',
          item: 'https://shop.example/product-category/shirts/',
        },
      ],
    });
  });

  it('lists a page of products from the position of its first one', () => {
    const data = roundTrip(
      itemListJsonLd([{ name: 'A', slug: 'a' }], (slug) => `/product/${slug}/`, ORIGIN, 13),
    );
    expect(data.itemListElement).toEqual([
      { '@type': 'ListItem', position: 13, name: 'A', url: 'https://shop.example/product/a/' },
    ]);
  });
});
