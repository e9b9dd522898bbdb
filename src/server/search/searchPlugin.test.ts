import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import type { Suggestion, SuggestionsResponse } from '../../shared/search/suggestionTypes';

/*
 * The search endpoints through app.inject on the demo catalog: the suggestion shapes of docs/contract.md, relevance
 * cases, caching, bad input, and the index following catalog writes.
 */

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({
    settings: { search: { limits: { products: 4 }, relevance: { synonyms: ['hoodie = sweatshirt'] } } },
  });
});
afterAll(async () => shop?.close());

async function suggest(query: string, headers: Record<string, string> = {}) {
  const response = await shop.app.inject({
    method: 'GET',
    url: `/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`,
    headers,
  });
  return { response, body: response.statusCode === 200 ? (response.json() as SuggestionsResponse) : null };
}

async function suggestions(query: string): Promise<Suggestion[]> {
  const { response, body } = await suggest(query);
  expect(response.statusCode).toBe(200);
  return body?.suggestions ?? [];
}

const products = (list: Suggestion[]) =>
  list.filter((each) => each.type === 'product' || each.type === 'product_variation');

describe('search_suggestions', () => {
  it('finds the hoodies first for "hood", never the hidden one, with the fields of the contract', async () => {
    const list = await suggestions('hood');
    const found = products(list);
    // The featured hoodie first, then the other two; the hidden staff hoodie never.
    expect(found.slice(0, 3).map((each) => each.post_id)).toEqual([1200, 1100, 1203]);
    expect(found.map((each) => each.post_id)).not.toContain(1204);
    expect(found[0]).toMatchObject({
      type: 'product',
      value: 'Lined Pullover Hoodie',
      url: '/product/lined-pullover-hoodie/',
      post_id: 1200,
      sku: 'DEMO-PULLOVER-HOODIE',
      featured: true,
      vendor: 'Fern & Flax Workshop',
      vendor_url: '/vendor/fern-and-flax-workshop/',
      shop_city: 'Bristol',
    });
    expect(found[0]?.price).toContain('$79.00');
    expect(found[0]?.thumb_html).toMatch(/^<img src="\/images\/\d+\.svg"/);
    expect(found[2]?.price).toContain('<del');
    // The category is suggested too, under its own heading, before the products.
    const category = list.find((each) => each.type === 'taxonomy');
    expect(category).toMatchObject({ taxonomy: 'product_cat', value: 'Hoodies', breadcrumbs: 'Apparel' });
    expect(list.indexOf(category as Suggestion)).toBeLessThan(list.indexOf(found[0] as Suggestion));
    expect(list[0]).toEqual({ type: 'headline', value: 'Categories', group: 'product_cat' });
    expect(list).toContainEqual({ type: 'headline-v2', value: 'Products', group: 'products' });
  });

  it('finds the hoodies with a typo ("hodie")', async () => {
    const found = products(await suggestions('hodie'));
    expect(
      found
        .slice(0, 3)
        .map((each) => each.post_id)
        .sort(),
    ).toEqual([1100, 1200, 1203]);
  });

  it('finds a variation by its SKU, linked to its options', async () => {
    const found = products(await suggestions('DEMO-PULLOVER-HOODIE-OAT'));
    expect(found[0]).toMatchObject({
      type: 'product_variation',
      post_id: 1200,
      variation_id: 1201,
      sku: 'DEMO-PULLOVER-HOODIE-OAT',
      value: 'Lined Pullover Hoodie – Oat',
      url: '/product/lined-pullover-hoodie/?attribute_color=oat',
    });
  });

  it('finds T-Shirts however the shopper spells them', async () => {
    for (const query of ['tshirt', 't-shirt', 't shirt', 'T-SHIRT']) {
      expect(products(await suggestions(query))[0]).toMatchObject({ value: 'Organic Cotton T-Shirt' });
    }
  });

  it('suggests the Accessories category for "access", and a brand and a vendor by name', async () => {
    expect((await suggestions('access')).find((each) => each.type === 'taxonomy')).toMatchObject({
      value: 'Accessories',
      taxonomy: 'product_cat',
      url: '/product-category/apparel/accessories/',
    });
    const tide = await suggestions('tidewat');
    expect(tide.find((each) => each.type === 'taxonomy')).toMatchObject({
      value: 'Tidewater Textiles',
      taxonomy: 'product_brand',
      url: '/brand/tidewater-textiles/',
    });
    expect(tide.find((each) => each.type === 'vendor')).toMatchObject({
      value: 'Tidewater Mill',
      url: '/vendor/tidewater-mill/',
      shop_city: 'Whitby',
    });
  });

  it('suggests posts and pages, and applies the synonyms seeded from the settings', async () => {
    expect((await suggestions('linen')).find((each) => each.type === 'post')).toMatchObject({
      post_type: 'post',
      value: 'How we choose our linen',
    });
    const sweatshirts = products(await suggestions('sweatshirt')).map((each) => each.post_id);
    expect(sweatshirts[0]).toBe(1205);
    expect(sweatshirts).toContain(1200);
  });

  it('ends with more_products and the total when not every product is shown', async () => {
    const list = await suggestions('linen');
    const more = list.at(-1);
    expect(more).toMatchObject({ type: 'more_products', url: '/?s=linen&post_type=product' });
    expect(more?.total).toBeGreaterThan(list.filter((each) => each.type === 'product').length);
    // Every product shown is counted in the total; a query with few matches has no "more".
    expect((await suggestions('macrame')).some((each) => each.type === 'more_products')).toBe(false);
  });

  it('answers no-results when nothing matches, and nothing for an empty query', async () => {
    expect(await suggestions('zzqxv')).toEqual([{ type: 'no-results', value: 'No results' }]);
    expect(await suggestions('   ')).toEqual([]);
  });

  it('never shows hidden or catalog-only products, and shows search-only ones', async () => {
    expect(products(await suggestions('gift wrap')).map((each) => each.post_id)).not.toContain(1036);
    expect(products(await suggestions('staff hoodie'))).toEqual([]);
    expect(products(await suggestions('bookends'))).toEqual([]);
    expect(products(await suggestions('cedar'))[0]).toMatchObject({ post_id: 1027 });
  });

  it('never fails on hostile or broken input', async () => {
    for (const query of [
      '"',
      '*',
      'NEAR(',
      'OR',
      'a OR b',
      '\u0000\u0001\u0002',
      'x'.repeat(10000),
      '%',
      '\\',
    ]) {
      const { response } = await suggest(query);
      expect(response.statusCode).toBe(200);
    }
    const repeated = await shop.app.inject('/?wc-ajax=search_suggestions&s=hood&s=linen&l=en&custom=1');
    expect(repeated.statusCode).toBe(200);
    const missing = await shop.app.inject('/?wc-ajax=search_suggestions');
    expect(missing.json()).toMatchObject({ suggestions: [] });
  });

  it('is cacheable: an ETag answered with 304 until the catalog changes', async () => {
    const first = await suggest('jacket');
    const etag = first.response.headers.etag as string;
    expect(first.response.headers['cache-control']).toContain('public');
    expect(etag).toMatch(/^".+"$/);
    const again = await suggest('jacket', { 'if-none-match': etag });
    expect(again.response.statusCode).toBe(304);
    // A committed catalog write (as an import or another process would make) reaches the index.
    await shop.query("UPDATE products SET name = 'Cotton Barn Jacket' WHERE id = 1034");
    const changed = await suggest('jacket', { 'if-none-match': etag });
    expect(changed.response.statusCode).toBe(200);
    expect(products(changed.body?.suggestions ?? [])[0]).toMatchObject({ value: 'Cotton Barn Jacket' });
    expect(products(await suggestions('barn'))[0]).toMatchObject({ post_id: 1034 });
    await shop.query("UPDATE products SET visibility = 'hidden' WHERE id = 1034");
    expect(products(await suggestions('barn')).map((each) => each.post_id)).not.toContain(1034);
  });
});

