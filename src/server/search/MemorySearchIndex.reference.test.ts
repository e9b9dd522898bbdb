import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { productDocument } from '../../../test-support/searchDocuments';
import { MemorySearchIndex } from './MemorySearchIndex';
import { parseSearchQuery, type QueryWord } from './parseSearchQuery';
import {
  compileRules,
  EXACT,
  maxEditsOf,
  PREFIX_BASE,
  prefixFactor,
  queryRank,
  rankBase,
  SHORT_FIELDS,
  SHORT_TYPO_LENGTH,
  SHORT_WORD,
  TYPO,
  TYPO_THRESHOLD,
  termsOf,
  titleKey,
  titleKeysOf,
} from './ranking';
import { DEFAULT_RULES, type SearchDocument } from './SearchIndex';

/*
 * The embedded index against a brute-force reference: every document, every term, no posting lists, no rarest-first
 * order, no galloping, no forward index, no early cut. The reference restates the matching rules of ranking.ts
 * (a word matches a term exactly, as a prefix when it is the last word, or within its typo allowance when the word
 * as typed reaches fewer than TYPO_THRESHOLD postings; typos and one- or two-letter words never count in
 * descriptions) and ranks with the shared queryRank. Catalogs are drawn with a skewed vocabulary, so that common
 * words have long posting lists next to rare ones: the case the index's shortcuts are for.
 */

const VOCABULARY = [
  // Common words first: the generator picks them far more often.
  'shirt',
  'blue',
  'cotton',
  's',
  't',
  'sh',
  'tshirt',
  'shoe',
  'short',
  'shorts',
  'linen',
  'line',
  'wool',
  'wood',
  'hood',
  'hoodie',
  'cap',
  'case',
  'cup',
  'blouse',
  'blu',
  'an',
  'zip',
  'zipper',
  'tee',
];

/** Optimal-string-alignment distance (a swap of neighbours is one edit), as the typo scan counts. */
function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const table = new Int32Array((a.length + 1) * width);
  const at = (i: number, j: number) => table[i * width + j] as number;
  for (let i = 0; i <= a.length; i++) table[i * width] = i;
  for (let j = 0; j <= b.length; j++) table[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, at(i - 2, j - 2) + 1);
      }
      table[i * width + j] = value;
    }
  }
  return at(a.length, b.length);
}

/** The typo distance of a word to a term: the first letter as typed; with a prefix word, its nearest prefix. */
function typoDistance(word: string, term: string, prefix: boolean): number {
  if (term[0] !== word[0]) return Number.POSITIVE_INFINITY;
  if (!prefix) return editDistance(word, term);
  let best = Number.POSITIVE_INFINITY;
  for (let end = 1; end <= term.length; end++) best = Math.min(best, editDistance(word, term.slice(0, end)));
  return best;
}

interface ReferenceResult {
  /** Product ids, best first, every match. */
  ranked: number[];
}

