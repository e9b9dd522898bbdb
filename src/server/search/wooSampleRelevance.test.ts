import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import type { Suggestion, SuggestionsResponse } from '../../shared/search/suggestionTypes';
import { readCatalogFiles } from '../catalog/import/readCatalogFiles';
import { projectPath } from '../projectPath';
import { testSearchEngines } from './postgres/testSearchIndexes';

/*
 * Relevance on WooCommerce's own sample export (test-fixtures/), imported into a temporary data dir after the app
 * started, so the index also proves it follows an import.
 * The same cases run on the embedded index and, with TEST_DATABASE_URL, on the PostgreSQL index.
 */

const WOO_SAMPLE_CSV = projectPath('test-fixtures', 'woocommerce-sample-products.csv');

describe.each(testSearchEngines())('search relevance on the WooCommerce sample catalog ($name)', (engine) => {
  if (engine.skip) {
    it.skip('needs TEST_DATABASE_URL', () => {});
    return;
  }
  let shop: TestApp;
  beforeAll(async () => {
    await engine.setup();
    shop = await createTestApp({ seed: false, searchIndex: await engine.make() });
    await shop.repositories.catalog.importCatalog(await readCatalogFiles(WOO_SAMPLE_CSV));
  });
  afterAll(async () => {
    await shop?.close();
    await engine.teardown();
  });

  async function suggestions(query: string): Promise<Suggestion[]> {
    const response = await shop.app.inject(`/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`);
    expect(response.statusCode).toBe(200);
    return (response.json() as SuggestionsResponse).suggestions;
  }
  const productNames = (list: Suggestion[]) =>
    list
      .filter((each) => each.type === 'product' || each.type === 'product_variation')
      .map((each) => each.value);

  it('finds the hoodies first for "hood" and for the typo "hodie", never the hidden one', async () => {
    for (const query of ['hood', 'hodie']) {
      const names = productNames(await suggestions(query));
      expect(names.slice(0, 3).sort()).toEqual(['Hoodie', 'Hoodie with Logo', 'Hoodie with Zipper']);
      expect(names).not.toContain('Hoodie with Pocket');
    }
  });

  it('puts the product titled exactly "Hoodie" before the featured "Hoodie with Zipper" for "hoodie"', async () => {
    expect(productNames(await suggestions('hoodie')).slice(0, 2)).toEqual(['Hoodie', 'Hoodie with Zipper']);
    const page = await shop.app.inject('/?s=hoodie&post_type=product');
    expect(page.body.indexOf('>Hoodie<')).toBeGreaterThan(-1);
    expect(page.body.indexOf('>Hoodie<')).toBeLessThan(page.body.indexOf('Hoodie with Zipper'));
  });

  it('finds a three-letter word with one typo when nothing matches it as typed', async () => {
    expect(productNames(await suggestions('blt'))).toEqual(['Belt']);
    expect(productNames(await suggestions('cqp'))).toEqual(['Cap']);
    // Found as typed: no typo neighbours join.
    expect(productNames(await suggestions('cap'))).toEqual(['Cap']);
  });

  it('finds the variation by its SKU', async () => {
    const [first] = (await suggestions('woo-hoodie-blue')).filter((each) => each.type !== 'headline-v2');
    expect(first).toMatchObject({ type: 'product_variation', sku: 'woo-hoodie-blue', variation_id: 81 });
  });

  it('finds the T-Shirts for tshirt and t-shirt', async () => {
    for (const query of ['tshirt', 't-shirt']) {
      const names = productNames(await suggestions(query));
      expect(names.slice(0, 3)).toEqual(
        expect.arrayContaining(['T-Shirt', 'T-Shirt with Logo', 'V-Neck T-Shirt']),
      );
    }
  });

  it('suggests the Accessories category for "access"', async () => {
    const list = await suggestions('access');
    expect(list.find((each) => each.type === 'taxonomy')).toMatchObject({
      value: 'Accessories',
      taxonomy: 'product_cat',
      breadcrumbs: 'Clothing',
      url: '/product-category/clothing/accessories/',
    });
  });

  it('shows the hidden product nowhere, not even on the results page', async () => {
    expect(productNames(await suggestions('pocket'))).toEqual([]);
    const page = await shop.app.inject('/?s=hoodie&post_type=product');
    expect(page.body).toContain('Hoodie with Zipper');
    expect(page.body).not.toContain('Hoodie with Pocket');
  });
});
