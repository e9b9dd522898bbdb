// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { createHistoryStore } from './createHistoryStore';
import { product } from './testSupport';

/*
 * The history's local-storage key names are part of the contract (the names FiboSearch uses): spelled out
 * here, never read through the module's constants.
 */

beforeEach(() => localStorage.clear());

describe('the history in the browser’s local storage', () => {
  it('keeps searched phrases under fibosearch_recently_searched_phrases, as a JSON array', () => {
    createHistoryStore(localStorage, { images: true }).addPhrase('linen shirt');
    expect(JSON.parse(localStorage.getItem('fibosearch_recently_searched_phrases') ?? 'null')).toEqual([
      'linen shirt',
    ]);
  });

  it('reads phrases a previous visit left under that key', () => {
    localStorage.setItem('fibosearch_recently_searched_phrases', JSON.stringify(['mug', 'candle']));
    expect(createHistoryStore(localStorage, { images: true }).phrases()).toEqual(['mug', 'candle']);
  });

  it('keeps viewed products under fibosearch_recently_viewed_products', () => {
    createHistoryStore(localStorage, { images: true }).addProduct(product(7, 'Mug'));
    const stored = JSON.parse(localStorage.getItem('fibosearch_recently_viewed_products') ?? 'null');
    expect(stored).toMatchObject([{ post_id: 7, value: 'Mug' }]);
  });

  it('clears both keys', () => {
    const history = createHistoryStore(localStorage, { images: true });
    history.addPhrase('mug');
    history.addProduct(product(7, 'Mug'));
    history.clear();
    expect(localStorage.getItem('fibosearch_recently_searched_phrases')).toBeNull();
    expect(localStorage.getItem('fibosearch_recently_viewed_products')).toBeNull();
  });
});
