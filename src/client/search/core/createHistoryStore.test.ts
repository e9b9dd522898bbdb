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
});