describe('search_details', () => {
  async function details(payload: unknown, form = false) {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=search_details',
      ...(form
        ? { payload: payload as string, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
        : { payload: payload as object }),
    });
    return response;
  }

  it('renders the panel for each kind of object, escaped, and skips unknown ids', async () => {
    const response = await details({
      action: 'result-details',
      items: [
        { objectID: 'product__1203', value: 'Zip-Up Hoodie' },
        { objectID: 'product_variation__1200__1201', value: 'Oat' },
        { objectID: 'taxonomy__0__product_cat', value: 'none' },
        { objectID: 'product__1204', value: 'hidden' },
        { objectID: 'product__999999', value: 'unknown' },
        { objectID: '<script>', value: 'x' },
        { objectID: 'product__1203', value: 'again' },
      ],
    });
    expect(response.statusCode).toBe(200);
    const { items } = response.json() as { items: { objectID: string; html: string; price?: string }[] };
    expect(items.map((item) => item.objectID)).toEqual(['product__1203', 'product_variation__1200__1201']);
    expect(items[0]?.html).toContain('Zip-Up Hoodie');
    expect(items[0]?.html).toContain('name="add-to-cart" value="1203"');
    expect(items[0]?.price).toContain('$74.00');
    expect(items[1]?.html).toContain('name="variation_id" value="1201"');
    expect(items[1]?.html).toContain('name="attribute_color" value="oat"');
    // Its add-to-cart goes through the cart's ajax path, like the product cards' buttons.
    const form = /<form[^>]*search-details__cart[^>]*>/.exec(items[0]?.html ?? '')?.[0] ?? '';
    expect(form).toContain('data-ajax-add-to-cart');
    expect(form).toContain('action="/cart/"');
  });

  it('shows a taxonomy or vendor with its top products, and a post', async () => {
    const rows = await shop.query<{ id: number }>("SELECT id FROM terms WHERE slug = 'hoodies'");
    const [vendor] = await shop.query<{ id: number }>("SELECT id FROM vendors WHERE slug = 'tidewater-mill'");
    const [post] = await shop.query<{ id: number }>("SELECT id FROM posts WHERE type = 'post' LIMIT 1");
    const response = await details(
      `action=result-details&items=${encodeURIComponent(
        JSON.stringify([
          { objectID: `taxonomy__${rows[0]?.id}__product_cat` },
          { objectID: `vendor__${vendor?.id}` },
          { objectID: `post__${post?.id}__post` },
        ]),
      )}`,
      true,
    );
    const { items } = response.json() as { items: { objectID: string; html: string }[] };
    expect(items).toHaveLength(3);
    expect(items[0]?.html).toContain('Lined Pullover Hoodie');
    expect(items[0]?.html).not.toContain('Staff Hoodie');
    expect(items[1]?.html).toContain('Tidewater Mill');
    expect(items[2]?.html).toContain('search-details--post');
  });

  it('escapes data on the server', async () => {
    await shop.query(`UPDATE products SET name = '<img src=x onerror=alert(1)> Mug' WHERE id = 1021`);
    const response = await details({ items: [{ objectID: 'product__1021' }] });
    const html = (response.json() as { items: { html: string }[] }).items[0]?.html ?? '';
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; Mug');
    expect(html).not.toContain('<img src=x');
    // In a suggestion the name is text (value); the markup fields never carry it raw.
    const [mug] = products(await suggestions('onerror'));
    expect(mug?.value).toBe('<img src=x onerror=alert(1)> Mug');
    expect(`${mug?.thumb_html}${mug?.price}`).not.toContain('onerror');
  });

  it('answers a clear 400 for a malformed request', async () => {
    expect((await details({ action: 'result-details', items: 'nope' })).statusCode).toBe(400);
    expect((await details({ action: 'other', items: [] })).statusCode).toBe(400);
    const broken = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=search_details',
      payload: '{"items": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
  });
});

