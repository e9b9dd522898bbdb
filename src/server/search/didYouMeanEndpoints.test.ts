import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import type { Suggestion } from '../../shared/search/suggestionTypes';

/*
 * Did you mean where shoppers meet it: the suggestions payload (a `did-you-mean` entry first) and the results
 * page ("Showing results for X — search instead for Y"), and `exact=1`, which searches the words as typed.
 * On PostgreSQL too under TEST_DATABASE_URL (the test app then uses the PostgreSQL index).
 */

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
  // Shoppers searched these before with results: did you mean learns from them (read once, then cached).
  const now = Date.now();
  for (const [query, results] of [
    ['pullover hoodie', 2],
    ['pullover hoodie', 2],
    ['pulover hoodie', 0],
  ] as const) {
    await shop.query(
      `INSERT INTO search_queries (query, results, source, session_hash, created_at, updated_at)
       VALUES (?, ?, 'results', 'test', ?, ?)`,
      [query, results, now, now],
    );
  }
});
afterAll(async () => shop?.close());

async function suggestionsFor(text: string, extra = ''): Promise<Suggestion[]> {
  const response = await shop.app.inject(
    `/?wc-ajax=search_suggestions&s=${encodeURIComponent(text)}${extra}`,
  );
  expect(response.statusCode).toBe(200);
  return response.json().suggestions;
}

const titles = (html: string) =>
  [...html.matchAll(/class="product-card__title">([^<]*)</g)].map((match) => match[1]);

describe('did you mean in the suggestions', () => {
  it('answers a query found only through a typo with the corrected query, first', async () => {
    const suggestions = await suggestionsFor('hodie');
    expect(suggestions[0]).toEqual({
      type: 'did-you-mean',
      value: 'hoodie',
      original: 'hodie',
      url: '/?s=hodie&post_type=product&exact=1',
    });
    expect(suggestions.filter((s) => s.type === 'product').map((s) => s.value)).toContain(
      'Lined Pullover Hoodie',
    );
  });

  it('answers a query that found nothing with the corrected query’s suggestions', async () => {
    expect(await suggestionsFor('hodiee', '&exact=1')).toEqual([
      { type: 'no-results', value: expect.any(String) },
    ]);
    const suggestions = await suggestionsFor('hodiee');
    expect(suggestions[0]).toMatchObject({ type: 'did-you-mean', value: 'hoodie', original: 'hodiee' });
    expect(suggestions.some((s) => s.type === 'product')).toBe(true);
  });

  it('learns from past successful queries, never from failed ones', async () => {
    // "ppullover hoodie" is one edit from what shoppers searched; the dictionary alone cannot fix a first letter.
    const suggestions = await suggestionsFor('ppullover hoodie');
    expect(suggestions[0]).toMatchObject({ type: 'did-you-mean', value: 'pullover hoodie' });
  });

  it('leaves a query alone when its words are all known, and when asked for the words as typed', async () => {
    expect((await suggestionsFor('hoodie')).some((s) => s.type === 'did-you-mean')).toBe(false);
    expect((await suggestionsFor('hood')).some((s) => s.type === 'did-you-mean')).toBe(false);
    const exact = await suggestionsFor('hodie', '&exact=1');
    expect(exact.some((s) => s.type === 'did-you-mean')).toBe(false);
    expect(exact.some((s) => s.type === 'product')).toBe(false);
  });

  it('gives the corrected answer its own ETag', async () => {
    const typed = await shop.app.inject('/?wc-ajax=search_suggestions&s=hodie');
    const exact = await shop.app.inject('/?wc-ajax=search_suggestions&s=hodie&exact=1');
    expect(typed.headers.etag).not.toBe(exact.headers.etag);
  });
});

describe('did you mean on the results page', () => {
  it('shows the corrected results with a link that searches the text as typed', async () => {
    const page = await shop.app.inject('/?s=hodiee&post_type=product');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(
      /<p class="search-did-you-mean" role="status" aria-live="polite">Showing results for <strong[^>]*>hoodie<\/strong> — search instead for(<!-- -->)? <a class="search-did-you-mean-original" href="\/\?s=hodiee&amp;post_type=product&amp;exact=1">hodiee<\/a>/,
    );
    expect(titles(page.body)).toContain('Lined Pullover Hoodie');
    const asTyped = await shop.app.inject('/?s=hodiee&post_type=product&exact=1');
    expect(asTyped.body).not.toContain('search-did-you-mean');
    expect(asTyped.body).toContain('No products were found matching your search.');
  });

  it('shows no notice when the query is found as typed', async () => {
    const page = await shop.app.inject('/?s=hoodie&post_type=product');
    expect(page.body).not.toContain('search-did-you-mean');
    expect(titles(page.body).length).toBeGreaterThan(0);
  });

  it('records what the text as typed found, so a corrected zero-result query stays one for the owner', async () => {
    const page = await shop.app.inject('/?s=lined+hodiee&post_type=product');
    expect(page.body).toContain(
      'Showing results for <strong class="search-did-you-mean-query">lined hoodie</strong>',
    );
    await expect
      .poll(async () =>
        shop.query<{ query: string; results: number }>(
          "SELECT query, results FROM search_queries WHERE query = 'lined hodiee' AND source = 'results'",
        ),
      )
      .toEqual([{ query: 'lined hodiee', results: 0 }]);
  });
});
