import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';

/*
 * The filters on the real pages, on whichever engine the repositories use (SQLite by default; under
 * `node scripts/ensure-postgres.mjs -- npx vitest run` PostgreSQL, where each process still counts from its own
 * in-memory facet index). Expected counts are computed by hand from the committed rows.
 */

interface Row {
  id: number;
  visibility: string;
  stock_status: string;
  price_min: number | null;
  price_max: number | null;
  rating_average: number;
  rating_count: number;
}

let shop: TestApp;
// A fresh PostgreSQL database with the demo catalog takes a while on a busy machine.
beforeAll(async () => {
  shop = await createTestApp();
}, 60_000);
afterAll(async () => {
  await shop?.close();
});

/** Each facet's values with their counts as the page shows them: `{ filter_color: { sage: 3 } }`. */
async function pageCounts(url: string) {
  const response = await shop.app.inject({ method: 'GET', url });
  expect(response.statusCode).toBe(200);
  const window = new Window();
  window.document.write(response.body);
  const counts: Record<string, Record<string, number>> = {};
  for (const input of window.document.querySelectorAll('form.facet-filters input[type="checkbox"]')) {
    const label = window.document.querySelector(`label[for="${input.id}"]`);
    const count = Number(label?.querySelector('[aria-hidden="true"]')?.textContent?.replace(/[()]/g, ''));
    const name = input.getAttribute('name') ?? '';
    counts[name] = { ...(counts[name] ?? {}), [input.getAttribute('value') ?? '']: count };
  }
  const products = [...window.document.querySelectorAll('#archive-results .products > li')].length;
  const resultCount = window.document.querySelector('.woocommerce-result-count')?.textContent ?? '';
  window.close();
  return { counts, products, resultCount, body: response.body };
}

/** The catalog as rows, and the by-hand count of a listing's facets. */
async function bruteForce(base: 'search' | { categorySlug: string }, chosen: Record<string, string[]>) {
  const rows = await shop.query<Row>(
    `SELECT id, visibility, stock_status, price_min, price_max, rating_average, rating_count FROM products
     WHERE type <> 'variation' AND status = 'publish' AND visibility <> 'hidden'`,
  );
  const terms = await shop.query<{ id: number; slug: string; parent_id: number | null }>(
    "SELECT id, slug, parent_id FROM terms WHERE taxonomy = 'product_cat'",
  );
  const productTerms = await shop.query<{ product_id: number; term_id: number }>(
    'SELECT product_id, term_id FROM product_terms',
  );
  const attributeTerms = await shop.query<{ product_id: number; attribute: string; slug: string }>(
    `SELECT x.product_id, a.slug AS attribute, t.slug FROM product_attribute_terms x
     JOIN attributes a ON a.id = x.attribute_id JOIN attribute_terms t ON t.id = x.term_id`,
  );
  const termById = new Map(terms.map((term) => [Number(term.id), term]));
  const values = (row: Row): Record<string, Set<string>> => {
    const categories = new Set<string>();
    for (const link of productTerms.filter((link) => Number(link.product_id) === Number(row.id))) {
      for (let term = termById.get(Number(link.term_id)); term; term = termById.get(Number(term.parent_id)))
        categories.add(term.slug);
    }
    const out: Record<string, Set<string>> = {
      filter_product_cat: categories,
      filter_stock_status: new Set([row.stock_status]),
      rating_filter: new Set(row.rating_count > 0 ? [String(Math.round(row.rating_average))] : []),
    };
    for (const link of attributeTerms.filter((link) => Number(link.product_id) === Number(row.id))) {
      out[`filter_${link.attribute}`] = new Set([...(out[`filter_${link.attribute}`] ?? []), link.slug]);
    }
    return out;
  };
  const listed = rows.filter((row) =>
    base === 'search'
      ? row.visibility !== 'catalog'
      : row.visibility !== 'search' && values(row).filter_product_cat?.has(base.categorySlug),
  );
  const passes = (row: Row, except: string) =>
    Object.entries(chosen).every(
      ([param, list]) => param === except || list.some((value) => values(row)[param]?.has(value)),
    );
  return {
    count: (param: string, value: string) =>
      listed.filter((row) => passes(row, param) && values(row)[param]?.has(value)).length,
    total: listed.filter((row) => passes(row, '')).length,
  };
}

async function expectPageMatchesBruteForce(
  url: string,
  base: 'search' | { categorySlug: string },
  chosen: Record<string, string[]>,
) {
  const page = await pageCounts(url);
  const expected = await bruteForce(base, chosen);
  const shown = Object.entries(page.counts).flatMap(([param, values]) =>
    Object.entries(values).map(([value, count]) => [param, value, count]),
  );
  expect(shown.length).toBeGreaterThan(3);
  expect(shown).toEqual(
    shown.map(([param, value]) => [param, value, expected.count(String(param), String(value))]),
  );
  return { page, expected };
}

