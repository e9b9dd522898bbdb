import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { buildSearchesReport, searchesReport } from '../reports/searchesReport';

/*
 * The search results page on the index (same ranking as the suggestions), and search analytics: one row per
 * typing burst, results pages counted, and `npm run report -- searches`.
 */

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { shop: { productsPerPage: 2 } } });
});
afterAll(async () => shop?.close());

const titles = (html: string) =>
  [...html.matchAll(/class="product-card__title">([^<]*)</g)].map((match) => match[1]);

describe('search results page', () => {
  it('lists the index matches in relevance order, paginated, without hidden products', async () => {
    const first = await shop.app.inject('/?s=hoodie&post_type=product');
    expect(first.statusCode).toBe(200);
    expect(titles(first.body)).toEqual(['Lined Pullover Hoodie', 'Brushed Cotton Hoodie']);
    expect(first.body).toContain('Showing 1–2 of 4 results');
    const second = await shop.app.inject('/page/2/?s=hoodie&post_type=product');
    expect(titles(second.body)).toEqual(['Zip-Up Hoodie', 'Crew Neck Sweatshirt']);
    expect(second.body).not.toContain('Staff Hoodie');
  });

  it('sorts the matches by another ordering when asked', async () => {
    const response = await shop.app.inject('/?s=hoodie&post_type=product&orderby=price');
    expect(titles(response.body)).toEqual(['Brushed Cotton Hoodie', 'Crew Neck Sweatshirt']);
  });

  it('finds by typo and SKU as the suggestions do, and says so when nothing matches', async () => {
    expect(titles((await shop.app.inject('/?s=hodie&post_type=product')).body)[0]).toBe(
      'Lined Pullover Hoodie',
    );
    expect(titles((await shop.app.inject('/?s=DEMO-PULLOVER-HOODIE-OAT&post_type=product')).body)).toEqual([
      'Lined Pullover Hoodie',
    ]);
    const none = await shop.app.inject('/?s=qqzzx&post_type=product');
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain('No products were found matching your search.');
  });
});

describe('search analytics', () => {
  it('keeps the last query of a typing burst, counts results pages, and reports zero-result queries', async () => {
    const headers = { 'user-agent': 'analytics-test' };
    for (const typed of ['lin', 'line', 'linen', 'linen t']) {
      await shop.app.inject({ url: `/?wc-ajax=search_suggestions&s=${encodeURIComponent(typed)}`, headers });
    }
    await shop.app.inject({ url: '/?wc-ajax=search_suggestions&s=wqwqv', headers });
    await shop.app.inject({ url: '/?s=wqwqv&post_type=product', headers });
    // Analytics are written after the answer (a suggestion's just after it), in batches: hand them over and wait.
    await new Promise((resolve) => setImmediate(resolve));
    await shop.app.searchAnalytics.flush();
    await shop.app.durableWrites.idle();
    const rows = await shop.query<{ query: string; results: number; source: string; session_hash: string }>(
      "SELECT query, results, source, session_hash FROM search_queries WHERE session_hash <> '' ORDER BY id",
    );
    const ours = rows.filter((row) => ['linen t', 'wqwqv', 'lin', 'line', 'linen'].includes(row.query));
    expect(ours.map((row) => `${row.query}/${row.source}`).sort()).toEqual([
      'linen t/suggestions',
      'wqwqv/results',
      'wqwqv/suggestions',
    ]);
    const burst = ours.find((row) => row.query === 'linen t');
    expect(burst?.results).toBeGreaterThan(0);
    expect(burst?.session_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.stringify(rows)).not.toContain('127.0.0.1');

    const report = await buildSearchesReport(shop.repositories.search, { days: 1, limit: 10 });
    expect(report.zeroResults.map((row) => [row.query, row.count])).toContainEqual(['wqwqv', 2]);
    expect(report.top.map((row) => row.query)).toContain('linen t');
    expect(report.zeroResults.map((row) => row.query)).not.toContain('linen t');
    const text = await searchesReport(shop.repositories.search, ['--days', '1']);
    expect(text).toContain('Zero-result queries');
    expect(text).toMatch(/wqwqv\s+2\s+0\s+\d{4}-/);
    await expect(searchesReport(shop.repositories.search, ['--days', 'x'])).rejects.toThrow('--days');
  });
});
