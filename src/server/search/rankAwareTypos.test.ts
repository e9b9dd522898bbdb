import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productDocument } from '../../../test-support/searchDocuments';
import { testSearchEngines } from './postgres/testSearchIndexes';
import type { SearchDocument, SearchIndex } from './SearchIndex';

/*
 * The rank-aware typo rule (ranking.ts TYPO_THRESHOLD): a word reaching 10+ documents gets typos only when it is
 * weak, found in descriptions alone; a word in a title, SKU, taxonomy or attribute value is taken as typed.
 * On both engines.
 */

function product(id: number, fields: SearchDocument['fields']): SearchDocument {
  return productDocument(id, fields.title?.[0] ?? '', { fields });
}

const many = (from: number, fields: (n: number) => SearchDocument['fields']) =>
  Array.from({ length: 12 }, (_, n) => product(from + n, fields(n)));

describe.each(testSearchEngines())('rank-aware typos on $name', (engine) => {
  if (engine.skip) {
    it.skip('needs TEST_DATABASE_URL (npm run test:postgres)', () => {});
    return;
  }
  let index: SearchIndex;
  beforeAll(async () => {
    await engine.setup();
    index = await engine.make();
    await index.replaceAll([
      product(1, { title: ['Leather Belt'] }),
      // "lether" misspelt in twelve descriptions: weak, whatever the count.
      ...many(100, (n) => ({ title: [`Card ${n}`], content: ['Soft lether look'] })),
      product(2, { title: ['Lamb Stew Pot'] }),
      // "lamp" in twelve titles: strong.
      ...many(200, (n) => ({ title: [`Desk Lamp ${n}`] })),
      product(3, { title: ['Blur Print'] }),
      // "blue" as an attribute value of twelve: strong enough, typos stay out.
      ...many(300, (n) => ({ title: [`Scarf ${n}`], attributes: ['Blue'] })),
    ]);
  });
  afterAll(() => engine.teardown());

  const ids = async (text: string) =>
    ((await index.search({ text, limits: { products: 20 } })).hits.products ?? []).map((hit) => hit.id);

  it('tries typos for a word found in descriptions only, and ranks the title typo first', async () => {
    const found = await ids('lether');
    expect(found[0]).toBe(1);
    expect(found).toHaveLength(13);
    expect(await index.searchProductIds('lether belt')).toEqual([1]);
  });

  it('takes a word found in titles or attribute values as typed, however near another term', async () => {
    expect(await ids('lamp')).not.toContain(2);
    expect(await ids('lamp')).toHaveLength(12);
    expect(await ids('blue')).not.toContain(3);
  });
});
