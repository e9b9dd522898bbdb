import { describe, expect, it } from 'vitest';
import {
  createHistoryStore,
  HISTORY_ICON_HTML,
  RECENT_PHRASES_KEY,
  RECENT_PRODUCTS_KEY,
} from './createHistoryStore';
import { memoryStorage, product } from './testSupport';

describe('createHistoryStore', () => {
  it('keeps at most 5 products, newest first, de-duplicated by post_id, without prices', () => {
    const storage = memoryStorage();
    const history = createHistoryStore(storage, { images: true });
    for (const id of [1, 2, 3, 4, 5, 6, 2])
      history.addProduct(product(id, `P${id}`, { thumb_html: '<img>' }));
    expect(history.products().map((p) => p.post_id)).toEqual([2, 6, 5, 4, 3]);
    expect(history.products()[0]).not.toHaveProperty('price');
    expect(history.products()[0]?.thumb_html).toBe('<img>');
    expect(JSON.parse(storage.getItem(RECENT_PRODUCTS_KEY) ?? '')).toHaveLength(5);
  });

  it('replaces the thumbnail with the history icon when images are off', () => {
    const history = createHistoryStore(memoryStorage(), { images: false });
    history.addProduct(product(1, 'P', { thumb_html: '<img>' }));
    expect(history.products()[0]?.thumb_html).toBe(HISTORY_ICON_HTML);
  });

  it('keeps at most 5 phrases, de-duplicated case-insensitively, tags stripped', () => {
    const storage = memoryStorage();
    const history = createHistoryStore(storage, { images: true });
    for (const phrase of ['a', 'b', 'c', 'd', 'e', 'f', 'A', '<b>mug</b>', '  ']) history.addPhrase(phrase);
    expect(history.phrases()).toEqual(['mug', 'A', 'f', 'e', 'd']);
    expect(JSON.parse(storage.getItem(RECENT_PHRASES_KEY) ?? '')).toEqual(['mug', 'A', 'f', 'e', 'd']);
  });

  it('survives broken storage contents and missing storage, and clears both lists', () => {
    const storage = memoryStorage();
    storage.setItem(RECENT_PRODUCTS_KEY, '{not json');
    storage.setItem(RECENT_PHRASES_KEY, '["ok", 5]');
    const history = createHistoryStore(storage, { images: true });
    expect(history.products()).toEqual([]);
    expect(history.phrases()).toEqual(['ok']);
    history.clear();
    expect(storage.data.size).toBe(0);
    const none = createHistoryStore(null, { images: true });
    none.addPhrase('x');
    expect(none.phrases()).toEqual([]);
  });

  it('drops stored products this version cannot show and keeps the rest', () => {
    const storage = memoryStorage();
    const good = product(7, 'Mug');
    storage.setItem(
      RECENT_PRODUCTS_KEY,
      JSON.stringify([
        { type: 'unknown-kind', value: 'x' },
        { type: 'product', value: 3 },
        { ...product(8, 'Bad id'), post_id: 'eight' },
        null,
        good,
      ]),
    );
    expect(createHistoryStore(storage, { images: true }).products()).toEqual([good]);
  });

  it('shows at most 5 of each even when storage holds more (written by hand or another version)', () => {
    const storage = memoryStorage();
    storage.setItem(
      RECENT_PRODUCTS_KEY,
      JSON.stringify([1, 2, 3, 4, 5, 6, 7].map((id) => product(id, `P${id}`))),
    );
    storage.setItem(RECENT_PHRASES_KEY, JSON.stringify(['a', 'b', 'c', 'd', 'e', 'f', 'g']));
    const history = createHistoryStore(storage, { images: true });
    expect(history.products().map((p) => p.post_id)).toEqual([1, 2, 3, 4, 5]);
    expect(history.phrases()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('with images off, saves the product with the history icon and no image of its own', () => {
    const history = createHistoryStore(memoryStorage(), { images: false });
    history.addProduct(product(1, 'P', { thumb_html: '<img>', image: '/p.jpg' }));
    expect(history.products()[0]).toMatchObject({ thumb_html: HISTORY_ICON_HTML, image: '' });
    const withImages = createHistoryStore(memoryStorage(), { images: true });
    withImages.addProduct(product(1, 'P', { thumb_html: '<img>', image: '/p.jpg' }));
    expect(withImages.products()[0]).toMatchObject({ thumb_html: '<img>', image: '/p.jpg' });
  });

  it('ignores stored history that is not a list, and reads nothing as nothing', () => {
    const storage = memoryStorage();
    const history = createHistoryStore(storage, { images: true });
    for (const raw of ['{"0":"mug"}', '"mug"', 'null', '', '7']) {
      storage.setItem(RECENT_PHRASES_KEY, raw);
      expect(history.phrases(), raw).toEqual([]);
    }
  });

  it('keeps working when storage refuses every read and write (private mode, full)', () => {
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    const history = createHistoryStore(refusing, { images: true });
    expect(() => {
      history.addPhrase('mug');
      history.addProduct(product(1, 'Mug'));
      history.clear();
    }).not.toThrow();
    expect(history.phrases()).toEqual([]);
    expect(history.products()).toEqual([]);
    expect(() => createHistoryStore(null, { images: true }).clear()).not.toThrow();
  });

  it('drops a stored product whose field has the wrong type, and keeps one whose fields are all right', () => {
    const full = product(7, 'Mug', {
      variation_id: 8,
      vendor_id: 9,
      term_id: 10,
      post_type: 'product',
      taxonomy: 'product_cat',
      image: '/mug.jpg',
      thumb_html: '<img>',
      sku: 'MUG',
      desc: 'A mug',
      on_sale: true,
      featured: false,
    });
    const { price: _price, ...stored } = full;
    const wrong: Record<string, unknown> = {
      url: 5,
      post_id: '7',
      variation_id: '8',
      vendor_id: '9',
      term_id: '10',
      post_type: 1,
      taxonomy: 1,
      image: 1,
      thumb_html: 1,
      sku: 1,
      desc: 1,
      on_sale: 'yes',
      featured: 1,
    };
    const storage = memoryStorage();
    const history = createHistoryStore(storage, { images: true });
    storage.setItem(RECENT_PRODUCTS_KEY, JSON.stringify([stored]));
    expect(history.products()).toEqual([stored]);
    for (const [field, value] of Object.entries(wrong)) {
      storage.setItem(RECENT_PRODUCTS_KEY, JSON.stringify([{ ...stored, [field]: value }, stored]));
      expect(history.products(), field).toEqual([stored]);
    }
    for (const entry of [[stored], 'product', 7, { value: 'Mug' }, { type: 'product' }]) {
      storage.setItem(RECENT_PRODUCTS_KEY, JSON.stringify([entry]));
      expect(history.products(), JSON.stringify(entry)).toEqual([]);
    }
  });

  it('moves a product or phrase seen again to the front instead of listing it twice', () => {
    const history = createHistoryStore(memoryStorage(), { images: true });
    for (const id of [1, 2, 1]) history.addProduct(product(id, `P${id}`));
    expect(history.products().map((p) => p.post_id)).toEqual([1, 2]);
    for (const phrase of ['mug', 'tea', 'MUG']) history.addPhrase(phrase);
    expect(history.phrases()).toEqual(['MUG', 'tea']);
  });

  it('the history icon is a decorative SVG the box’s styles know', () => {
    const history = createHistoryStore(memoryStorage(), { images: false });
    history.addProduct(product(1, 'P'));
    const icon = history.products()[0]?.thumb_html ?? '';
    expect(icon).toMatch(/^<svg class="shop-search__history-icon" aria-hidden="true"[^>]*>.*<\/svg>$/);
  });
});
