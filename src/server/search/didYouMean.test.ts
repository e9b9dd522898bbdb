import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productDocument } from '../../../test-support/searchDocuments';
import {
  correctionEditsOf,
  didYouMean,
  type PastQuery,
  pastQueryEditsOf,
  type SearchVocabulary,
  type VocabularyWord,
  type WordVocabulary,
} from './didYouMean';
import { testSearchEngines } from './postgres/testSearchIndexes';
import { typoDistance } from './postgres/typoDistance';
import type { SearchDocument, SearchIndex } from './SearchIndex';

/*
 * Did you mean: the rules of the correction on a small dictionary (a fake with the engines' contract: first
 * letter as typed, Damerau distance), then the dictionary accessor of both engines on the same documents.
 */

/** A dictionary of term → documents, answering as the engines do. */
function fakeVocabulary(
  terms: Record<string, number>,
  stopWords: string[] = [],
): SearchVocabulary & {
  calls: VocabularyWord[][];
} {
  const calls: VocabularyWord[][] = [];
  return {
    calls,
    async vocabulary(words) {
      calls.push([...words]);
      return words.map((word): WordVocabulary => {
        let documents = terms[word.text] ?? 0;
        if (word.prefix) {
          for (const [term, count] of Object.entries(terms)) {
            if (term !== word.text && term.startsWith(word.text)) documents += count;
          }
        }
        const near =
          documents > 0 || word.maxEdits === 0
            ? []
            : Object.entries(terms)
                .filter(([term]) => term[0] === word.text[0])
                .map(([term, count]) => ({
                  term,
                  distance: typoDistance(word.text, term, word.nearByPrefix),
                  documents: count,
                }))
                .filter((entry) => entry.distance > 0 && entry.distance <= word.maxEdits);
        return { documents, stopWord: stopWords.includes(word.text), near };
      });
    },
  };
}

const DICTIONARY = {
  hoodie: 40,
  hoodies: 3,
  linen: 12,
  shirt: 30,
  short: 8,
  shorts: 9,
  case: 5,
  cave: 1,
  blue: 20,
  with: 50,
  zipper: 6,
  teapot: 4,
  teacup: 7,
};

async function correct(
  text: string,
  options: { found?: boolean; past?: PastQuery[]; vocabulary?: SearchVocabulary } = {},
) {
  const correction = await didYouMean({
    text,
    found: options.found ?? false,
    vocabulary: options.vocabulary ?? fakeVocabulary(DICTIONARY),
    pastQueries: async () => options.past ?? [],
  });
  return correction?.query ?? null;
}

