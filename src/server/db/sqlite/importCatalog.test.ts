import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isShopError, type ShopError } from '../../../shared/errors/ShopError';
import type { ImportRowError } from '../../catalog/import/catalogImport';
import { readCatalogFiles } from '../../catalog/import/readCatalogFiles';
import { DEMO_CATALOG } from '../../catalog/import/seedDemoCatalog';
import { checkPostPassword } from '../../content/postPassword';
import { projectPath } from '../../projectPath';
import { MemorySearchIndex } from '../../search/MemorySearchIndex';
import { openDatabase, type SqliteDatabase } from '../openDatabase';
import type { Repositories } from '../ports';
import { createSqliteRepositories } from './createSqliteRepositories';

/*
 * SqliteCatalogRepository.importCatalog on a real SQLite file: what an import writes, that a re-import is a
 * no-op, and that a failing import leaves the catalog exactly as it was.
 */

const WOO_SAMPLE_CSV = projectPath('test-fixtures', 'woocommerce-sample-products.csv');

const CATALOG_TABLES = [
  'terms',
  'vendors',
  'products',
  'product_terms',
  'product_images',
  'product_downloads',
  'grouped_children',
  'attributes',
  'attribute_terms',
  'product_attributes',
  'product_attribute_terms',
  'variation_attributes',
  'posts',
];

/* Every column of every catalog table must be the same after a second import: nothing is left out. */
const UNSTABLE_COLUMNS: Record<string, string[]> = {};

