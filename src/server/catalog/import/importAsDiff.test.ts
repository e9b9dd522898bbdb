import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import type { CatalogImport, ImportProduct } from './catalogImport';
import { readCatalogFiles } from './readCatalogFiles';
import { DEMO_CATALOG } from './seedDemoCatalog';

/*
 * An import writes only what the file changes, on whichever engine the tests run (`npm run test:postgres` runs this
 * file on PostgreSQL): an unchanged file writes no row and moves no catalog revision, a changed one updates only
 * the products it changes (their ids and addresses kept), deletes what a whole-catalog file leaves out, and tells
 * the change feed once per changed product.
 */

/** Every row of the catalog tables, every column, in a stable order. */
const CATALOG_TABLES = [
  'terms',
  'vendors',
  'products',
  'product_terms',
  'product_images',
  'product_downloads',
  'grouped_children',
  'product_links',
  'attributes',
  'attribute_terms',
  'product_attributes',
  'product_attribute_terms',
  'variation_attributes',
  'posts',
  'search_changes',
  'webhook_deliveries',
];

describe('imports as diffs', () => {
  let shop: TestApp;
  let file: CatalogImport;

  beforeEach(async () => {
    // Seeded with the demo catalog: the file below is the same one.
    shop = await createTestApp();
    file = await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar);
    // A webhook listening, so a product.updated queued for an unchanged product would show as a row.
    await shop.query(
      `INSERT INTO webhooks (name, status, topic, delivery_url, secret, api_version, failure_count, created_at, updated_at)
       VALUES ('probe', 'active', 'product.updated', 'http://127.0.0.1:9/hook', 'secret', 'wc/v3', 0, 0, 0)`,
    );
  }, 60_000);
  afterEach(async () => {
    await shop?.close();
  });

  async function dump(): Promise<Record<string, unknown[]>> {
    const tables: Record<string, unknown[]> = {};
    for (const table of CATALOG_TABLES) tables[table] = await shop.query(`SELECT * FROM ${table}`);
    for (const rows of Object.values(tables))
      rows.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    return tables;
  }

  /**
   * A mark of every row's version: PostgreSQL gives each written row version a new xmin even when the values are
   * the same; SQLite counts every row an INSERT, UPDATE or DELETE touched on the connection (triggers included).
   */
  async function writeMark(): Promise<string> {
    if (!shop.databaseUrl) return String(shop.db.prepare('SELECT total_changes()').pluck().get());
    const marks: string[] = [];
    for (const table of CATALOG_TABLES) {
      const rows = await shop.query<{ v: string }>(
        `SELECT xmin::text AS v FROM ${table} ORDER BY xmin::text`,
      );
      marks.push(`${table}:${rows.map((row) => row.v).join(',')}`);
    }
    return marks.join('\n');
  }

  const bySku = (sku: string): ImportProduct => {
    const product = file.products.find((each) => each.sku === sku);
    if (!product) throw new Error(`no ${sku} in the demo catalog`);
    return product;
  };

  async function product(sku: string) {
    const [row] = await shop.query<{ id: number; slug: string | null; name: string; regular_price: number }>(
      'SELECT id, slug, name, regular_price FROM products WHERE sku = ?',
      [sku],
    );
    return row;
  }

  it('writes no row and moves no catalog revision when the same file is imported again', async () => {
    const before = await dump();
    const mark = await writeMark();
    const revision = await shop.repositories.search.revision();
    const summary = await shop.repositories.catalog.importCatalog(structuredClone(file));
    expect(summary).toMatchObject({ created: 0, updated: 0, removed: 0, unchanged: file.products.length });
    expect(await shop.repositories.search.revision()).toEqual(revision);
    expect(await dump()).toEqual(before);
    // SQLite: the two writes are the import's own pause row, put in and taken out of its capture table.
    expect(await writeMark()).toBe(shop.databaseUrl ? mark : String(Number(mark) + 2));
  });

  it('updates only the products the file changes, keeping their ids and addresses, and deletes what it leaves out', async () => {
    const simple = file.products.filter((each) => each.type === 'simple' && each.sku);
    const [priced, renamed, removed] = simple.map((each) => each.sku as string);
    if (!priced || !renamed || !removed) throw new Error('the demo catalog has too few simple products');
    const variation = file.products.find(
      (each) => each.type === 'variation' && each.parent && 'sku' in each.parent,
    );
    const parentSku = variation?.parent && 'sku' in variation.parent ? variation.parent.sku : '';
    const was = {
      priced: await product(priced),
      renamed: await product(renamed),
      removed: await product(removed),
    };
    const parent = await product(parentSku);
    const [sold] = await shop.query<{ vendor_id: number | null }>(
      'SELECT vendor_id FROM products WHERE sku = ?',
      [removed],
    );
    const removedVendor = Number(sold?.vendor_id);
    expect(removedVendor).toBeGreaterThan(0);

    bySku(priced).regularPrice = (bySku(priced).regularPrice ?? 0) + 250;
    bySku(renamed).name = 'A wholly new name';
    if (!variation) throw new Error('the demo catalog has no variation');
    variation.salePrice = 1;
    const added: ImportProduct = {
      ...bySku(priced),
      sku: 'NEW-ONE',
      csvId: null,
      name: 'New one',
      line: 9999,
    };
    file.products = [...file.products.filter((each) => each.sku !== removed), added];
    file.removeMissing = true;

    // A grouped product that lists the repriced or removed one changes with it (its price range follows).
    const groups = await shop.query<{ parent_id: number }>(
      'SELECT DISTINCT parent_id FROM grouped_children WHERE child_id IN (?, ?)',
      [was.priced?.id, was.removed?.id],
    );
    const revision = (await shop.repositories.search.revision()).catalog;
    const summary = await shop.repositories.catalog.importCatalog(file);
    expect(summary).toMatchObject({
      created: 1,
      updated: 3,
      removed: 1,
      unchanged: file.products.length - 4,
    });

    const now = {
      priced: await product(priced),
      renamed: await product(renamed),
      removed: await product(removed),
    };
    expect(now.priced).toMatchObject({ id: was.priced?.id, slug: was.priced?.slug });
    expect(now.priced?.regular_price).toBe((was.priced?.regular_price ?? 0) + 250);
    // A new name keeps the product's id and its address.
    expect(now.renamed).toMatchObject({
      id: was.renamed?.id,
      slug: was.renamed?.slug,
      name: 'A wholly new name',
    });
    expect(now.removed).toBeUndefined();
    const created = await product('NEW-ONE');

    // The change feed: each changed product once (a variation as its parent), nothing else of the catalog.
    const changes = await shop.repositories.search.changesSince(revision, 10_000);
    expect(changes.full).toBe(false);
    const expected = [
      ...new Set([
        was.priced?.id,
        was.renamed?.id,
        was.removed?.id,
        parent?.id,
        created?.id,
        ...groups.map((group) => Number(group.parent_id)),
      ]),
    ] as number[];
    expect([...changes.products].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    // The removed product's vendor holds one product fewer: its count is read again (narrow: the vendor itself did not
    // change, so its products are not). The new product has no vendor.
    expect(changes.vendors).toEqual([removedVendor]);
    expect(changes.editedVendors).toEqual([]);
    expect(changes.posts).toEqual([]);
    // One change each: the feed moved by exactly the entries it holds, not once per row the import wrote.
    const entries = changes.products.length + changes.terms.length + changes.vendors.length;
    expect((await shop.repositories.search.revision()).catalog - revision).toBe(entries);
    // The terms are those the new and the removed product link to (their counts changed).
    expect(changes.terms.length).toBeGreaterThan(0);
  });

  it('without removeMissing keeps the products the file leaves out (the back office imports a file in parts)', async () => {
    const [kept] = file.products.filter((each) => each.type === 'simple' && each.sku).map((each) => each.sku);
    file.products = file.products.filter((each) => each.sku !== kept);
    const summary = await shop.repositories.catalog.importCatalog(file);
    expect(summary).toMatchObject({ removed: 0, updated: 0, created: 0 });
    expect(await product(kept as string)).toBeDefined();
  });

  it('still records a change another writer makes (the back office, orders) through the triggers', async () => {
    const target = await product(file.products.find((each) => each.type === 'simple')?.sku as string);
    const revision = (await shop.repositories.search.revision()).catalog;
    await shop.query('UPDATE products SET stock_quantity = 3 WHERE id = ?', [target?.id]);
    const changes = await shop.repositories.search.changesSince(revision, 100);
    expect(changes.products).toEqual([target?.id]);
  });
});
