import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../../test-support/createTestApp';
import { productDocument } from '../../../../test-support/searchDocuments';
import { survivingDroppedConnections } from '../../db/postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../../db/postgres/testDatabase';
import { MemorySearchIndex } from '../MemorySearchIndex';
import { DEFAULT_RULES, type SearchRequest } from '../SearchIndex';
import { createPostgresSearchIndex, PostgresSearchIndex } from './PostgresSearchIndex';

/*
 * What the PostgreSQL index adds to the relevance contract (MemorySearchIndex.test.ts runs on both): one index
 * shared by several server processes (here: several pools, as processes would have), safe concurrent rebuilds,
 * and the same answers as the embedded index on the demo catalog. Needs TEST_DATABASE_URL.
 */

const product = productDocument;

describe.skipIf(!TEST_DATABASE_URL)('PostgresSearchIndex shared by several processes', () => {
  let drop: () => Promise<void>;
  let url: string;
  const pools: pg.Pool[] = [];
  const processPool = () => {
    const pool = survivingDroppedConnections(new pg.Pool({ connectionString: url, max: 3 }));
    pools.push(pool);
    return pool;
  };
  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    url = database.url;
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await drop?.();
  });

  const ids = async (index: PostgresSearchIndex, text: string) =>
    ((await index.search({ text, limits: { products: 10 } })).hits.products ?? []).map((hit) => hit.id);

  it('upgrades an index built by an older release: adds the title column and rebuilds the same documents once', async () => {
    const documents = [product(1, 'Hoodie with Zipper', { featured: true }), product(2, 'Hoodie')];
    const pool = processPool();
    const old = await createPostgresSearchIndex(pool, { schema: 'upgraded' });
    await old.replaceAll(documents);
    // What the previous release left: no title_keys column, documents hashed without the index format.
    await pool.query('ALTER TABLE upgraded.search_index_documents DROP COLUMN title_keys');
    await pool.query(`UPDATE upgraded.search_index_documents SET hash = 'older'`);
    await pool.query(`UPDATE upgraded.search_index_state SET content_hash = 'older'`);
    const upgraded = await createPostgresSearchIndex(processPool(), { schema: 'upgraded' });
    await upgraded.replaceAll(documents);
    expect(await ids(upgraded, 'hoodie')).toEqual([2, 1]);
    const state = await pool.query(`SELECT content_hash FROM upgraded.search_index_state`);
    expect(state.rows[0]?.content_hash).not.toBe('older');
  });

  it('answers every process from one index: a write by one is in the next search of the others', async () => {
    const [first, second] = await Promise.all(
      [1, 2].map(() => createPostgresSearchIndex(processPool(), { schema: 'shared_writes' })),
    );
    const one = first as PostgresSearchIndex;
    const two = second as PostgresSearchIndex;
    await one.replaceAll([product(1, 'Zip Hoodie'), product(2, 'Wooden Spoon')]);
    expect(await ids(two, 'hood')).toEqual([1]);
    await two.update([product(3, 'Hoodie Dress', { sales: 9 })], ['product__2']);
    expect(await ids(one, 'hood')).toEqual([3, 1]);
    expect(await ids(one, 'spoon')).toEqual([]);
    expect(await one.count()).toBe(2);
    // The same change applied again by another process (each applies the change log itself) changes nothing.
    await one.update([product(3, 'Hoodie Dress', { sales: 9 })], ['product__2']);
    expect(await ids(two, 'hood')).toEqual([3, 1]);
    expect(await two.count()).toBe(2);
  });

  it('lets N processes rebuild at once: one of them writes, the others find the index current', async () => {
    const documents = Array.from({ length: 300 }, (_, n) => product(n + 1, `Widget ${n} warm`));
    const indexes = Array.from(
      { length: 4 },
      () => new PostgresSearchIndex(processPool(), { schema: 'startup' }),
    );
    await Promise.all(indexes.map((index) => index.replaceAll(documents)));
    const pool = pools.at(-1) as pg.Pool;
    const { rows } = await pool.query(
      'SELECT count(*)::int AS docs, max(ord)::int AS last FROM startup.search_index_documents',
    );
    // Numbers are handed out per inserted document: 300 means the documents were written once, not four times.
    expect(rows[0]).toEqual({ docs: 300, last: 300 });
    for (const index of indexes) expect(await ids(index, 'widget 42 w')).toEqual([43]);
    // Concurrent writers of different changes take turns under the lock and both land.
    await Promise.all([
      (indexes[0] as PostgresSearchIndex).update([product(1000, 'Hoodie A')], []),
      (indexes[1] as PostgresSearchIndex).update([product(1001, 'Hoodie B')], ['product__1']),
    ]);
    expect((await ids(indexes[2] as PostgresSearchIndex, 'hoodie')).sort()).toEqual([1000, 1001]);
    expect(await (indexes[3] as PostgresSearchIndex).count()).toBe(301);
  });

  it('keeps each term’s posting count equal to its postings through updates, removals and re-adds', async () => {
    const index = await createPostgresSearchIndex(processPool(), { schema: 'term_counts' });
    const pool = pools.at(-1) as pg.Pool;
    await index.replaceAll([product(1, 'Linen Shirt'), product(2, 'Linen Towel'), product(3, 'Wool Scarf')]);
    await index.update([product(2, 'Cotton Towel'), product(4, 'Linen Apron')], ['product__3']);
    await index.update([product(4, 'Linen Apron')], []);
    await index.update([product(5, 'Wool Linen Blend'), product(1, 'Oak Shirt')], ['product__2']);
    await index.update([], ['product__5']);
    const stored = await pool.query(
      'SELECT term, docs FROM term_counts.search_index_terms ORDER BY term COLLATE "C"',
    );
    const counted = await pool.query(
      `SELECT term, count(*)::int AS docs FROM term_counts.search_index_postings GROUP BY term
       ORDER BY term COLLATE "C"`,
    );
    expect(stored.rows).toEqual(counted.rows);
    expect(stored.rows).toContainEqual({ term: 'linen', docs: 1 });
    expect(stored.rows.map((row) => row.term)).not.toContain('wool');
    expect(await ids(index, 'linen')).toEqual([4]);
  });

  it('lets one process keep the shared index up for all: the same position is written once, a gap is not recorded', async () => {
    const indexes = [1, 2].map(() => new PostgresSearchIndex(processPool(), { schema: 'upkeep' }));
    const [one, two] = indexes as [PostgresSearchIndex, PostgresSearchIndex];
    const pool = pools.at(-1) as pg.Pool;
    const position = async () =>
      (await pool.query('SELECT catalog_seq FROM upkeep.search_index_state')).rows[0]?.catalog_seq;
    let runs = 0;
    const fill = (index: PostgresSearchIndex) => async () => {
      runs++;
      await index.update([product(1, 'Linen Shirt')], []);
    };
    // Two processes bring it to the same position at once: one does the work, the other finds it done.
    await Promise.all([
      one.keepUp({ from: null, to: 10 }, fill(one)),
      two.keepUp({ from: null, to: 10 }, fill(two)),
    ]);
    expect(runs).toBe(1);
    expect(await position()).toBe('10');
    // An older position is already held.
    await two.keepUp({ from: 2, to: 8 }, fill(two));
    expect(runs).toBe(1);
    // A catch-up from a position it holds moves it on.
    await two.keepUp({ from: 10, to: 12 }, fill(two));
    expect(runs).toBe(2);
    expect(await position()).toBe('12');
    // A catch-up from past what it holds is applied but leaves the changes in between out: not recorded.
    await one.keepUp({ from: 14, to: 15 }, fill(one));
    expect(runs).toBe(3);
    expect(await position()).toBe('12');
    // Work that stopped short (its process closing) records nothing.
    await one.keepUp({ from: null, to: 20 }, async () => false);
    expect(await position()).toBe('12');
    // A rebuild from documents read at an unknown position forgets it.
    await one.replaceAll([product(2, 'Wool Scarf')]);
    expect(await position()).toBeNull();
    expect(await ids(two, 'linen')).toEqual([]);
  });

  it('gives the embedded index’s answers on the demo catalog, typos and prefixes included', async () => {
    const shop = await createTestApp();
    try {
      const documents = (await shop.repositories.search.loadDocuments()).documents;
      const rules = { ...DEFAULT_RULES, synonyms: [['hoodie', 'sweatshirt']], pins: { mug: [1007] } };
      const memory = new MemorySearchIndex(rules);
      await memory.replaceAll(documents);
      const shared = await createPostgresSearchIndex(processPool(), { schema: 'demo', rules });
      await shared.replaceAll(documents);
      // Every prefix (from 2 letters) of each product title's first two words, as typed and with a swap typo.
      const queries = new Set<string>(['mug', 'sweatshirt', 't shirt', 'cafe', 'demo-linen']);
      for (const document of documents.filter((each) => each.kind === 'product')) {
        const title = (document.fields.title?.[0] ?? '').toLowerCase().split(/\s+/).slice(0, 2).join(' ');
        for (let end = 2; end <= title.length; end++) queries.add(title.slice(0, end));
        if (title.length > 5) queries.add(`${title.slice(0, 2)}${title[3]}${title[2]}${title.slice(4)}`);
      }
      const request = (text: string): SearchRequest => ({
        text,
        limits: {
          products: 7,
          product_cat: 3,
          product_tag: 3,
          product_brand: 3,
          vendors: 2,
          post: 2,
          page: 2,
        },
        variations: true,
      });
      const shape = (result: Awaited<ReturnType<MemorySearchIndex['search']>>) => ({
        total: result.totalProducts,
        hits: Object.fromEntries(
          Object.entries(result.hits).map(([group, hits]) => [group, hits?.map((hit) => hit.key)]),
        ),
      });
      expect(queries.size).toBeGreaterThan(200);
      for (const text of queries) {
        expect({ text, ...shape(await shared.search(request(text))) }).toEqual({
          text,
          ...shape(await memory.search(request(text))),
        });
        expect({ text, ids: await shared.searchProductIds(text) }).toEqual({
          text,
          ids: await memory.searchProductIds(text),
        });
      }
    } finally {
      await shop.close();
    }
    // Hundreds of queries on a shared machine: a generous bound, the test asserts answers, not speed.
  }, 60_000);
});
