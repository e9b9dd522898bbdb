import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productDocument } from '../../../test-support/searchDocuments';
import { testSearchEngines } from './postgres/testSearchIndexes';
import { DEFAULT_RULES, type SearchIndex } from './SearchIndex';

/*
 * The relevance contract of a SearchIndex: the same cases run on the embedded index and, when TEST_DATABASE_URL
 * is set, on the PostgreSQL index (testSearchEngines).
 */

const product = productDocument;

async function productIds(index: SearchIndex, text: string): Promise<number[]> {
  return ((await index.search({ text, limits: { products: 20 } })).hits.products ?? []).map((hit) => hit.id);
}

describe.each(testSearchEngines())('$name', (engine) => {
  if (engine.skip) {
    it.skip('needs TEST_DATABASE_URL (npm run test:postgres)', () => {});
    return;
  }
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
  let index: SearchIndex;
  beforeAll(async () => {
    await engine.setup();
    index = await engine.make();
    await index.replaceAll(documents);
  });
  afterAll(() => engine.teardown());

  it('matches the last word as a prefix and ranks title matches above content matches', async () => {
    // Wooden's "wood" is one edit from "hood", but the first letter is taken as typed.
    expect(await productIds(index, 'hood')).toEqual([2, 1, 7]);
  });

  it('finds a word with one typo, below exact matches', async () => {
    // Typos count in names, SKUs and taxonomies, not in descriptions (the board's "hoodie hanger").
    expect(await productIds(index, 'hodie')).toEqual([2, 1]);
    expect(await productIds(index, 'hoodie')).toEqual([2, 1, 7]);
    expect(await productIds(index, 'spon')).toEqual([3]);
    expect(await productIds(index, 'woden')).toEqual([3]);
  });

  it('allows one typo in a three-letter word only when the query as typed finds nothing', async () => {
    const short = await engine.make();
    await short.replaceAll([
      product(1, 'Phone Case'),
      product(2, 'Cream Jar'),
      product(3, 'Cup'),
      product(4, 'Cap'),
      product(5, 'Gear Bag'),
      product(6, 'Gel Pen', { fields: { title: ['Gel Pen'], content: ['Writes in blue ink'] } }),
    ]);
    // "cse" completes to nothing: one edit reaches the whole term "case" ("cs" + a), not "cream" ("cre" is
    // one edit from "cse" only as a prefix).
    expect(await productIds(short, 'cse')).toEqual([1]);
    expect(await productIds(short, 'phone cse')).toEqual([1]);
    expect(await productIds(short, 'cse phone')).toEqual([1]);
    expect(await short.searchProductIds('cse')).toEqual([1]);
    // Two edits ("csx" → "case") stay out of reach, and typos skip descriptions ("inx" → "ink").
    expect(await productIds(short, 'csx')).toEqual([]);
    expect(await productIds(short, 'inx')).toEqual([]);
    expect(await productIds(short, 'ink')).toEqual([6]);
    // Found as typed: no typo neighbours join ("cup" is one edit from "cap", "gea" from "gel").
    expect(await productIds(short, 'cup')).toEqual([3]);
    expect(await productIds(short, 'gea')).toEqual([5]);
    // Nothing as typed: every one-edit whole term, equal typos in load order.
    expect(await productIds(short, 'cxp')).toEqual([3, 4]);
    expect(await productIds(short, 'gar')).toEqual([5]);
    // The first letter is taken as typed, and one- or two-letter words get no typo.
    expect(await productIds(short, 'xup')).toEqual([]);
    expect(await productIds(short, 'cx')).toEqual([]);
    expect(await productIds(index, 'zop')).toEqual([2]);
  });

  it('requires every word (AND), earlier words whole', async () => {
    expect(await productIds(index, 'zip hood')).toEqual([2]);
    expect(await productIds(index, 'hoodie w')).toEqual([1]);
    expect(await productIds(index, 'w hoodie')).toEqual([]);
  });

  it('checks few candidates against a word with huge postings by their own terms (the forward check)', async () => {
    const big = await engine.make();
    const widgets = Array.from({ length: 500 }, (_, n) => product(100 + n, `Widget ${n} warm`));
    await big.replaceAll([...documents, ...widgets]);
    await big.update([product(900, 'Hoodie Wrap')], []);
    expect((await productIds(big, 'hoodie w')).sort()).toEqual([1, 900]);
    expect(await productIds(big, 'widget 42 w')).toEqual([142]);
    expect(await productIds(index, 'zi hood')).toEqual([]);
  });

  it('treats t-shirt, tshirt and t shirt alike', async () => {
    for (const text of ['t-shirt', 'tshirt', 't shirt', 'T-SHIRT']) {
      expect((await productIds(index, text)).sort()).toEqual([4, 5]);
    }
  });

  it('folds accents and case both ways', async () => {
    expect(await productIds(index, 'creme')).toEqual([6]);
    expect(await productIds(index, 'CRÈME fig')).toEqual([6]);
  });

  it('drops trademark symbols rather than reading them as letters, in the catalog and in the query', async () => {
    const marks = await engine.make();
    await marks.replaceAll([product(1, 'Acme™ Mug'), product(2, 'Zeta® Cup'), product(3, 'Time Mug')]);
    expect(await productIds(marks, 'acme mug')).toEqual([1]);
    expect(await productIds(marks, 'acme™ mug')).toEqual([1]);
    expect(await productIds(marks, 'zeta cup')).toEqual([2]);
    // "tm" is no word of the catalog: not the Acme mug's mark, and "time" is two edits away.
    expect(await productIds(marks, 'tm')).toEqual([]);
    expect(await productIds(marks, 'acmetm')).toEqual([]);
  });

  it('ranks a whole-title exact match above featured and better-selling partial matches', async () => {
    const titles = await engine.make();
    await titles.replaceAll([
      product(1, 'Hoodie with Zipper', { featured: true, sales: 900 }),
      product(2, 'Zip Hoodie', { featured: true }),
      product(3, 'Hoodie'),
      product(4, 'T-Shirt with Logo', { featured: true }),
      product(5, 'T-Shirt'),
    ]);
    expect(await productIds(titles, 'hoodie')).toEqual([3, 1, 2]);
    expect(await productIds(titles, 'HOODIE')).toEqual([3, 1, 2]);
    expect(await titles.searchProductIds('hoodie')).toEqual([3, 1, 2]);
    // The whole title, however the hyphen is typed; a prefix or a typo of it is no whole-title match.
    expect(await productIds(titles, 'tshirt')).toEqual([5, 4]);
    expect(await productIds(titles, 't-shirt')).toEqual([5, 4]);
    expect(await productIds(titles, 'hoodi')).toEqual([1, 2, 3]);
    expect(await productIds(titles, 'hoodie with zipper')).toEqual([1]);
    // A renamed product gains or loses the rule with its title.
    await titles.update([product(3, 'Hoodie Classic'), product(6, 'Hoodie')], []);
    expect(await productIds(titles, 'hoodie')).toEqual([6, 1, 2, 3]);
  });

  it('finds a SKU whole and by its parts', async () => {
    expect(await productIds(index, 'woo-beanie')).toEqual([8]);
    expect(await productIds(index, 'woobea')).toEqual([8]);
  });

  it('puts in-stock products first among equals, and applies the out-of-stock rule', async () => {
    expect(await productIds(index, 'glasses')).toEqual([10, 9]);
    const hiding = await engine.make({ ...DEFAULT_RULES, outOfStock: 'hide' });
    await hiding.replaceAll(documents);
    expect(await productIds(hiding, 'glasses')).toEqual([10]);
  });

  it('applies synonyms, stop words, boosts and pins without a rebuild', async () => {
    const tuned = await engine.make();
    await tuned.replaceAll(documents);
    expect(await productIds(tuned, 'sweatshirt')).toEqual([]);
    await tuned.setRules({
      ...DEFAULT_RULES,
      synonyms: [['hoodie', 'sweatshirt']],
      stopWords: ['with'],
      boosts: { ...DEFAULT_RULES.boosts, content: 20 },
      pins: { glasses: [9] },
    });
    expect(await productIds(tuned, 'sweatshirt')).toEqual([7, 2, 1]);
    expect(await productIds(tuned, 'hoodie with')).toEqual([7, 2, 1]);
    expect(await productIds(tuned, 'glasses')).toEqual([9, 10]);
  });

  it('updates documents in place and removes them', async () => {
    const live = await engine.make();
    await live.replaceAll(documents);
    await live.update([product(3, 'Walnut Spoon'), product(11, 'Hoodie Dress')], ['product__1']);
    expect(await productIds(live, 'wooden')).toEqual([]);
    expect(await productIds(live, 'walnut')).toEqual([3]);
    expect(await productIds(live, 'hood')).toEqual([2, 11, 7]);
    expect(await live.count()).toBe(10);
  });

  it('counts every matching product and lists all of them in order for results pages', async () => {
    const result = await index.search({ text: 'hood', limits: { products: 1 } });
    expect(result.totalProducts).toBe(3);
    expect(result.hits.products?.map((hit) => hit.id)).toEqual([2]);
    expect(await index.searchProductIds('hood')).toEqual([2, 1, 7]);
  });

  it('answers nonsense and hostile input with nothing rather than an error', async () => {
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
      await expect(index.search({ text, limits: { products: 5 } })).resolves.toBeDefined();
    }
    expect(await productIds(index, '*')).toEqual([]);
  });
});
