import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';
import type { Suggestion, SuggestionsResponse } from '../../shared/search/suggestionTypes';
import type { CatalogImport, ImportProduct } from '../catalog/import/catalogImport';
import { readCatalogFiles } from '../catalog/import/readCatalogFiles';
import { DEMO_CATALOG } from '../catalog/import/seedDemoCatalog';
import { EMPTY_SIDECAR } from '../catalog/import/siteSidecarSchema';
import { createApiKeyService, type IssuedApiKey } from '../wcRest/apiKeys/apiKeyService';

/*
 * A term or vendor is suggested while it holds a searchable product, and its count follows the products that
 * become searchable or stop being so without their term links changing (a status or visibility change, the trash,
 * a move to another vendor), whoever writes them: the WooCommerce REST API, another process's SQL, an import
 * (migration 0042, planCatalogImport's changedTerms and changedVendors). On both engines: SQLite by default,
 * PostgreSQL under `node scripts/ensure-postgres.mjs -- npx vitest run src/server/search/termAndVendorCounts.test.ts`.
 */

vi.setConfig({ testTimeout: 30_000 });

/** Waits for a condition (polling), up to 10 s: the machine may be busy; no speed is asserted. */
function waitUntil<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 10_000, interval: 20 });
}

/** An external product without a vendor in the demo catalog. */
const LAMP = 1040;
/** The café mug, sold by Hollow Oak Studio. */
const MUG = 1021;

let shop: TestApp;
let key: IssuedApiKey;
beforeAll(async () => {
  shop = await createTestApp();
  await shop.repositories.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
  key = await createApiKeyService(shop.repositories.apiKeys).create({
    description: 'Counts',
    permissions: 'read_write',
  });
}, 60_000);
afterAll(async () => shop?.close());