function referenceSearch(documents: SearchDocument[], text: string): ReferenceResult {
  const { fieldWeights } = compileRules(DEFAULT_RULES);
  const termMaps = documents.map((document) => termsOf(document));
  const postingsOf = (term: string) => termMaps.filter((terms) => terms.has(term)).length;
  const allTerms = [...new Set(termMaps.flatMap((terms) => [...terms.keys()]))];
  const readings = parseSearchQuery(text, new Set());
  const whole = titleKey(text);

  /** Each document's best score for one word, or 0. */
  const clauseScores = (word: QueryWord, shortTypos: boolean): number[] => {
    const factors = new Map<string, number>();
    let postings = 0;
    for (const term of allTerms) {
      if (term === word.text) {
        factors.set(term, EXACT);
        postings += postingsOf(term);
      } else if (word.prefix && term.startsWith(word.text)) {
        factors.set(term, prefixFactor(word.text.length, term.length));
        postings += postingsOf(term);
      }
    }
    const maxEdits = maxEditsOf(word.text.length, shortTypos);
    if (maxEdits > 0 && postings < TYPO_THRESHOLD) {
      const typoPrefix = word.prefix && word.text.length > SHORT_TYPO_LENGTH;
      for (const term of allTerms) {
        // A typo outranks nothing but the exact word: a prefix-range term one edit away takes the typo factor.
        if (term === word.text) continue;
        const distance = typoDistance(word.text, term, typoPrefix);
        if (distance > 0 && distance <= maxEdits) factors.set(term, TYPO[distance] as number);
      }
    }
    const short = word.text.length <= SHORT_WORD;
    return termMaps.map((terms) => {
      let best = 0;
      for (const [term, factor] of factors) {
        const mask = terms.get(term);
        if (mask === undefined) continue;
        const fields = short || factor < PREFIX_BASE ? SHORT_FIELDS : 0xff;
        if ((mask & fields) === 0) continue;
        best = Math.max(best, factor * (fieldWeights[mask & fields] as number));
      }
      return best;
    });
  };

  const scoresFor = (shortTypos: boolean): Map<number, number> => {
    const best = new Map<number, number>();
    for (const [index, reading] of readings.entries()) {
      const weight = (index === 0 ? 1 : 0.9) / reading.length;
      const perWord = reading.map((word) => clauseScores(word, shortTypos));
      for (let doc = 0; doc < documents.length; doc++) {
        if (perWord.some((scores) => scores[doc] === 0)) continue;
        // Summed rarest word first, as the index adds them, so that rounding to two decimals agrees.
        const order = perWord
          .map((scores, word) => ({ word, count: scores.filter((score) => score > 0).length }))
          .sort((a, b) => a.count - b.count)
          .map(({ word }) => word);
        let sum = 0;
        for (const word of order) sum += (perWord[word] as number[])[doc] as number;
        const score = sum * weight;
        if (score > (best.get(doc) ?? -1)) best.set(doc, score);
      }
    }
    return best;
  };

  let scores = scoresFor(false);
  if (scores.size === 0 && readings.some((words) => words.some((word) => word.text.length === 3))) {
    scores = scoresFor(true);
  }
  const ranked = [...scores]
    .map(([doc, score]) => {
      const document = documents[doc] as SearchDocument;
      const wholeTitle = titleKeysOf(document).includes(whole);
      return { doc, rank: queryRank(score, 0, rankBase(document), wholeTitle) };
    })
    .sort((a, b) => b.rank - a.rank || a.doc - b.doc)
    .map(({ doc }) => (documents[doc] as SearchDocument).id);
  return { ranked };
}

const word = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...VOCABULARY.slice(0, 5)) },
  { weight: 1, arbitrary: fc.constantFrom(...VOCABULARY) },
);
const documentsArbitrary = fc
  .array(
    fc.record({
      title: fc.array(word, { minLength: 1, maxLength: 4 }),
      content: fc.array(word, { maxLength: 5 }),
      featured: fc.boolean(),
      sales: fc.integer({ min: 0, max: 3 }),
    }),
    { minLength: 1, maxLength: 250, size: 'max' },
  )
  .map((rows) =>
    rows.map(
      (row, index): SearchDocument => ({
        key: `product__${index + 1}`,
        kind: 'product',
        id: index + 1,
        parentId: null,
        taxonomy: null,
        postType: null,
        fields: { title: [row.title.join(' ')], content: row.content.length ? [row.content.join(' ')] : [] },
        featured: row.featured,
        inStock: true,
        sales: row.sales,
      }),
    ),
  );
