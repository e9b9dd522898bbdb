import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/createTestApp';

/*
 * Which products the tag, brand and vendor archives list: every term and vendor of the demo catalog, compared
 * with the products the database links to it that a visitor may browse (published, not hidden, not search-only,
 * no variations). The demo's "gift idea" tag holds a hidden product, "handmade" a draft and "candles" a
 * search-only one, so a listing that forgets a rule shows up here.
 */

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { shop: { productsPerPage: 100 } } });
});
afterAll(async () => shop?.close());

const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function listedOn(url: string): Promise<string[]> {
  const response = await shop.app.inject(url);
  expect(response.statusCode, url).toBe(200);
  return [...response.body.matchAll(/class="product-card__title">([^<]*)</g)]
    .map((match) => decode(match[1] ?? ''))
    .sort();
}

const BROWSABLE = "p.type <> 'variation' AND p.status = 'publish' AND p.visibility IN ('visible', 'catalog')";

async function namesOf(sql: string, params: unknown[]): Promise<string[]> {
  return (await shop.query<{ name: string }>(sql, params)).map((row) => row.name).sort();
}

describe('tag, brand and vendor archives', () => {
  it('/product-tag/{slug}/ lists the browsable products with that tag, for every tag', async () => {
    const tags = await shop.query<{ id: number; slug: string }>(
      "SELECT id, slug FROM terms WHERE taxonomy = 'product_tag'",
    );
    expect(tags.length).toBeGreaterThan(10);
    for (const tag of tags) {
      const expected = await namesOf(
        `SELECT p.name FROM products p JOIN product_terms pt ON pt.product_id = p.id
         WHERE pt.term_id = ? AND ${BROWSABLE}`,
        [tag.id],
      );
      expect(await listedOn(`/product-tag/${tag.slug}/`), tag.slug).toEqual(expected);
    }
  });

  it('/brand/{slug}/ lists the browsable products of that brand, for every brand', async () => {
    const brands = await shop.query<{ id: number; slug: string }>(
      "SELECT id, slug FROM terms WHERE taxonomy = 'product_brand'",
    );
    expect(brands.length).toBeGreaterThan(2);
    for (const brand of brands) {
      const expected = await namesOf(
        `SELECT p.name FROM products p JOIN product_terms pt ON pt.product_id = p.id
         WHERE pt.term_id = ? AND ${BROWSABLE}`,
        [brand.id],
      );
      expect(await listedOn(`/brand/${brand.slug}/`), brand.slug).toEqual(expected);
    }
  });

  it('/vendor/{slug}/ lists the browsable products that vendor sells, for every vendor', async () => {
    const vendors = await shop.query<{ id: number; slug: string }>('SELECT id, slug FROM vendors');
    expect(vendors.length).toBeGreaterThan(1);
    for (const vendor of vendors) {
      const expected = await namesOf(`SELECT p.name FROM products p WHERE p.vendor_id = ? AND ${BROWSABLE}`, [
        vendor.id,
      ]);
      expect(await listedOn(`/vendor/${vendor.slug}/`), vendor.slug).toEqual(expected);
    }
  });

  it('reads as the demo catalog says: a tag, a brand shared by a set, hidden and draft products left out', async () => {
    expect(await listedOn('/product-tag/gift-idea/')).toEqual([
      'Café au Lait Mug',
      'Crème Fig Soy Candle',
      'Merino Rib Scarf',
      'One-off Walnut Serving Board',
      'Slow Breakfast Set',
    ]);
    expect(await listedOn('/product-tag/candles/')).toEqual(['Crème Fig Soy Candle']);
    expect(await listedOn('/brand/hollow-oak-ceramics/')).toEqual([
      'Café au Lait Mug',
      'Espresso Cup Pair',
      'Slow Breakfast Set',
      'Speckled Stoneware Bowl',
    ]);
  });
});
