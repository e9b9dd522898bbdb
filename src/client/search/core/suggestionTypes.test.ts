import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSuggestionObjectId } from '../../../shared/search/suggestionObjectId';
import { isHeadline, isSelectable, type Suggestion, suggestionObjectId } from './suggestionTypes';

describe('suggestionObjectId: the details key the box sends, as the server reads it', () => {
  it.each<[Suggestion, string, unknown]>([
    [{ type: 'product', value: 'Mug', post_id: 7 }, 'product__7', { type: 'product', postId: 7 }],
    [
      { type: 'product_variation', value: 'Mug - Blue', post_id: 7, variation_id: 9 },
      'product_variation__7__9',
      { type: 'product_variation', postId: 7, variationId: 9 },
    ],
    [
      { type: 'post', value: 'About', post_id: 3, post_type: 'page' },
      'post__3__page',
      { type: 'post', postId: 3, postType: 'page' },
    ],
    [
      { type: 'taxonomy', value: 'Shirts', term_id: 5, taxonomy: 'product_cat' },
      'taxonomy__5__product_cat',
      { type: 'taxonomy', termId: 5, taxonomy: 'product_cat' },
    ],
    [
      { type: 'vendor', value: 'Tidewater', vendor_id: 11, post_id: 2 },
      'vendor__11',
      { type: 'vendor', vendorId: 11 },
    ],
  ])('%o → %s', (suggestion, id, parsed) => {
    expect(suggestionObjectId(suggestion)).toBe(id);
    expect(parseSuggestionObjectId(id)).toEqual(parsed);
  });

  it('fills the parts an engine left out: a post is a post, a vendor falls back to its post id', () => {
    expect(suggestionObjectId({ type: 'post', value: 'News', post_id: 4 })).toBe('post__4__post');
    expect(suggestionObjectId({ type: 'vendor', value: 'Tidewater', post_id: 12 })).toBe('vendor__12');
    expect(suggestionObjectId({ type: 'product', value: 'Mug' })).toBe('product__0');
    expect(suggestionObjectId({ type: 'product_variation', value: 'Mug', post_id: 7 })).toBe(
      'product_variation__7__0',
    );
    expect(suggestionObjectId({ type: 'taxonomy', value: 'Shirts' })).toBe('taxonomy__0__');
    expect(suggestionObjectId({ type: 'vendor', value: 'Tidewater' })).toBe('vendor__0');
  });

  it('keys the kinds without an object of their own by their type', () => {
    expect(suggestionObjectId({ type: 'more_products', value: '' })).toBe('more_products__');
    expect(suggestionObjectId({ type: 'headline', value: 'Products', post_id: 1 })).toBe('headline__1');
  });
});

describe('which suggestions the keyboard can land on', () => {
  it('skips both kinds of headline and the no-results block, and takes everything else', () => {
    expect(isHeadline({ type: 'headline', value: 'Products' })).toBe(true);
    expect(isHeadline({ type: 'headline-v2', value: 'Products' })).toBe(true);
    expect(isHeadline({ type: 'taxonomy', value: 'Shirts' })).toBe(false);
    expect(isSelectable({ type: 'headline-v2', value: 'Products' })).toBe(false);
    expect(isSelectable({ type: 'no-results', value: '' })).toBe(false);
    for (const type of [
      'product',
      'product_variation',
      'more_products',
      'history-search',
      'taxonomy',
      'vendor',
      'post',
    ] as const)
      expect(isSelectable({ type, value: 'x' }), type).toBe(true);
  });
});

describe('loadResponseSchemas', () => {
  afterEach(() => {
    vi.doUnmock('./responseSchemas');
    vi.resetModules();
  });

  it('tries again after a failed load (offline), so the box recovers once the network is back', async () => {
    vi.resetModules();
    vi.doMock('./responseSchemas', () => {
      throw new Error('offline');
    });
    const { loadResponseSchemas } = await import('./suggestionTypes');
    await expect(loadResponseSchemas()).rejects.toThrow();
    vi.doUnmock('./responseSchemas');
    const schemas = await loadResponseSchemas();
    expect(schemas.suggestionsResponseSchema.parse({ suggestions: [] })).toEqual({ suggestions: [] });
    expect(loadResponseSchemas()).toBe(loadResponseSchemas());
  });
});