describe('search.brandsTaxonomy', () => {
  let brandsShop: TestApp;
  beforeAll(async () => {
    brandsShop = await createTestApp({ settings: { search: { brandsTaxonomy: 'pwb-brand' } } });
  });
  afterAll(async () => brandsShop?.close());

  it('names the brand taxonomy of suggestions, headlines and details ids after the setting', async () => {
    const response = await brandsShop.app.inject({
      method: 'GET',
      url: '/?wc-ajax=search_suggestions&s=tidewat',
    });
    const list = (response.json() as SuggestionsResponse).suggestions;
    const brand = list.find((each) => each.type === 'taxonomy');
    expect(brand).toMatchObject({
      value: 'Tidewater Textiles',
      taxonomy: 'pwb-brand',
      url: '/brand/tidewater-textiles/',
    });
    expect(list).toContainEqual({ type: 'headline', value: 'Brands', group: 'pwb-brand' });
    const details = await brandsShop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=search_details',
      payload: {
        items: [
          { objectID: `taxonomy__${brand?.term_id}__pwb-brand` },
          { objectID: `taxonomy__${brand?.term_id}__product_cat` },
        ],
      },
    });
    const { items } = details.json() as { items: { objectID: string; html: string }[] };
    expect(items.map((item) => item.objectID)).toEqual([`taxonomy__${brand?.term_id}__pwb-brand`]);
    expect(items[0]?.html).toContain('Tidewater Textiles');
  });
});

describe('search_prices', () => {
  it('answers current prices for searchable products and nothing for unknown or hidden ids', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=search_prices',
      payload: { action: 'dgwt_wcas_get_prices', items: [1203, '1200', 1204, 999999, 'x'] },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { success: boolean; data: { id: number; price: string }[] };
    expect(body.success).toBe(true);
    expect(body.data.map((entry) => entry.id)).toEqual([1203, 1200]);
    expect(body.data[0]?.price).toContain('$74.00');
    const form = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=search_prices',
      payload: 'action=dgwt_wcas_get_prices&items[0]=1203&items[1]=1205',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect((form.json() as { data: { id: number }[] }).data.map((entry) => entry.id)).toEqual([1203, 1205]);
  });
});