/** Every row of every catalog table, timestamps left out, in a stable order. */
function dumpCatalog(db: SqliteDatabase): Record<string, unknown[]> {
  const dump: Record<string, unknown[]> = {};
  for (const table of CATALOG_TABLES) {
    const skip = ['created_at', 'updated_at', ...(UNSTABLE_COLUMNS[table] ?? [])];
    const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[])
      .map((column) => column.name)
      .filter((name) => !skip.includes(name));
    const order = columns.map((_, index) => index + 1).join(', ');
    dump[table] = db.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY ${order}`).all();
  }
  return dump;
}

/** A small CSV in WooCommerce's format (BOM, quoted header names) from rows of the listed columns. */
function wooCsv(columns: string[], rows: string[][]): string {
  const quote = (value: string) => (/[",\n ?]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  return `\uFEFF${[columns, ...rows].map((row) => row.map(quote).join(',')).join('\n')}\n`;
}

async function importError(promise: Promise<unknown>): Promise<ShopError> {
  try {
    await promise;
  } catch (error) {
    if (isShopError(error)) return error;
    throw error;
  }
  throw new Error('the import succeeded');
}

describe('importCatalog (SQLite)', () => {
  let dataDir: string;
  let db: SqliteDatabase;
  let repositories: Repositories;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'shop-'));
    db = openDatabase(dataDir);
    repositories = createSqliteRepositories(db);
  });

  afterEach(async () => {
    await repositories.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const importDemo = async () =>
    repositories.catalog.importCatalog(await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar));

  const writeCsv = (name: string, text: string) => {
    const path = join(dataDir, name);
    writeFileSync(path, text);
    return path;
  };

  const count = (sql: string) => db.prepare(sql).pluck().get() as number;

  describe('the demo catalog', () => {
    it('in a process of its own, copies what it wrote into the database file once a reader from before moved on', async () => {
      // A server's request in flight: its read began before the import.
      const server = openDatabase(dataDir);
      server.exec('BEGIN');
      server.prepare('SELECT count(*) FROM products').get();
      setTimeout(() => server.exec('COMMIT'), 100);
      try {
        await repositories.catalog.importCatalog(
          await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar),
          () => {},
          { ownConnection: true },
        );
      } finally {
        server.close();
      }
      const pages =
        (db.pragma('page_count', { simple: true }) as number) *
        (db.pragma('page_size', { simple: true }) as number);
      expect(statSync(db.name).size).toBe(pages);
    });

    it('creates every row and reports the counts', async () => {
      const summary = await importDemo();
      expect(summary).toMatchObject({ created: 90, updated: 0, variations: 60, posts: 6 });
      expect(summary.categories).toBeGreaterThanOrEqual(14);
      expect(await repositories.catalog.countProducts()).toBe(30);
      const byType = Object.fromEntries(
        (
          db.prepare('SELECT type, COUNT(*) AS n FROM products GROUP BY type').all() as {
            type: string;
            n: number;
          }[]
        ).map((row) => [row.type, row.n]),
      );
      expect(byType).toEqual({ simple: 22, variable: 6, variation: 60, external: 1, grouped: 1 });
    });

    it('keeps the CSV IDs as product ids and reads flags and prices', async () => {
      await importDemo();
      const ebook = await repositories.catalog.getProductById(1039);
      expect(ebook).toMatchObject({
        sku: 'DEMO-MENDING-EBOOK',
        type: 'simple',
        virtual: true,
        downloadable: true,
        price: { min: 999, max: 999, regular: 1299, onSale: true },
      });
      expect(ebook?.downloads).toHaveLength(2);
      const lamp = await repositories.catalog.getProductById(1040);
      expect(lamp).toMatchObject({
        type: 'external',
        externalUrl: 'https://partner.example.invalid/lighting/rattan-pendant-lamp',
        buttonText: 'Buy from Lumen & Cane',
      });
    });

    it('gives simple products their listing price', async () => {
      await importDemo();
      const mug = await repositories.catalog.getProductById(1021);
      expect(mug?.price).toMatchObject({ min: 1800, max: 1800 });
    });

    it('attaches variations to their variable parent, by SKU and by id:N', async () => {
      await importDemo();
      const shirt = await repositories.catalog.getProductById(1001);
      expect(shirt?.type).toBe('variable');
      expect(shirt?.variations.map((variation) => variation.sku)).toEqual([
        'DEMO-LINEN-SHIRT-SAGE-S',
        'DEMO-LINEN-SHIRT-SAGE-M',
        'DEMO-LINEN-SHIRT-OAT-M',
        'DEMO-LINEN-SHIRT-INDIGO-L',
        'DEMO-LINEN-SHIRT-RUST-M',
      ]);
      // DEMO-LINEN-SHIRT-INDIGO-L names its parent as id:1001.
      expect(shirt?.variations[3]).toMatchObject({
        attributes: { attribute_color: 'indigo', attribute_size: 'l' },
        is_in_stock: false,
      });
      expect(shirt?.price).toMatchObject({ min: 5400, max: 7200, onSale: true });
      expect(shirt?.attributes.map((attribute) => [attribute.slug, attribute.forVariations])).toEqual([
        ['color', true],
        ['size', true],
      ]);
    });

    it('stores an "any" attribute of a variation as an empty value', async () => {
      await importDemo();
      const tee = await repositories.catalog.getProductById(1007);
      expect(tee?.variations).toHaveLength(3);
      for (const variation of tee?.variations ?? []) {
        expect(variation.attributes).toHaveProperty('attribute_size', '');
        expect(variation.attributes.attribute_color).not.toBe('');
      }
      expect(count('SELECT COUNT(*) FROM variation_attributes WHERE term_id IS NULL')).toBe(3);
    });

    it('links a grouped product to its children in order', async () => {
      await importDemo();
      const set = await repositories.catalog.getProductById(1041);
      expect(set?.type).toBe('grouped');
      expect(set?.groupedChildren.map((child) => child.sku)).toEqual([
        'DEMO-CAFE-MUG',
        'DEMO-SPECKLED-BOWL',
        'DEMO-LINEN-TEA-TOWEL',
      ]);
      expect(set?.price).toMatchObject({ min: 950, max: 1800 });
    });

    it('keeps a hidden product out of the shop and search, but reachable by its slug', async () => {
      await importDemo();
      const slug = db
        .prepare("SELECT slug FROM products WHERE sku = 'DEMO-GIFT-WRAP'")
        .pluck()
        .get() as string;

      expect(await listedSkus(repositories, 'shop')).not.toContain('DEMO-GIFT-WRAP');
      expect(await listedSkus(repositories, 'search', 'gift wrap')).not.toContain('DEMO-GIFT-WRAP');
      expect(await listedSkus(repositories, 'search', 'handwritten')).toEqual([]);
      const product = await repositories.catalog.getProductBySlug(slug);
      expect(product).toMatchObject({ sku: 'DEMO-GIFT-WRAP', visibility: 'hidden' });
    });

    it('lists search-only products in search but not the shop, and catalog-only ones the other way', async () => {
      await importDemo();
      expect(await listedSkus(repositories, 'shop')).not.toContain('DEMO-CEDAR-CANDLE');
      expect(await listedSkus(repositories, 'search', 'cedar')).toEqual(['DEMO-CEDAR-CANDLE']);
      expect(await listedSkus(repositories, 'shop')).toContain('DEMO-BRASS-BOOKENDS');
      expect(await listedSkus(repositories, 'search', 'brass')).not.toContain('DEMO-BRASS-BOOKENDS');
    });

    it('keeps an unpublished product out of every listing and page', async () => {
      await importDemo();
      expect(
        count("SELECT COUNT(*) FROM products WHERE sku = 'DEMO-SHIBORI-NAPKINS' AND status = 'draft'"),
      ).toBe(1);
      expect(await repositories.catalog.getProductById(1037)).toBeNull();
    });

    it('builds the category tree from "A > B" paths', async () => {
      await importDemo();
      const shirts = await repositories.catalog.getTermByPath('product_cat', ['apparel', 'shirts']);
      expect(shirts).toMatchObject({ name: 'Shirts', path: ['apparel', 'shirts'] });
      expect(shirts?.description).not.toBe('');
      expect(await repositories.catalog.getTermByPath('product_cat', ['home', 'shirts'])).toBeNull();
    });

    it('changes nothing when the same files are imported again', async () => {
      await importDemo();
      const before = dumpCatalog(db);
      const summary = await importDemo();
      expect(summary).toMatchObject({ created: 0, updated: 0, unchanged: 90, variations: 60 });
      const after = dumpCatalog(db);
      for (const table of CATALOG_TABLES)
        expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
    });

    it('still lets a protected page be unlocked after a re-import', async () => {
      await importDemo();
      await importDemo();
      const post = await repositories.catalog.getPostBySlug('trade-prices');
      expect(post?.protected).toBe(true);
      expect(checkPostPassword('wholesale', post?.passwordHash ?? '')).toBe(true);
      expect(checkPostPassword('retail', post?.passwordHash ?? '')).toBe(false);
    });

    // Pages link to /images/{id}.svg, cached for a day: a re-import must not renumber images.
    it('keeps image ids (and so /images/{id}.svg URLs) on a re-import', async () => {
      await importDemo();
      const ids = () => db.prepare('SELECT id, product_id, position FROM product_images ORDER BY id').all();
      const before = ids();
      await importDemo();
      expect(ids()).toEqual(before);
    });
  });

  describe('a failing import', () => {
    it('imports nothing when the last row has a bad price, and names its line and column', async () => {
      const demo = readFileSync(DEMO_CATALOG.csv, 'utf8').trimEnd();
      const badLine = demo.split('\n').length + 1;
      const header = (parse(demo, { bom: true, to_line: 1 }) as string[][])[0] ?? [];
      const values: Record<string, string> = {
        ID: '9999',
        Type: 'simple',
        SKU: 'BROKEN-PRICE',
        Name: 'Broken Price',
        Published: '1',
        'Regular price': 'abc',
      };
      const badRow = header.map((column) => values[column] ?? '').join(',');
      const csv = writeCsv('broken.csv', `${demo}\n${badRow}\n`);

      const error = await importError(
        readCatalogFiles(csv, DEMO_CATALOG.sidecar).then((catalog) =>
          repositories.catalog.importCatalog(catalog),
        ),
      );
      expect(error.code).toBe('import_failed');
      expect(error.details.errors).toEqual([
        expect.objectContaining({ line: badLine, column: 'Regular price' }),
      ] satisfies ImportRowError[]);
      expect(await repositories.catalog.countProducts()).toBe(0);
    });

    it('rolls the whole import back when a variation names an unknown parent SKU', async () => {
      const columns = [
        'ID',
        'Type',
        'SKU',
        'Name',
        'Regular price',
        'Categories',
        'Parent',
        'Attribute 1 name',
        'Attribute 1 value(s)',
      ];
      const csv = writeCsv(
        'orphan.csv',
        wooCsv(columns, [
          ['1', 'simple', 'MUG', 'Mug', '18', 'Kitchen', '', 'Color', 'Cream'],
          ['2', 'variable', 'TEE', 'Tee', '', 'Apparel', '', 'Color', 'Red, Blue'],
          ['3', 'variation', 'TEE-RED', 'Tee - Red', '20', '', 'TEE', 'Color', 'Red'],
          ['4', 'variation', 'GHOST-RED', 'Ghost - Red', '20', '', 'NO-SUCH-PARENT', 'Color', 'Red'],
        ]),
      );
      const catalog = await readCatalogFiles(csv);
      const error = await importError(repositories.catalog.importCatalog(catalog));
      expect(error.code).toBe('import_failed');
      expect(error.details.errors).toEqual([
        expect.objectContaining({
          line: 5,
          column: 'Parent',
          message: expect.stringContaining('NO-SUCH-PARENT'),
        }),
      ]);
      expect(await repositories.catalog.countProducts()).toBe(0);
      expect(count('SELECT COUNT(*) FROM products')).toBe(0);
      expect(count('SELECT COUNT(*) FROM terms')).toBe(0);
      expect(count('SELECT COUNT(*) FROM attributes')).toBe(0);
    });

    it('leaves an existing catalog exactly as it was', async () => {
      await importDemo();
      const before = dumpCatalog(db);
      const columns = ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent'];
      const csv = writeCsv(
        'update.csv',
        wooCsv(columns, [
          ['', 'simple', 'DEMO-CAFE-MUG', 'Renamed Mug', '1', ''],
          ['', 'simple', 'NEW-PRODUCT', 'New Product', '5', ''],
          ['', 'variation', 'GHOST', 'Ghost', '5', 'DEMO-CAFE-MUG'],
        ]),
      );
      const error = await importError(
        readCatalogFiles(csv).then((c) => repositories.catalog.importCatalog(c)),
      );
      expect(error.details.errors).toEqual([expect.objectContaining({ line: 4, column: 'Parent' })]);
      expect(dumpCatalog(db)).toEqual(before);
      expect((await repositories.catalog.getProductById(1021))?.name).toBe('Café au Lait Mug');
    });
  });

  describe("WooCommerce's sample export", () => {
    it('imports all 25 rows with variations, "any" sizes, grouped children and the external URL', async () => {
      const summary = await repositories.catalog.importCatalog(await readCatalogFiles(WOO_SAMPLE_CSV));
      expect(summary).toMatchObject({ created: 25, updated: 0, variations: 7 });
      expect(count('SELECT COUNT(*) FROM products')).toBe(25);

      const bySku = async (sku: string) => {
        const id = db.prepare('SELECT id FROM products WHERE sku = ?').pluck().get(sku) as number;
        return repositories.catalog.getProductById(id);
      };
      const hoodie = await bySku('woo-hoodie');
      expect(hoodie?.variations).toHaveLength(4);
      expect(hoodie?.variations.map((variation) => variation.sku).sort()).toEqual([
        'woo-hoodie-blue',
        'woo-hoodie-blue-logo',
        'woo-hoodie-green',
        'woo-hoodie-red',
      ]);
      expect(hoodie?.variations.map((variation) => variation.attributes)).toEqual(
        expect.arrayContaining([
          { attribute_color: 'red', attribute_logo: 'no' },
          { attribute_color: 'green', attribute_logo: 'no' },
          { attribute_color: 'blue', attribute_logo: 'no' },
          { attribute_color: 'blue', attribute_logo: 'yes' },
        ]),
      );

      const vneck = await bySku('woo-vneck-tee');
      expect(vneck?.variations).toHaveLength(3);
      for (const variation of vneck?.variations ?? []) expect(variation.attributes.attribute_size).toBe('');
      expect(vneck?.price).toMatchObject({ min: 1500, max: 2000 });

      const collection = await bySku('logo-collection');
      expect(collection?.type).toBe('grouped');
      expect(collection?.groupedChildren.map((child) => child.sku)).toEqual([
        'woo-hoodie-with-logo',
        'woo-tshirt',
        'woo-beanie',
      ]);

      const pennant = await bySku('wp-pennant');
      expect(pennant).toMatchObject({
        type: 'external',
        externalUrl: 'https://mercantile.wordpress.org/product/wordpress-pennant/',
        price: { min: 1105 },
      });

      const album = await bySku('woo-album');
      expect(album).toMatchObject({ type: 'simple', virtual: true, downloadable: true });
    });

    it('creates nothing on a second import', async () => {
      await repositories.catalog.importCatalog(await readCatalogFiles(WOO_SAMPLE_CSV));
      const before = dumpCatalog(db);
      const summary = await repositories.catalog.importCatalog(await readCatalogFiles(WOO_SAMPLE_CSV));
      expect(summary).toMatchObject({ created: 0, updated: 0, unchanged: 25 });
      expect(count('SELECT COUNT(*) FROM products')).toBe(25);
      expect(dumpCatalog(db)).toEqual(before);
    });
  });
});

/** The SKUs a catalog listing returns, in the shop's or search's visibility, optionally for a text. */
async function listedSkus(repositories: Repositories, context: 'shop' | 'search', text?: string) {
  let ids: number[] | undefined;
  if (text !== undefined) {
    // Search results come from the search index built from the committed rows, as the results page does.
    const index = new MemorySearchIndex();
    await index.replaceAll((await repositories.search.loadDocuments()).documents);
    ids = await index.searchProductIds(text);
  }
  const list = await repositories.catalog.listProducts({
    context,
    ids,
    orderby: 'menu_order',
    page: 1,
    perPage: 100,
  });
  return list.items.map((item) => item.sku);
}
