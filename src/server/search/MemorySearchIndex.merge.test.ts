import { describe, expect, it } from 'vitest';
import { productDocument } from '../../../test-support/searchDocuments';
import { MemorySearchIndex } from './MemorySearchIndex';
import { SEARCH_GROUPS, type SearchDocument } from './SearchIndex';

/*
 * A merge beside an index (mergeInSlices: the unchanged documents' postings copied, only the changed ones analyzed)
 * must give the index a full rebuild of the same documents gives: same documents in the same order, same answers.
 */

const WORDS =
  `linen shirt hoodie jacket mug bowl oak lamp wool scarf boots tent towel notebook cotton denim leather vase
  candle speaker serum puzzle blanket cushion jeans apron kettle knife charger sneakers linden lineage`.split(
    /\s+/,
  );

/** A small deterministic random source (tests must not flake). */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function catalog(random: () => number, firstId: number, products: number) {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)] as string;
  const documents: SearchDocument[] = [];
  for (let id = firstId; id < firstId + products; id++) {
    const title = `${pick()} ${pick()}`;
    documents.push(
      productDocument(id, title, {
        fields: {
          title: [title],
          sku: [`SKU-${id}`],
          taxonomy: [pick()],
          content: [`${pick()} ${pick()} ${pick()}`],
        },
        featured: random() < 0.1,
        inStock: random() < 0.8,
        sales: Math.floor(random() * 5),
      }),
    );
    if (random() < 0.3) {
      for (let v = 1; v <= 2; v++) {
        documents.push({
          key: `product_variation__${id}__${id * 10 + v}`,
          kind: 'variation',
          id: id * 10 + v,
          parentId: id,
          taxonomy: null,
          postType: null,
          fields: { sku: [`SKU-${id}-${v}`] },
          featured: false,
          inStock: true,
          sales: 0,
        });
      }
    }
  }
  return documents;
}

function term(id: number, name: string, sales: number): SearchDocument {
  return {
    key: `taxonomy__${id}__product_cat`,
    kind: 'term',
    id,
    parentId: null,
    taxonomy: 'product_cat',
    postType: null,
    fields: { title: [name] },
    featured: false,
    inStock: true,
    sales,
  };
}

/** What each query answers: every group's hits with scores, the totals, and the results page's ids. */
async function answers(index: MemorySearchIndex, queries: readonly string[]) {
  const limits = Object.fromEntries(SEARCH_GROUPS.map((group) => [group, 50]));
  const out: unknown[] = [];
  for (const text of queries) {
    out.push(text, await index.search({ text, limits }), await index.searchProductIds(text));
    out.push(await index.search({ text, limits: { products: 5, product_cat: 1 }, variations: true }));
  }
  return out;
}