/** Whole words, prefixes of them and one-letter slips, joined by spaces or a hyphen. */
const queryArbitrary = fc
  .array(
    fc.tuple(
      fc.constantFrom(...VOCABULARY),
      fc.integer({ min: 1, max: 8 }),
      fc.constantFrom('', '', '', 'x', 'e'),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .chain((parts) =>
    fc
      .constantFrom(' ', ' ', '-')
      .map((separator) =>
        parts
          .map(([text, cut, slip], index) =>
            index === parts.length - 1 ? text.slice(0, cut) + slip : text + slip,
          )
          .join(separator),
      ),
  );

describe('MemorySearchIndex against a brute-force reference', () => {
  it('finds and ranks the same products, whatever order and shortcut the index takes', async () => {
    await fc.assert(
      fc.asyncProperty(
        documentsArbitrary,
        fc.array(queryArbitrary, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 8 }),
        async (documents, queries, limit) => {
          const index = new MemorySearchIndex();
          await index.replaceAll(documents);
          // Budget 0: a one-word query stops as soon as its top is certain, however few postings are left.
          const cutting = new MemorySearchIndex(DEFAULT_RULES, { exactTotalBudget: 0 });
          await cutting.replaceAll(documents);
          for (const text of queries) {
            const { ranked } = referenceSearch(documents, text);
            expect(await index.searchProductIds(text), text).toEqual(ranked);
            const result = await index.search({ text, limits: { products: limit } });
            expect(result.hits.products?.map((hit) => hit.id) ?? [], text).toEqual(ranked.slice(0, limit));
            expect(result.totalProducts, text).toBe(ranked.length);
            expect(result.totalIsLowerBound, text).toBeUndefined();
            const cut = await cutting.search({ text, limits: { products: limit } });
            expect(cut.hits.products?.map((hit) => hit.id) ?? [], text).toEqual(ranked.slice(0, limit));
            if (cut.totalIsLowerBound) {
              expect(cut.totalProducts, text).toBeLessThanOrEqual(ranked.length);
              expect(cut.totalProducts, text).toBeGreaterThanOrEqual(limit);
            } else expect(cut.totalProducts, text).toBe(ranked.length);
          }
        },
      ),
      { numRuns: 100 },
    );
  }, 120_000);
});

describe('a broad one-word keystroke', () => {
  const product = productDocument;
  // 4,000 products starting with "s"; the best-scoring "s" words (the shortest) are in four titles only, the
  // best of all ("So") in an out-of-stock product's.
  const catalog: SearchDocument[] = [
    ...Array.from({ length: 2000 }, (_, n) => product(n + 1, `Shirt ${n}`, { sales: n % 50 })),
    product(3001, 'Sofa Grey', { sales: 5 }),
    product(3002, 'Sofa Blue', { sales: 9 }),
    product(3003, 'Sofa Red', { sales: 1 }),
    product(3004, 'So Chair', { sales: 7, inStock: false }),
    ...Array.from({ length: 1996 }, (_, n) => product(4000 + n, `Stripe ${n}`)),
    {
      ...product(0, 'Shoes'),
      key: 'taxonomy__77__product_cat',
      kind: 'term',
      id: 77,
      taxonomy: 'product_cat',
    },
  ];
  const limits = { products: 3, product_cat: 2 };

  it('gives the exact top and, when counting the rest costs more than the budget, a total flagged as a lower bound', async () => {
    const index = new MemorySearchIndex(DEFAULT_RULES, { exactTotalBudget: 1000 });
    await index.replaceAll(catalog);
    for (const text of ['s', 'so', 'sof']) {
      const result = await index.search({ text, limits });
      expect(
        result.hits.products?.map((hit) => hit.id),
        text,
      ).toEqual(text === 'sof' ? [3002, 3001, 3003] : [3004, 3002, 3001]);
      // The category was listed before the products: still found though the products' walk stopped.
      expect(
        result.hits.product_cat?.map((hit) => hit.id),
        text,
      ).toEqual(text === 's' ? [77] : []);
    }
    const broad = await index.search({ text: 's', limits });
    expect(broad.totalIsLowerBound).toBe(true);
    expect(broad.totalProducts).toBeGreaterThanOrEqual(3);
    expect(broad.totalProducts).toBeLessThan(4000);
    // The results page still lists every match, in the same order.
    const all = await index.searchProductIds('s');
    expect(all).toHaveLength(4000);
    expect(all.slice(0, 4)).toEqual([3004, 3002, 3001, 3003]);
  });

  it('counts exactly when the rest is cheap to count', async () => {
    const index = new MemorySearchIndex();
    await index.replaceAll(catalog);
    const result = await index.search({ text: 's', limits });
    expect(result.hits.products?.map((hit) => hit.id)).toEqual([3004, 3002, 3001]);
    expect(result.totalIsLowerBound).toBeUndefined();
    expect(result.totalProducts).toBe(4000);
  });

  it('applies the out-of-stock rule to the top it stops on', async () => {
    const index = new MemorySearchIndex({ ...DEFAULT_RULES, outOfStock: 'hide' }, { exactTotalBudget: 0 });
    // Two sofas and the hidden "So" score best: the third product shown is the best-selling shirt, which the walk
    // reaches only if it does not count the hidden product among the top.
    await index.replaceAll(catalog.filter((document) => document.id !== 3003));
    const result = await index.search({ text: 's', limits });
    expect(result.hits.products?.map((hit) => hit.id)).toEqual([3002, 3001, 50]);
  });
});