describe('did you mean', () => {
  it('leaves a query alone when it found something and the dictionary knows every word', async () => {
    expect(await correct('linen shirt', { found: true })).toBeNull();
    // The last word is being typed: a beginning of a known term is known.
    expect(await correct('linen shi', { found: true })).toBeNull();
  });

  it('corrects a query that found nothing to the nearest terms', async () => {
    expect(await correct('lnen shirt')).toBe('linen shirt');
    expect(await correct('hodie')).toBe('hoodie');
  });

  it('corrects a query that found only through typos (a word the dictionary does not know)', async () => {
    expect(await correct('blue hodie', { found: true })).toBe('blue hoodie');
  });

  it('prefers fewer edits, then the word shoppers searched most, then the term in most documents', async () => {
    // "shrt" is one edit from both "shirt" (30 documents) and "short" (8).
    expect(await correct('shrt blue')).toBe('shirt blue');
    expect(await correct('shrt blue', { past: [{ query: 'short', searches: 3 }] })).toBe('short blue');
    // One edit beats two, however popular the farther term is.
    expect(await correct('shorta blue', { past: [{ query: 'shirt', searches: 99 }] })).toBe('shorts blue');
  });

  it('looks the word being typed up as a whole word too, with the whole-word budget', async () => {
    // "hodiee" is two edits from "hoodie": more than a beginning may have, within a 6-letter word's budget.
    expect(await correct('hodiee')).toBe('hoodie');
  });

  it('gives no correction from the dictionary unless every unknown word has one', async () => {
    expect(await correct('hodie qqqzz')).toBeNull();
  });

  it('never corrects one- or two-letter words, words with digits or stop words', async () => {
    const vocabulary = fakeVocabulary({ ...DICTIONARY, tea: 2, '4xs': 3 }, ['teh']);
    expect(await correct('xl', { vocabulary })).toBeNull();
    expect(await correct('shirt 4xl', { vocabulary })).toBeNull();
    expect(await correct('teh', { vocabulary })).toBeNull();
    expect(correctionEditsOf(2)).toBe(0);
  });

  it('allows one edit from 3 letters and two from 5', async () => {
    expect(await correct('cse')).toBe('case');
    expect(await correct('lnn blue')).toBeNull();
    expect(await correct('lnn blue', { vocabulary: fakeVocabulary({ linen: 1, lnnx: 1, blue: 1 }) })).toBe(
      'lnnx blue',
    );
    expect(await correct('zppr blue')).toBeNull();
    expect(await correct('ziper blue')).toBe('zipper blue');
    expect(await correct('zpier blue')).toBe('zipper blue');
    expect([3, 4, 5, 8].map(correctionEditsOf)).toEqual([1, 1, 2, 2]);
  });

  it('takes a past successful query near the whole text, even with the first letter wrong', async () => {
    const past = [{ query: 'hoodie with zipper', searches: 4 }];
    // The dictionary keeps the first letter as typed; shoppers' own queries do not.
    expect(await correct('ohodie with zipper')).toBeNull();
    expect(await correct('ohodie with zipper', { past })).toBe('hoodie with zipper');
    expect([3, 4, 7, 8].map(pastQueryEditsOf)).toEqual([0, 1, 1, 2]);
  });

  it('prefers a past query to the dictionary at equal edits, and the dictionary when it is nearer', async () => {
    const ask = (text: string, past: PastQuery[]) =>
      didYouMean({
        text,
        found: false,
        vocabulary: fakeVocabulary(DICTIONARY),
        pastQueries: async () => past,
      });
    // "teacp": one edit from the term "teacup" and from the past query "teacup": the shoppers' query answers.
    expect(await ask('teacp', [{ query: 'teacup', searches: 1 }])).toEqual({
      query: 'teacup',
      source: 'past-query',
    });
    expect(await ask('teacp', [])).toEqual({ query: 'teacup', source: 'vocabulary' });
    // "hodie with zipper": one edit in the dictionary, two from the past query: the nearer one wins.
    expect(await ask('hodie with zipper', [{ query: 'hoodie with zippers', searches: 50 }])).toEqual({
      query: 'hoodie with zipper',
      source: 'vocabulary',
    });
  });

  it('ignores a past query the dictionary does not know (one that itself found through typos)', async () => {
    expect(await correct('hoodei', { past: [{ query: 'hoodee', searches: 9 }] })).toBe('hoodie');
  });

  it('reads past queries only when a correction is needed', async () => {
    let reads = 0;
    const pastQueries = async () => {
      reads++;
      return [];
    };
    const vocabulary = fakeVocabulary(DICTIONARY);
    await didYouMean({ text: 'linen shirt', found: true, vocabulary, pastQueries });
    expect(reads).toBe(0);
    await didYouMean({ text: 'lnen shirt', found: true, vocabulary, pastQueries });
    expect(reads).toBe(1);
  });

  it('asks the dictionary for near terms by beginning only for the word being typed, from 4 letters', async () => {
    const vocabulary = fakeVocabulary(DICTIONARY);
    await correct('lnen hodi', { vocabulary });
    expect(vocabulary.calls[0]).toEqual([
      { text: 'lnen', prefix: false, maxEdits: 1, nearByPrefix: false },
      { text: 'hodi', prefix: true, maxEdits: 1, nearByPrefix: true },
    ]);
    expect(await correct('lnen hodi')).toBe('linen hoodie');
  });
});

function product(id: number, title: string, content = ''): SearchDocument {
  return productDocument(id, title, content ? { fields: { title: [title], content: [content] } } : {});
}