async function suggestions(query: string): Promise<Suggestion[]> {
  const response = await shop.app.inject({
    method: 'GET',
    url: `/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`,
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as SuggestionsResponse).suggestions;
}
const named = (list: Suggestion[], type: Suggestion['type']) =>
  list.filter((each) => each.type === type).map((each) => ('value' in each ? each.value : null));
/** The terms suggested (categories, tags, brands). */
const terms = async (query: string) => named(await suggestions(query), 'taxonomy');
const vendors = async (query: string) => named(await suggestions(query), 'vendor');
const productIds = async (query: string) =>
  (await suggestions(query)).filter((each) => each.type === 'product').map((each) => each.post_id);
const vendorOf = async (query: string) =>
  (await suggestions(query)).find((each) => each.type === 'product')?.vendor ?? null;

async function rest(method: 'PUT' | 'DELETE', url: string, body?: unknown) {
  const response = await shop.app.inject({
    method,
    url: `/wp-json/wc/v3${url}`,
    headers: {
      authorization: `Basic ${Buffer.from(`${key.consumerKey}:${key.consumerSecret}`).toString('base64')}`,
    },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** A new term holding the product alone. */
async function termOf(
  productId: number,
  taxonomy: 'product_cat' | 'product_brand',
  name: string,
  slug: string,
) {
  await shop.query('INSERT INTO terms (taxonomy, slug, name) VALUES (?, ?, ?)', [taxonomy, slug, name]);
  const [row] = await shop.query<{ id: number }>('SELECT id FROM terms WHERE taxonomy = ? AND slug = ?', [
    taxonomy,
    slug,
  ]);
  await shop.query('INSERT INTO product_terms (product_id, term_id) VALUES (?, ?)', [
    productId,
    Number(row?.id),
  ]);
}

async function vendorId(slug: string): Promise<number> {
  const [row] = await shop.query<{ id: number }>('SELECT id FROM vendors WHERE slug = ?', [slug]);
  return Number(row?.id);
}

describe('a term’s suggestion follows its products’ own status and visibility', () => {
  it('a category appears when its first product is published by a status change alone, and goes with the last', async () => {
    await shop.query("UPDATE products SET status = 'draft' WHERE id = ?", [MUG]);
    await termOf(MUG, 'product_cat', 'Bilby Mugs', 'bilby-mugs');
    // Its only product is a draft: not suggested.
    await waitUntil(async () => expect(await productIds('café au lait mug')).not.toContain(MUG));
    expect(await terms('bilby')).not.toContain('Bilby Mugs');

    // Another process publishes it: the product's status is all that changes.
    await shop.query("UPDATE products SET status = 'publish' WHERE id = ?", [MUG]);
    await waitUntil(async () => expect(await terms('bilby')).toContain('Bilby Mugs'));

    // Private (a draft the owner still sees): gone again.
    await shop.query("UPDATE products SET status = 'draft', is_private = 1 WHERE id = ?", [MUG]);
    await waitUntil(async () => expect(await productIds('café au lait mug')).not.toContain(MUG));
    expect(await terms('bilby')).not.toContain('Bilby Mugs');
    await shop.query("UPDATE products SET status = 'publish', is_private = 0 WHERE id = ?", [MUG]);
    await waitUntil(async () => expect(await terms('bilby')).toContain('Bilby Mugs'));
  });

  it('through the REST API: a brand follows its product published, private, hidden, trashed and deleted', async () => {
    // The REST API (as the back office) writes a product's categories again with every save, not its brands.
    await rest('PUT', `/products/${LAMP}`, { status: 'draft' });
    await termOf(LAMP, 'product_brand', 'Quokka Lamps', 'quokka-lamps');
    // Its only product is a draft: not suggested.
    await waitUntil(async () => expect(await productIds('rattan pendant')).not.toContain(LAMP));
    expect(await terms('quokka')).not.toContain('Quokka Lamps');

    // Published: only the product's status changes, not its brand.
    await rest('PUT', `/products/${LAMP}`, { status: 'publish' });
    await waitUntil(async () => expect(await terms('quokka')).toContain('Quokka Lamps'));

    // Private: the product leaves the suggestions, and so does its category, which holds no other.
    await rest('PUT', `/products/${LAMP}`, { status: 'private' });
    await waitUntil(async () => expect(await productIds('rattan pendant')).not.toContain(LAMP));
    expect(await terms('quokka')).not.toContain('Quokka Lamps');

    // Hidden from the catalog and the search, then shown again (the REST API and the back office leave visibility
    // to the import; here another process writes it).
    await rest('PUT', `/products/${LAMP}`, { status: 'publish' });
    await waitUntil(async () => expect(await terms('quokka')).toContain('Quokka Lamps'));
    await shop.query("UPDATE products SET visibility = 'hidden' WHERE id = ?", [LAMP]);
    await waitUntil(async () => expect(await productIds('rattan pendant')).not.toContain(LAMP));
    expect(await terms('quokka')).not.toContain('Quokka Lamps');
    await shop.query("UPDATE products SET visibility = 'search' WHERE id = ?", [LAMP]);
    await waitUntil(async () => expect(await terms('quokka')).toContain('Quokka Lamps'));

    // The trash, then a save that takes it out again, then a deletion for good.
    await rest('DELETE', `/products/${LAMP}`);
    await waitUntil(async () => expect(await productIds('rattan pendant')).not.toContain(LAMP));
    expect(await terms('quokka')).not.toContain('Quokka Lamps');
    await rest('PUT', `/products/${LAMP}`, { status: 'publish' });
    await waitUntil(async () => expect(await terms('quokka')).toContain('Quokka Lamps'));
    await rest('DELETE', `/products/${LAMP}?force=true`);
    await waitUntil(async () => expect(await productIds('rattan pendant')).not.toContain(LAMP));
    expect(await terms('quokka')).not.toContain('Quokka Lamps');
  });
});

describe('a vendor’s suggestion follows the products moved to it and away', () => {
  it('appears when a product moves to it, and goes when the product moves back', async () => {
    await shop.query(
      "INSERT INTO vendors (slug, name, city) VALUES ('wombat-works', 'Wombat Works', 'Perth')",
    );
    const wombat = await vendorId('wombat-works');
    const hollowOak = await vendorId('hollow-oak-studio');
    expect(await vendors('wombat')).not.toContain('Wombat Works');

    // Another process moves the mug (only its vendor_id changes).
    await shop.query('UPDATE products SET vendor_id = ? WHERE id = ?', [wombat, MUG]);
    await waitUntil(async () => expect(await vendors('wombat')).toContain('Wombat Works'));
    expect(await vendorOf('café au lait mug')).toBe('Wombat Works');

    await shop.query('UPDATE products SET vendor_id = ? WHERE id = ?', [hollowOak, MUG]);
    await waitUntil(async () => expect(await vendorOf('café au lait mug')).toBe('Hollow Oak Studio'));
    expect(await vendors('wombat')).not.toContain('Wombat Works');
  });

  it('appears when a product of its own is created, and goes when it is deleted for good', async () => {
    await shop.query(
      "INSERT INTO vendors (slug, name, city) VALUES ('koala-kilns', 'Koala Kilns', 'Cairns')",
    );
    const koala = await vendorId('koala-kilns');
    expect(await vendors('koala')).not.toContain('Koala Kilns');
    // Created with its vendor at once (another process; the REST API and the back office set no vendor).
    await shop.query(
      "INSERT INTO products (type, sku, slug, name, vendor_id) VALUES ('simple', 'KOALA-STOOL', 'kapok-stool', 'Kapok Stool', ?)",
      [koala],
    );
    await waitUntil(async () => expect(await vendors('koala')).toContain('Koala Kilns'));
    const [stool] = await shop.query<{ id: number }>("SELECT id FROM products WHERE sku = 'KOALA-STOOL'");
    await rest('DELETE', `/products/${stool?.id}?force=true`);
    await waitUntil(async () => expect(await productIds('kapok stool')).toEqual([]));
    expect(await vendors('koala')).not.toContain('Koala Kilns');
  });
});

describe('an import records the terms and vendors whose counts it changes', () => {
  let mug: ImportProduct;
  const wombatSite = {
    ...EMPTY_SIDECAR,
    vendors: [{ slug: 'numbat-goods', name: 'Numbat Goods', storeUrl: null, city: 'Hobart' }],
  };
  /** A new product of the file, in a category of its own, sold by Numbat Goods (the sidecar says so). */
  const kettle = (change: Partial<ImportProduct>): CatalogImport => ({
    products: [
      {
        ...mug,
        csvId: null,
        sku: 'NUMBAT-KETTLE',
        name: 'Enamel Stovetop Kettle',
        categories: [['Kitchen', 'Quoll Kettles']],
        tags: [],
        brands: [],
        ...change,
      },
    ],
    site: { ...wombatSite, products: { 'NUMBAT-KETTLE': { vendor: 'numbat-goods' } } },
  });
  beforeAll(async () => {
    const demo = await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar);
    const found = demo.products.find((product) => product.sku === 'DEMO-CAFE-MUG');
    if (!found) throw new Error('the demo catalog has no café mug');
    mug = found;
  });

  it('a vendor follows an import adding a product to it, and a product’s status; its category too', async () => {
    // The vendor comes first, with no product: not suggested.
    await shop.repositories.catalog.importCatalog({ products: [], site: wombatSite });
    expect(await vendors('numbat')).not.toContain('Numbat Goods');

    // The import adds a product to the existing vendor.
    expect(await shop.repositories.catalog.importCatalog(kettle({}))).toMatchObject({ created: 1 });
    await waitUntil(async () => expect(await vendors('numbat')).toContain('Numbat Goods'));
    expect(await terms('quoll')).toContain('Quoll Kettles');

    // The same row unpublished: only the product's status changes; its category and vendor hold no other.
    expect(await shop.repositories.catalog.importCatalog(kettle({ published: false }))).toMatchObject({
      updated: 1,
    });
    await waitUntil(async () => expect(await productIds('enamel stovetop kettle')).toEqual([]));
    expect(await terms('quoll')).not.toContain('Quoll Kettles');
    expect(await vendors('numbat')).not.toContain('Numbat Goods');

    // Published again by the next import.
    await shop.repositories.catalog.importCatalog(kettle({}));
    await waitUntil(async () => expect(await terms('quoll')).toContain('Quoll Kettles'));
    await waitUntil(async () => expect(await vendors('numbat')).toContain('Numbat Goods'));
  });

  it('a vendor follows a product the sidecar moves to another vendor', async () => {
    await shop.repositories.catalog.importCatalog(kettle({}));
    await waitUntil(async () => expect(await vendors('numbat')).toContain('Numbat Goods'));
    const moved = kettle({});
    moved.site = { ...moved.site, products: { 'NUMBAT-KETTLE': { vendor: 'tidewater-mill' } } };
    await shop.repositories.catalog.importCatalog(moved);
    await waitUntil(async () => expect(await vendorOf('enamel stovetop kettle')).toBe('Tidewater Mill'));
    expect(await vendors('numbat')).not.toContain('Numbat Goods');
  });
});

describe('a vendor’s count', () => {
  it('is its searchable products, counted by hand, whether its document is read alone or with every other', async () => {
    const byHand = new Map(
      (
        await shop.query<{ id: number; products: number }>(
          `SELECT v.id, (SELECT count(*) FROM products p WHERE p.vendor_id = v.id AND p.type <> 'variation'
             AND p.status = 'publish' AND p.visibility IN ('visible', 'search')) AS products FROM vendors v`,
        )
      ).map((row) => [Number(row.id), Number(row.products)]),
    );
    const counted = (documents: { kind: string; id: number; sales: number }[]) =>
      new Map(documents.filter((each) => each.kind === 'vendor').map((each) => [each.id, each.sales]));
    const heldVendors = new Map([...byHand].filter(([, products]) => products > 0));
    expect(heldVendors.size).toBeGreaterThan(1);
    const full = await shop.repositories.search.loadDocuments();
    expect(counted(full.documents)).toEqual(heldVendors);
    const scoped = await shop.repositories.search.loadDocuments({
      products: [],
      terms: [],
      editedTerms: [],
      vendors: [...byHand.keys()],
      editedVendors: [],
      posts: [],
    });
    expect(counted(scoped.documents)).toEqual(heldVendors);
  });
});

describe('concurrent saves', () => {
  it('of products sharing a brand and a vendor all succeed and leave both suggestions exact', async () => {
    const tidewater = await vendorId('tidewater-mill');
    const sold = (
      await shop.query<{ id: number }>(
        "SELECT id FROM products WHERE vendor_id = ? AND type <> 'variation' ORDER BY id",
        [tidewater],
      )
    ).map((row) => Number(row.id));
    expect(sold.length).toBeGreaterThan(3);
    await shop.query(
      "INSERT INTO terms (taxonomy, slug, name) VALUES ('product_brand', 'platypus-weaves', 'Platypus Weaves')",
    );
    const [brand] = await shop.query<{ id: number }>("SELECT id FROM terms WHERE slug = 'platypus-weaves'");
    for (const id of sold) {
      await shop.query('INSERT INTO product_terms (product_id, term_id) VALUES (?, ?)', [id, brand?.id]);
    }
    await waitUntil(async () => expect(await terms('platypus')).toContain('Platypus Weaves'));

    const saveAll = (status: (index: number) => string) =>
      Promise.all(sold.map((id, index) => rest('PUT', `/products/${id}`, { status: status(index) })));
    // Half private, half published at once: both still suggested.
    await saveAll((index) => (index % 2 === 0 ? 'private' : 'publish'));
    const [first] = await shop.query<{ name: string }>('SELECT name FROM products WHERE id = ?', [sold[0]]);
    await waitUntil(async () => expect(await productIds(String(first?.name))).not.toContain(sold[0]));
    expect(await terms('platypus')).toContain('Platypus Weaves');
    // All private at once: neither holds a searchable product any more.
    await saveAll(() => 'private');
    await waitUntil(async () => {
      expect(await terms('platypus')).not.toContain('Platypus Weaves');
      expect(await vendors('tidewater')).not.toContain('Tidewater Mill');
    });
    // All published again at once.
    await saveAll(() => 'publish');
    await waitUntil(async () => {
      expect(await terms('platypus')).toContain('Platypus Weaves');
      expect(await vendors('tidewater')).toContain('Tidewater Mill');
    });
  });
});

describe('two processes on one database', () => {
  let both: ShopProcesses;
  let bothKey: IssuedApiKey;
  beforeAll(async () => {
    both = await openShopProcesses(2);
    await both.repositories[0]?.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
    bothKey = await createApiKeyService(both.repositories[0]?.apiKeys as never).create({
      description: 'Both processes',
      permissions: 'read_write',
    });
  }, 60_000);
  afterAll(async () => both?.close());

  const app = (process: number) => {
    const found = both.apps[process];
    if (!found) throw new Error(`no process ${process}`);
    return found;
  };
  const save = async (process: number, id: number, status: string) => {
    const response = await app(process).inject({
      method: 'PUT',
      url: `/wp-json/wc/v3/products/${id}`,
      headers: {
        authorization: `Basic ${Buffer.from(`${bothKey.consumerKey}:${bothKey.consumerSecret}`).toString('base64')}`,
      },
      payload: { status },
    });
    expect(response.statusCode, response.body).toBe(200);
  };
  const brandsOn = async (process: number) => {
    const response = await app(process).inject({
      method: 'GET',
      url: '/?wc-ajax=search_suggestions&s=echidna',
    });
    return named((response.json() as SuggestionsResponse).suggestions, 'taxonomy');
  };

  it('each publishing or hiding one product of a brand at once: both processes’ suggestions follow', async () => {
    await both.query(
      "INSERT INTO terms (taxonomy, slug, name) VALUES ('product_brand', 'echidna-crafts', 'Echidna Crafts')",
    );
    const [brand] = await both.query<{ id: number }>("SELECT id FROM terms WHERE slug = 'echidna-crafts'");
    for (const id of [LAMP, MUG]) {
      await both.query("UPDATE products SET status = 'draft' WHERE id = ?", [id]);
      await both.query('INSERT INTO product_terms (product_id, term_id) VALUES (?, ?)', [id, brand?.id]);
    }
    for (const process of [0, 1]) expect(await brandsOn(process)).not.toContain('Echidna Crafts');

    await Promise.all([save(0, LAMP, 'publish'), save(1, MUG, 'publish')]);
    for (const process of [0, 1]) {
      await waitUntil(async () => expect(await brandsOn(process)).toContain('Echidna Crafts'));
    }
    await Promise.all([save(0, MUG, 'private'), save(1, LAMP, 'private')]);
    for (const process of [0, 1]) {
      await waitUntil(async () => expect(await brandsOn(process)).not.toContain('Echidna Crafts'));
    }
  });
});
