import { describe, expect, it } from 'vitest';
import {
  detailsResponseSchema,
  pricesResponseSchema,
  suggestionSchema,
  suggestionsResponseSchema,
} from './responseSchemas';

/*
 * The answers as other engines send them: ids and texts may arrive as each other's type, fields may be missing or
 * added. What the box gets after parsing is what it shows.
 */

describe('suggestion answers', () => {
  it('reads ids sent as text as numbers, and texts sent as numbers as text', () => {
    const parsed = suggestionSchema.parse({
      type: 'product',
      value: 2024,
      post_id: '7',
      variation_id: '8',
      vendor_id: '9',
      term_id: '10',
      total: '12',
      sku: 12345,
    });
    expect(parsed).toEqual({
      type: 'product',
      value: '2024',
      post_id: 7,
      variation_id: 8,
      vendor_id: 9,
      term_id: 10,
      total: 12,
      sku: '12345',
    });
    expect(suggestionSchema.parse({ type: 'product', value: 'Mug', post_id: 7, sku: 'MUG' })).toEqual({
      type: 'product',
      value: 'Mug',
      post_id: 7,
      sku: 'MUG',
    });
  });

  it('gives a suggestion without a value an empty one, and keeps fields it does not know', () => {
    expect(suggestionSchema.parse({ type: 'more_products', total: 9, engine_score: 0.7 })).toEqual({
      type: 'more_products',
      value: '',
      total: 9,
      engine_score: 0.7,
    });
  });

  it('keeps every field the box shows, with its type', () => {
    const full = {
      type: 'product',
      value: 'Mug',
      url: '/product/mug/',
      post_id: 7,
      post_type: 'product',
      taxonomy: 'product_cat',
      breadcrumbs: 'Kitchen',
      image: '/mug.jpg',
      image_src: '/mug.jpg',
      thumb_html: '<img>',
      desc: 'A mug',
      price: '$10',
      on_sale: true,
      featured: false,
      rating: 4.5,
      rating_count: 3,
      vendor: 'Tidewater',
      vendor_url: '/vendor/tidewater/',
      shop_city: 'Porto',
      group: 'products',
      meta_before: '<i>a</i>',
      meta_after: '<i>b</i>',
      title_before: '<i>c</i>',
      title_after: '<i>d</i>',
      content_after: '<i>e</i>',
    };
    expect(suggestionSchema.parse(full)).toEqual(full);
    for (const [field, wrong] of Object.entries({
      url: 1,
      on_sale: 'yes',
      rating: '4',
      price: 10,
      post_id: true,
    }))
      expect(suggestionSchema.safeParse({ ...full, [field]: wrong }).success, field).toBe(false);
  });

  it('refuses a kind the box does not know, and an answer without a list', () => {
    expect(suggestionSchema.safeParse({ type: 'recipe', value: 'x' }).success).toBe(false);
    expect(suggestionsResponseSchema.safeParse({ time: '0.1 s' }).success).toBe(false);
    expect(suggestionsResponseSchema.parse({ suggestions: [{ type: 'no-results' }], time: '0.1 s' })).toEqual(
      {
        suggestions: [{ type: 'no-results', value: '' }],
        time: '0.1 s',
      },
    );
  });
});

describe('details answers', () => {
  const items = [{ objectID: 'product__7', html: '<p>Mug</p>', price: '$10' }];

  it('reads the object itself or serialized as a string', () => {
    expect(detailsResponseSchema.parse({ items })).toEqual({ items });
    expect(detailsResponseSchema.parse(JSON.stringify({ items }))).toEqual({ items });
  });

  it('refuses a string that is not JSON, or JSON that is not a details answer', () => {
    const broken = detailsResponseSchema.safeParse('not json{');
    expect(broken.success).toBe(false);
    // What window.shopSearch.onError receives says why (zod nests it under the union's issue).
    expect(JSON.stringify(broken.error?.issues)).toContain('invalid_json');
    expect(detailsResponseSchema.safeParse(JSON.stringify({ items: [{ objectID: 1 }] })).success).toBe(false);
    expect(detailsResponseSchema.safeParse({ items: [{ objectID: 'product__7' }] }).success).toBe(false);
  });
});

describe('prices answers', () => {
  it('reads ids sent as text, and a success without data as no prices', () => {
    expect(pricesResponseSchema.parse({ success: true, data: [{ id: '7', price: '$10' }] })).toEqual({
      success: true,
      data: [{ id: 7, price: '$10' }],
    });
    expect(pricesResponseSchema.parse({ success: false })).toEqual({ success: false, data: [] });
    expect(pricesResponseSchema.safeParse({ success: true, data: [{ id: 7, price: 10 }] }).success).toBe(
      false,
    );
  });
});