describe('filters on listings', () => {
  it('counts the search page’s facets as a by-hand count, with no filter and with filters across facets', async () => {
    await expectPageMatchesBruteForce('/?s=&post_type=product', 'search', {});
    const { page, expected } = await expectPageMatchesBruteForce(
      '/?s=&post_type=product&filter_product_cat=apparel&filter_stock_status=instock',
      'search',
      { filter_product_cat: ['apparel'], filter_stock_status: ['instock'] },
    );
    expect(expected.total).toBeGreaterThan(0);
    expect(page.resultCount).toContain(String(expected.total));
  });

  it('counts a category page’s facets within the category, its own category left out', async () => {
    const { page } = await expectPageMatchesBruteForce(
      '/product-category/apparel/',
      { categorySlug: 'apparel' },
      {},
    );
    expect(Object.keys(page.counts.filter_product_cat ?? {})).not.toContain('apparel');
    expect(Object.keys(page.counts.filter_product_cat ?? {})).toContain('hoodies');
    const colors = Object.keys(page.counts.filter_color ?? {}).slice(0, 2);
    expect(colors.length).toBe(2);
    await expectPageMatchesBruteForce(
      `/product-category/apparel/?filter_color=${colors.sort().join(',')}&filter_stock_status=instock`,
      { categorySlug: 'apparel' },
      { filter_color: colors, filter_stock_status: ['instock'] },
    );
  });

  it('follows catalog writes: a product sold out moves from “In stock” to “Out of stock”', async () => {
    const before = (await pageCounts('/?s=&post_type=product')).counts.filter_stock_status ?? {};
    const [row] = await shop.query<{ id: number }>(
      "SELECT id FROM products WHERE type <> 'variation' AND status = 'publish' AND visibility = 'visible' AND stock_status = 'instock' ORDER BY id LIMIT 1",
    );
    await shop.query("UPDATE products SET stock_status = 'outofstock' WHERE id = ?", [row?.id]);
    const after = (await pageCounts('/?s=&post_type=product')).counts.filter_stock_status ?? {};
    expect(after.instock).toBe((before.instock ?? 0) - 1);
    expect(after.outofstock).toBe((before.outofstock ?? 0) + 1);
    await shop.query("UPDATE products SET stock_status = 'instock' WHERE id = ?", [row?.id]);
  });

  it('answers the plain form’s submission with the canonical, shareable address', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/?s=shirt&post_type=product&filter_color=sage&filter_color=indigo&price_range=0-9999&rating_filter=',
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(
      '/?s=shirt&post_type=product&filter_color=indigo,sage&min_price=0&max_price=99.99',
    );
  });

  it('narrows the results by the filters, keeps them in the pagination and ordering, and offers to clear them', async () => {
    const all = await pageCounts('/?s=&post_type=product');
    const filtered = await pageCounts('/?s=&post_type=product&filter_product_cat=gifts');
    const gifts = all.counts.filter_product_cat?.gifts ?? 0;
    expect(gifts).toBeGreaterThan(0);
    expect(filtered.products).toBe(Math.min(gifts, 12));
    expect(filtered.body).toContain('name="filter_product_cat" checked="" value="gifts"');
    expect(filtered.body).toMatch(/class="facet-clear" href="\/\?s=&amp;post_type=product"/);
    // The ordering form keeps the filter.
    expect(filtered.body).toMatch(/type="hidden" name="filter_product_cat" value="gifts"/);
  });

  it('pages through filtered results with the filters kept', async () => {
    const first = await pageCounts('/?s=&post_type=product&filter_product_cat=home');
    const home = first.counts.filter_product_cat?.home ?? 0;
    expect(home).toBeGreaterThan(12);
    expect(first.body).toContain('href="/page/2/?s=&amp;post_type=product&amp;filter_product_cat=home"');
    const second = await pageCounts('/page/2/?s=&post_type=product&filter_product_cat=home');
    expect(second.products).toBe(home - 12);
    expect(second.counts).toEqual(first.counts);
  });

  it('records a search once, not again for each filter applied to its results', async () => {
    await shop.app.inject({ method: 'GET', url: '/?s=linen&post_type=product' });
    await shop.app.inject({ method: 'GET', url: '/?s=linen&post_type=product&filter_stock_status=instock' });
    await shop.app.inject({ method: 'GET', url: '/?s=linen&post_type=product&rating_filter=5' });
    // Analytics are written after the answer, in batches: hand the batch over and wait until nothing is queued.
    await shop.app.searchAnalytics.flush();
    await shop.app.durableWrites.idle();
    const rows = await shop.query(
      "SELECT query FROM search_queries WHERE query = 'linen' AND source = 'results'",
    );
    expect(rows).toHaveLength(1);
  });

  it('shows a readable page, not an error, for junk filter values', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/product-category/apparel/?filter_color=%3Cscript%3E&min_price=abc',
    });
    // Junk is dropped: the canonical address has no filter left.
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/product-category/apparel/');
  });
});