describe.each(testSearchEngines())('the dictionary accessor on $name', (engine) => {
  if (engine.skip) {
    it.skip('needs TEST_DATABASE_URL (npm run test:postgres)', () => {});
    return;
  }
  let index: SearchIndex;
  beforeAll(async () => {
    await engine.setup();
    index = await engine.make({
      synonyms: [['sweater', 'jumper']],
      stopWords: ['with'],
      boosts: { title: 10, sku: 8, taxonomy: 5, attributes: 4, content: 1 },
      outOfStock: 'normal',
      pins: {},
    });
    await index.replaceAll([
      product(1, 'Hoodie with Zipper'),
      product(2, 'Zip Hoodie'),
      product(3, 'Linen Shirt'),
      product(4, 'Jumper'),
      product(5, 'Sailing Shorts'),
      product(6, 'Phone Case'),
      product(7, 'Ring of Oak'),
      product(8, 'Hanger on an oak ring'),
    ]);
  });
  afterAll(() => engine.teardown());

  it('never offers a one- or two-letter word joined to the next by the index', async () => {
    // "an oak" is indexed as `anoak` too (so "t shirt" finds "tshirt"); "anorak" is one edit from it, and two
    // from nothing else: no near term, so no "Showing results for anoak".
    const [anorak, oakk] = await index.vocabulary([
      { text: 'anorak', prefix: false, maxEdits: 2, nearByPrefix: false },
      { text: 'oakk', prefix: false, maxEdits: 1, nearByPrefix: false },
    ]);
    expect(anorak?.near).toEqual([]);
    expect(oakk?.near.map((entry) => entry.term)).toEqual(['oak']);
  });

  it('counts the documents a word reaches as typed, with synonyms and completions', async () => {
    const answers = await index.vocabulary([
      { text: 'hoodie', prefix: false, maxEdits: 1, nearByPrefix: false },
      { text: 'sweater', prefix: false, maxEdits: 2, nearByPrefix: false },
      { text: 'shi', prefix: true, maxEdits: 1, nearByPrefix: false },
      { text: 'with', prefix: false, maxEdits: 0, nearByPrefix: false },
    ]);
    expect(answers.map((answer) => answer.documents)).toEqual([2, 1, 1, 1]);
    expect(answers.map((answer) => answer.stopWord)).toEqual([false, false, false, true]);
    // Known words get no near terms: only unknown ones are corrected.
    expect(answers.every((answer) => answer.near.length === 0)).toBe(true);
  });

  it('lists the near terms of an unknown word, whole or by beginning', async () => {
    const [whole, byBeginning, short] = await index.vocabulary([
      { text: 'hodie', prefix: false, maxEdits: 2, nearByPrefix: false },
      { text: 'shrt', prefix: true, maxEdits: 1, nearByPrefix: true },
      { text: 'cse', prefix: false, maxEdits: 1, nearByPrefix: false },
    ]);
    expect(whole?.documents).toBe(0);
    expect(whole?.near).toEqual([{ term: 'hoodie', distance: 1, documents: 2 }]);
    expect(byBeginning?.near.map((entry) => entry.term).sort()).toEqual(['shirt', 'shorts']);
    expect(short?.near).toEqual([{ term: 'case', distance: 1, documents: 1 }]);
  });

  it('corrects with the engine as its dictionary, and searches the words as typed when asked', async () => {
    const correction = await didYouMean({
      text: 'lnen shrt',
      found: false,
      vocabulary: index,
      pastQueries: async () => [],
    });
    expect(correction).toEqual({ query: 'linen shirt', source: 'vocabulary' });
    const typo = { text: 'hodie', limits: { products: 5 } };
    expect((await index.search(typo)).totalProducts).toBe(2);
    expect((await index.search({ ...typo, typos: false })).totalProducts).toBe(0);
    expect(await index.searchProductIds('hodie')).toHaveLength(2);
    expect(await index.searchProductIds('hodie', { typos: false })).toEqual([]);
    // The three-letter fallback is a typo too.
    expect(await index.searchProductIds('cse', { typos: false })).toEqual([]);
  });
});