describe('MemorySearchIndex.mergeInSlices', () => {
  it('gives the index a full rebuild of the merged documents gives, delta segment and variations included', async () => {
    const random = randomSource(7);
    const source = new MemorySearchIndex();
    await source.replaceAll([...catalog(random, 1, 300), term(1, 'Linen', 40), term(2, 'Oak', 3)]);
    // Updates since the build: some postings live in the delta segment, some base documents are tombstoned.
    const updated = catalog(random, 20, 15);
    await source.update([...updated, term(3, 'Wool things', 2)], ['product__7']);
    const snapshot = source.snapshot();
    // What stays valid in the snapshot after the index moves on.
    await source.update(catalog(random, 500, 5), ['product__8']);

    const changed = catalog(random, 40, 30); // products 40-69 rewritten (variations may come or go)
    const fresh = catalog(random, 400, 40); // new products
    const upserts = [term(2, 'Oak and ash', 5), ...changed, ...fresh, term(4, 'Kettles', 9)];
    const removedKeys = ['product__90', 'product__91', 'taxonomy__1__product_cat', 'product__unknown'];

    // Suggestions stop walking postings early whenever they can (the walk's order depends on the numbering).
    const early = { exactTotalBudget: 0 };
    const merged = new MemorySearchIndex(undefined, early);
    let pauses = 0;
    await merged.mergeInSlices(snapshot, upserts, removedKeys, async () => void pauses++, 25);

    // The old path: the snapshot's live documents without the changed ones, the changed ones after, rebuilt.
    const dropped = new Set([...removedKeys, ...upserts.map((document) => document.key)]);
    const changedProducts = new Set(
      [...dropped].filter((key) => key.startsWith('product__')).map((key) => Number(key.slice(9))),
    );
    const kept = snapshot.documents.filter(
      (document): document is SearchDocument =>
        document !== null &&
        !dropped.has(document.key) &&
        !(document.kind === 'variation' && changedProducts.has(document.parentId as number)),
    );
    const rebuilt = new MemorySearchIndex(undefined, early);
    await rebuilt.replaceAll([...kept, ...upserts]);

    expect(merged.liveDocuments().map((document) => document.key)).toEqual(
      rebuilt.liveDocuments().map((document) => document.key),
    );
    // The very same segment: dictionary, postings and forward index.
    const segment = (index: MemorySearchIndex) => {
      const { terms, offsets, docs, masks, termMasks, firstDoc, forwardOffsets, forwardTerms, forwardMasks } =
        index.snapshot().base;
      return [
        terms,
        offsets,
        docs,
        masks,
        termMasks,
        firstDoc,
        forwardOffsets,
        forwardTerms,
        forwardMasks,
      ].map((part) => (typeof part === 'number' ? part : [...part]));
    };
    expect(segment(merged)).toEqual(segment(rebuilt));
    const queries = [
      ...WORDS,
      ...WORDS.flatMap((word) => [word.slice(0, 1), word.slice(0, 2), word.slice(0, 3)]),
      'linen shirt',
      'oak and',
      'kettles',
      'wool things',
      'sku-45',
      'sku-41-1',
      'lnien',
      'hodie jaket',
    ];
    expect(await answers(merged, queries)).toEqual(await answers(rebuilt, queries));
    expect(
      await merged.vocabulary([{ text: 'lnen', prefix: true, maxEdits: 1, nearByPrefix: true }]),
    ).toEqual(await rebuilt.vocabulary([{ text: 'lnen', prefix: true, maxEdits: 1, nearByPrefix: true }]));
    // Built in slices: searches could run between them.
    expect(pauses).toBeGreaterThan(10);
    // The changes are in: a removed term is gone, a new one found, a changed product by its new title.
    expect(
      (await merged.search({ text: 'kettles', limits: { product_cat: 5 } })).hits.product_cat,
    ).toHaveLength(1);
    expect(merged.liveDocuments().some((document) => document.key === 'taxonomy__1__product_cat')).toBe(
      false,
    );
  });

  it('takes the upserts’ terms worked out while they were read, and analyzes the others itself', async () => {
    const random = randomSource(3);
    const source = new MemorySearchIndex();
    await source.replaceAll(catalog(random, 1, 50));
    const upserts = catalog(random, 100, 20);
    const [first, ...others] = upserts.filter((document) => document.kind === 'product');
    // Read ahead: the first one's analysis says something its fields do not, to tell whose analysis is used.
    const analyzed = new Map([
      [first as SearchDocument, new Map([['zzyzx', 1]])],
      ...others
        .slice(0, 5)
        .map((document) => [document, MemorySearchIndex.analyzeDocument(document)] as const),
    ]);
    const merged = new MemorySearchIndex();
    await merged.mergeInSlices(source.snapshot(), upserts, [], async () => {}, 25, analyzed);
    const ids = async (text: string) => merged.searchProductIds(text);
    expect(await ids('zzyzx')).toEqual([first?.id]);
    for (const document of others) expect(await ids(`sku-${document.id}`)).toContain(document.id);
  });
});
