import { describe, expect, it } from 'vitest';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES, type SearchDocument } from './SearchIndex';

function product(id: number, title: string, extra: Partial<SearchDocument> = {}): SearchDocument {
  return {
    key: `product__${id}`,
    kind: 'product',
    id,
    parentId: null,
    taxonomy: null,
    postType: null,
    fields: { title: [title] },
    featured: false,
    inStock: true,
    sales: 0,
    ...extra,
  };
}

function productIds(index: MemorySearchIndex, text: string): number[] {
  return (index.search({ text, limits: { products: 20 } }).hits.products ?? []).map((hit) => hit.id);
}

describe('MemorySearchIndex', () => {
  const documents = [
    product(1, 'Hoodie with Logo', { sales: 5 }),
    product(2, 'Zip Hoodie', { sales: 50 }),
    product(3, 'Wooden Spoon'),
    product(4, 'Cotton T-Shirt'),
    product(5, 'Plain Tshirt'),
    product(6, 'Crème Fig Candle'),
    product(7, 'Board', { fields: { title: ['Board'], content: ['A hoodie hanger'] } }),
    product(8, 'Beanie', { fields: { title: ['Beanie'], sku: ['woo-beanie'] } }),
    product(9, 'Tinted Glasses', { inStock: false, sales: 1000 }),
    product(10, 'Reading Glasses'),
  ];
  const index = new MemorySearchIndex();
  index.replaceAll(documents);

  it('matches the last word as a prefix and ranks title matches above content matches', () => {
    // Wooden's "wood" is one edit from "hood", but the first letter is taken as typed.
    expect(productIds(index, 'hood')).toEqual([2, 1, 7]);
  });

  it('finds a word with one typo, below exact matches', () => {
    // Typos count in names, SKUs and taxonomies, not in descriptions (the board's "hoodie hanger").
    expect(productIds(index, 'hodie')).toEqual([2, 1]);
    expect(productIds(index, 'hoodie')).toEqual([2, 1, 7]);
    expect(productIds(index, 'spon')).toEqual([3]);
    expect(productIds(index, 'woden')).toEqual([3]);
  });

  it('allows no typo in words of three letters', () => {
    expect(productIds(index, 'zop')).toEqual([]);
  });

  it('requires every word (AND), earlier words whole', () => {
    expect(productIds(index, 'zip hood')).toEqual([2]);
    expect(productIds(index, 'hoodie w')).toEqual([1]);
    expect(productIds(index, 'w hoodie')).toEqual([]);
  });

  it('checks few candidates against a word with huge postings by their own terms (the forward check)', () => {
    const big = new MemorySearchIndex();
    const widgets = Array.from({ length: 500 }, (_, n) => product(100 + n, `Widget ${n} warm`));
    big.replaceAll([...documents, ...widgets]);
    big.update([product(900, 'Hoodie Wrap')], []);
    expect(productIds(big, 'hoodie w').sort()).toEqual([1, 900]);
    expect(productIds(big, 'widget 42 w')).toEqual([142]);
    expect(productIds(index, 'zi hood')).toEqual([]);
  });

  it('treats t-shirt, tshirt and t shirt alike', () => {
    for (const text of ['t-shirt', 'tshirt', 't shirt', 'T-SHIRT']) {
      expect(productIds(index, text).sort()).toEqual([4, 5]);
    }
  });

  it('folds accents and case both ways', () => {
    expect(productIds(index, 'creme')).toEqual([6]);
    expect(productIds(index, 'CRÈME fig')).toEqual([6]);
  });

  it('finds a SKU whole and by its parts', () => {
    expect(productIds(index, 'woo-beanie')).toEqual([8]);
    expect(productIds(index, 'woobea')).toEqual([8]);
  });

  it('puts in-stock products first among equals, and applies the out-of-stock rule', () => {
    expect(productIds(index, 'glasses')).toEqual([10, 9]);
    const hiding = new MemorySearchIndex({ ...DEFAULT_RULES, outOfStock: 'hide' });
    hiding.replaceAll(documents);
    expect(productIds(hiding, 'glasses')).toEqual([10]);
  });

  it('applies synonyms, stop words, boosts and pins without a rebuild', () => {
    const tuned = new MemorySearchIndex();
    tuned.replaceAll(documents);
    expect(productIds(tuned, 'sweatshirt')).toEqual([]);
    tuned.setRules({
      ...DEFAULT_RULES,
      synonyms: [['hoodie', 'sweatshirt']],
      stopWords: ['with'],
      boosts: { ...DEFAULT_RULES.boosts, content: 20 },
      pins: { glasses: [9] },
    });
    expect(productIds(tuned, 'sweatshirt')).toEqual([7, 2, 1]);
    expect(productIds(tuned, 'hoodie with')).toEqual([7, 2, 1]);
    expect(productIds(tuned, 'glasses')).toEqual([9, 10]);
  });

  it('updates documents in place and removes them', () => {
    const live = new MemorySearchIndex();
    live.replaceAll(documents);
    live.update([product(3, 'Walnut Spoon'), product(11, 'Hoodie Dress')], ['product__1']);
    expect(productIds(live, 'wooden')).toEqual([]);
    expect(productIds(live, 'walnut')).toEqual([3]);
    expect(productIds(live, 'hood')).toEqual([2, 11, 7]);
    expect(live.size).toBe(10);
  });

  it('counts every matching product and lists all of them in order for results pages', () => {
    const result = index.search({ text: 'hood', limits: { products: 1 } });
    expect(result.totalProducts).toBe(3);
    expect(result.hits.products?.map((hit) => hit.id)).toEqual([2]);
    expect(index.searchProductIds('hood')).toEqual([2, 1, 7]);
  });

  it('answers nonsense and hostile input with nothing rather than an error', () => {
    // Words that name inherited object properties must not reach Object.prototype.
    const inherited = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
    for (const text of [
      '',
      '   ',
      '"',
      '*',
      'NEAR(',
      'OR',
      '\u0000\u0001',
      'x'.repeat(10000),
      '%_\\',
      ...inherited,
    ]) {
      expect(() => index.search({ text, limits: { products: 5 } })).not.toThrow();
    }
    expect(productIds(index, '*')).toEqual([]);
  });
});
