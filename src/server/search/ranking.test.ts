import { describe, expect, it } from 'vitest';
import {
  compileRules,
  GROUP_NONE,
  groupOf,
  PREFIX_BASE,
  prefixFactor,
  queryRank,
  rankBase,
  SHORT_FIELDS,
  termsOf,
  titleKey,
  titleKeysOf,
} from './ranking';
import { DEFAULT_RULES, SEARCH_FIELDS, SEARCH_GROUPS, type SearchDocument } from './SearchIndex';

function document(extra: Partial<SearchDocument> = {}): SearchDocument {
  return {
    key: 'product__1',
    kind: 'product',
    id: 1,
    parentId: null,
    taxonomy: null,
    postType: null,
    fields: {},
    featured: false,
    inStock: true,
    sales: 0,
    ...extra,
  };
}

const bit = (field: (typeof SEARCH_FIELDS)[number]) => 1 << SEARCH_FIELDS.indexOf(field);

describe('prefixFactor', () => {
  it('rises from the prefix base towards 0.9 as the word covers more of the term', () => {
    expect(prefixFactor(1, 10)).toBeCloseTo(0.72);
    expect(prefixFactor(5, 10)).toBeCloseTo(0.8);
    expect(prefixFactor(10, 10)).toBeCloseTo(0.9);
    expect(prefixFactor(1, 100)).toBeGreaterThan(PREFIX_BASE);
  });
});

describe('rankBase and queryRank', () => {
  it('orders featured above in stock above units sold', () => {
    const featuredOut = rankBase(document({ featured: true, inStock: false }));
    const plainIn = rankBase(document({ inStock: true, sales: 2 ** 20 - 1 }));
    const plainOut = rankBase(document({ inStock: false, sales: 500 }));
    expect(featuredOut).toBeGreaterThan(plainIn);
    expect(plainIn).toBeGreaterThan(plainOut);
    expect(rankBase(document({ inStock: false, sales: 501 }))).toBe(plainOut + 1);
  });

  it('clamps units sold to their bits, and negative or fractional sales count as whole units from zero', () => {
    expect(rankBase(document({ inStock: false, sales: 2 ** 30 }))).toBe(2 ** 20 - 1);
    expect(rankBase(document({ inStock: false, sales: -5 }))).toBe(0);
    expect(rankBase(document({ inStock: false, sales: 3.9 }))).toBe(3);
  });

  it('puts the score (to two decimals) above the rank base, and the stock tier above the score', () => {
    const best = rankBase(document({ featured: true, inStock: true, sales: 2 ** 20 - 1 }));
    expect(queryRank(1.01, 0, 0)).toBeGreaterThan(queryRank(1, 0, best));
    expect(queryRank(1.001, 0, 5)).toBe(queryRank(1, 0, 5));
    expect(queryRank(0, 1, 0)).toBeGreaterThan(queryRank(10_000, 0, best));
  });

  it('puts a whole-title match between the score and the rank base', () => {
    const best = rankBase(document({ featured: true, inStock: true, sales: 2 ** 20 - 1 }));
    expect(queryRank(1, 0, 0, true)).toBeGreaterThan(queryRank(1, 0, best));
    expect(queryRank(1.01, 0, 0)).toBeGreaterThan(queryRank(1, 0, best, true));
    expect(queryRank(1, 0, 7, true) - queryRank(1, 0, 7)).toBeGreaterThan(best);
  });
});

describe('titleKey', () => {
  it('reads a title or a query as typed words: folded, hyphenated chunks joined, symbols dropped', () => {
    expect(titleKey('  Hoodie ')).toBe('hoodie');
    expect(titleKey('T-Shirt  with LOGO')).toBe('tshirt with logo');
    expect(titleKey('Crème™ Brûlée')).toBe('creme brulee');
    expect(titleKeysOf(document({ fields: { title: ['Hoodie', 'HOODIE', ''] } }))).toEqual(['hoodie']);
    expect(titleKeysOf(document({ kind: 'variation', fields: { title: ['Hoodie'] } }))).toEqual([]);
  });
});

describe('groupOf', () => {
  it('puts products and variations together, terms by taxonomy, posts by type', () => {
    expect(groupOf(document())).toBe(SEARCH_GROUPS.indexOf('products'));
    expect(groupOf(document({ kind: 'variation' }))).toBe(SEARCH_GROUPS.indexOf('products'));
    expect(groupOf(document({ kind: 'term', taxonomy: 'product_tag' }))).toBe(
      SEARCH_GROUPS.indexOf('product_tag'),
    );
    expect(groupOf(document({ kind: 'vendor' }))).toBe(SEARCH_GROUPS.indexOf('vendors'));
    expect(groupOf(document({ kind: 'post', postType: 'page' }))).toBe(SEARCH_GROUPS.indexOf('page'));
    expect(groupOf(document({ kind: 'post', postType: null }))).toBe(GROUP_NONE);
  });
});

describe('termsOf', () => {
  it('marks each term with every field it appears in', () => {
    const terms = termsOf(document({ fields: { title: ['Linen shirt'], content: ['A shirt of linen'] } }));
    expect(terms.get('shirt')).toBe(bit('title') | bit('content'));
    expect(terms.get('linen')).toBe(bit('title') | bit('content'));
  });

  it('finds a variation by its whole SKU only', () => {
    const terms = termsOf(
      document({ kind: 'variation', fields: { sku: ['DEMO-LINEN-S'], title: ['Linen shirt'] } }),
    );
    expect([...terms]).toEqual([['demolinens', bit('sku')]]);
  });
});

describe('compileRules', () => {
  it('weighs a field mask by its best field', () => {
    const { fieldWeights } = compileRules(DEFAULT_RULES);
    expect(fieldWeights[bit('title') | bit('content')]).toBe(DEFAULT_RULES.boosts.title);
    expect(fieldWeights[bit('content')]).toBe(DEFAULT_RULES.boosts.content);
    expect(fieldWeights[0]).toBe(0);
    expect(SHORT_FIELDS & bit('content')).toBe(0);
  });

  it('folds stop words and links every synonym of a group to the others', () => {
    const { stopWords, synonyms } = compileRules({
      ...DEFAULT_RULES,
      stopWords: ['The', ''],
      synonyms: [['T-Shirt', 'tee', 'Top']],
    });
    expect([...stopWords]).toEqual(['the']);
    expect(synonyms.get('tshirt')).toEqual(['tee', 'top']);
    expect(synonyms.get('tee')).toEqual(['tshirt', 'top']);
  });
});
