import { describe, expect, it } from 'vitest';
import { isShopError, type ShopError } from '../../../shared/errors/ShopError';
import { hashPostPassword } from '../../content/postPassword';
import type { CatalogImport, ImportProduct } from './catalogImport';
import { type CatalogSnapshot, SnapshotImportReader } from './catalogSnapshot';
import type { ImportOperation, ImportPlan } from './importPlan';
import { planCatalogImport } from './planCatalogImport';
import { EMPTY_SIDECAR, type SiteSidecar } from './siteSidecarSchema';

/*
 * The import planner alone, on catalogs held in memory: which rows an import inserts or updates, with which ids,
 * slugs and terms, and which rows it refuses. The SQLite and PostgreSQL tests check that the plan is written.
 */

const EMPTY: CatalogSnapshot = { products: [], terms: [], posts: [] };

let line = 1;
function row(extra: Partial<ImportProduct>): ImportProduct {
  return {
    line: ++line,
    csvId: null,
    type: 'simple',
    virtual: false,
    downloadable: false,
    sku: null,
    name: 'Product',
    published: true,
    featured: false,
    visibility: 'visible',
    shortDescription: '',
    description: '',
    regularPrice: 1000,
    salePrice: null,
    stockStatus: 'instock',
    stockQuantity: null,
    soldIndividually: false,
    categories: [],
    tags: [],
    brands: [],
    images: [],
    parent: null,
    groupedChildren: [],
    externalUrl: null,
    buttonText: null,
    position: 0,
    attributes: [],
    downloads: [],
    ...extra,
  };
}

function plan(products: ImportProduct[], snapshot = EMPTY, site: Partial<SiteSidecar> = {}): ImportPlan {
  const catalog: CatalogImport = { products, site: { ...EMPTY_SIDECAR, ...site } };
  return planCatalogImport(catalog, new SnapshotImportReader(snapshot));
}

type Of<K extends ImportOperation['kind']> = Extract<ImportOperation, { kind: K }>;
function operations<K extends ImportOperation['kind']>(result: ImportPlan, kind: K): Of<K>[] {
  return result.operations.filter((operation): operation is Of<K> => operation.kind === kind);
}

function planError(run: () => unknown): ShopError {
  try {
    run();
  } catch (error) {
    if (isShopError(error)) return error;
    throw error;
  }
  throw new Error('the plan succeeded');
}

describe('planCatalogImport', () => {
  it('inserts new products with their CSV ids, parents before variations, slugs made unique', () => {
    const result = plan([
      row({ csvId: 12, type: 'variation', sku: 'TEE-S', name: 'Tee - S', parent: { sku: 'TEE' } }),
      row({ csvId: 10, type: 'variable', sku: 'TEE', name: 'Tee' }),
      row({ csvId: 11, sku: 'TEE-2', name: 'Tee' }),
    ]);
    expect(operations(result, 'insertProduct').map(({ id, slug, row }) => [id, slug, row.parentId])).toEqual([
      [10, 'tee', null],
      [11, 'tee-2', null],
      [12, null, 10],
    ]);
    expect(result.summary).toMatchObject({ created: 3, updated: 0, variations: 1 });
    expect(operations(result, 'refreshProduct').map((operation) => operation.productId)).toEqual([10, 11]);
  });

  it('updates a stored product found by SKU, else by an ID that has no other SKU', () => {
    const snapshot: CatalogSnapshot = {
      ...EMPTY,
      products: [
        { id: 5, sku: 'A', slug: 'a', type: 'simple' },
        { id: 6, sku: null, slug: 'b', type: 'simple' },
        { id: 7, sku: 'C', slug: 'c', type: 'simple' },
      ],
    };
    const result = plan(
      [
        row({ csvId: 99, sku: 'A', name: 'A' }),
        row({ csvId: 6, sku: 'B', name: 'B' }),
        row({ csvId: 7, sku: 'OTHER', name: 'Other' }),
      ],
      snapshot,
    );
    expect(operations(result, 'updateProduct').map((operation) => operation.id)).toEqual([5, 6]);
    // ID 7 belongs to another SKU: a new product, with the next free id rather than 7.
    expect(operations(result, 'insertProduct').map(({ id, slug }) => [id, slug])).toEqual([[8, 'other']]);
    expect(result.summary).toMatchObject({ created: 1, updated: 2 });
  });

  it('gives rows without an ID the next free ids, and never an id a later row claims', () => {
    const result = plan([
      row({ sku: 'X', name: 'X' }),
      row({ csvId: 1, sku: 'Y', name: 'Y' }),
      row({ sku: 'Z', name: 'Z' }),
    ]);
    expect(operations(result, 'insertProduct').map(({ id, row }) => [row.sku, id])).toEqual([
      ['X', 1],
      ['Y', 2],
      ['Z', 3],
    ]);
  });

  it('finds a product by the SKU an earlier row gave it', () => {
    const snapshot: CatalogSnapshot = {
      ...EMPTY,
      products: [{ id: 5, sku: null, slug: 'tee', type: 'simple' }],
    };
    const result = plan(
      [
        row({ csvId: 5, type: 'variable', sku: 'TEE', name: 'Tee' }),
        row({ type: 'variation', sku: 'TEE-S', name: 'Tee - S', parent: { sku: 'TEE' } }),
      ],
      snapshot,
    );
    expect(operations(result, 'updateProduct').map((operation) => operation.id)).toEqual([5]);
    expect(operations(result, 'insertProduct').map(({ id, row }) => [id, row.parentId])).toEqual([[6, 5]]);
  });

  it('refuses variations without a variable parent and missing grouped children, listing every row', () => {
    const error = planError(() =>
      plan([
        row({ csvId: 1, sku: 'SIMPLE', name: 'Simple' }),
        row({ type: 'variation', sku: 'V1', parent: { sku: 'SIMPLE' } }),
        row({ type: 'variation', sku: 'V2', parent: { csvId: 404 } }),
        row({
          type: 'grouped',
          sku: 'G',
          name: 'Group',
          groupedChildren: [{ sku: 'SIMPLE' }, { sku: 'NONE' }],
        }),
      ]),
    );
    expect(error.code).toBe('import_failed');
    expect((error.details as { errors: { column: string; message: string }[] }).errors).toEqual([
      expect.objectContaining({ column: 'Parent', message: expect.stringContaining('"SIMPLE"') }),
      expect.objectContaining({ column: 'Parent', message: expect.stringContaining('"id:404"') }),
      expect.objectContaining({ column: 'Grouped products', message: expect.stringContaining('"NONE"') }),
    ]);
  });

  it('links upsells and cross-sells to the rows they name (a later row too), never the product itself, refusing one that names nothing', () => {
    const result = plan([
      row({
        csvId: 1,
        sku: 'A',
        upsells: [{ sku: 'B' }, { sku: 'A' }, { sku: 'B' }],
        crossSells: [{ csvId: 2 }],
      }),
      row({ csvId: 2, sku: 'B' }),
      row({ csvId: 3, sku: 'C' }),
    ]);
    const links = result.operations.filter((operation) => operation.kind === 'productLinks');
    expect(links).toEqual([
      { kind: 'productLinks', productId: 1, linkKind: 'upsell', linkedIds: [2] },
      { kind: 'productLinks', productId: 1, linkKind: 'cross_sell', linkedIds: [2] },
    ]);
    const error = planError(() => plan([row({ sku: 'A', crossSells: [{ sku: 'NONE' }] })]));
    expect((error.details as { errors: { column: string; message: string }[] }).errors).toEqual([
      expect.objectContaining({ column: 'Cross-sells', message: 'No product "NONE" to link' }),
    ]);
  });

  it('links categories by path, reusing stored terms by name whatever the ASCII case, creating the rest', () => {
    const snapshot: CatalogSnapshot = {
      ...EMPTY,
      terms: [{ id: 3, taxonomy: 'product_cat', slug: 'clothing', name: 'Clothing', parentId: null }],
    };
    const result = plan(
      [
        row({ sku: 'A', categories: [['CLOTHING', 'Shirts']], tags: ['Linen'] }),
        row({ sku: 'B', categories: [['Clothing', 'shirts']] }),
      ],
      snapshot,
    );
    const inserted = result.operations.flatMap((operation) =>
      operation.kind === 'productRelations'
        ? (operation.termLinks ?? []).flatMap((link) => link.newTerms)
        : [],
    );
    expect(inserted).toEqual([
      expect.objectContaining({ kind: 'insertTerm', id: 4, slug: 'shirts', name: 'Shirts', parentId: 3 }),
      expect.objectContaining({ kind: 'insertTerm', id: 5, taxonomy: 'product_tag', slug: 'linen' }),
    ]);
    expect(
      operations(result, 'productRelations').map((operation) =>
        (operation.termLinks ?? []).map((link) => link.termId),
      ),
    ).toEqual([[4, 5], [4]]);
    expect(result.summary.categories).toBe(2);
  });

  it('keeps a post password hash the password still matches, and hashes a new one', () => {
    const stored = hashPostPassword('secret');
    const post = {
      type: 'page' as const,
      excerpt: '',
      content: '<p>Hi</p>',
      publishedAt: '2024-01-01T00:00:00Z',
    };
    const result = plan(
      [],
      { ...EMPTY, posts: [{ slug: 'same', passwordHash: stored }] },
      {
        posts: [
          { ...post, slug: 'same', title: 'Same', password: 'secret' },
          { ...post, slug: 'open', title: 'Open' },
          { ...post, slug: 'new', title: 'New', password: 'other' },
        ],
      },
    );
    const [same, open, fresh] = operations(result, 'upsertPost');
    expect(same?.passwordHash).toBe(stored);
    expect(open?.passwordHash).toBeNull();
    expect(fresh?.passwordHash).toMatch(/\$/);
    expect(result.summary.posts).toBe(3);
  });
});

describe('planCatalogImport: the terms and vendors whose counts change', () => {
  // A stored lamp in the Lamps category, sold by vendor 7: the row and links a first import of it wrote.
  const lamp = (extra: Partial<ImportProduct> = {}) =>
    row({ csvId: 5, sku: 'LAMP', name: 'Lamp', categories: [['Lamps']], tags: ['Brass'], ...extra });
  const first = plan([lamp()]);
  const [inserted] = operations(first, 'insertProduct');
  if (!inserted) throw new Error('the lamp was not planned');
  const snapshot: CatalogSnapshot = {
    products: [{ id: 5, sku: 'LAMP', slug: 'lamp', type: 'simple' }],
    terms: [
      { id: 1, taxonomy: 'product_cat', slug: 'lamps', name: 'Lamps', parentId: null },
      { id: 2, taxonomy: 'product_tag', slug: 'brass', name: 'Brass', parentId: null },
    ],
    posts: [],
    stored: {
      products: [{ ...inserted.row, id: 5, vendorId: 7 }],
      productTerms: [
        { productId: 5, termId: 1 },
        { productId: 5, termId: 2 },
      ],
      images: [],
      downloads: [],
      attributes: [],
      attributeTerms: [],
      variationAttributes: [],
      groupedChildren: [],
      links: [],
    },
  };
  const counted = (result: ImportPlan) => ({
    terms: [...result.changedTerms].sort(),
    vendors: result.changedVendors,
  });

  it('a text the product stores already is kept without parsing it again; a changed one is sanitized', () => {
    // Stored texts are sanitizer output (every writer sanitizes); this one is not, to tell the two paths apart.
    const unsafe = '<p onclick="steal()">Brass lamp</p>';
    const storing = (text: string): CatalogSnapshot => ({
      ...snapshot,
      stored: {
        ...(snapshot.stored as NonNullable<CatalogSnapshot['stored']>),
        products: [{ ...inserted.row, id: 5, vendorId: 7, description: text }],
      },
    });
    expect(operations(plan([lamp({ description: unsafe })], storing(unsafe)), 'updateProduct')).toEqual([]);
    const changed = operations(
      plan([lamp({ description: '<p onclick="steal()">Brass lamp, 40 cm</p>' })], storing(unsafe)),
      'updateProduct',
    );
    expect(changed.map((update) => update.row.description)).toEqual(['<p>Brass lamp, 40 cm</p>']);
    // A new product's text is always sanitized.
    const [fresh] = operations(plan([row({ sku: 'NEW', description: unsafe })], snapshot), 'insertProduct');
    expect(fresh?.row.description).toBe('<p>Brass lamp</p>');
  });

  it('none for the same row, or a change that leaves it searchable (a price)', () => {
    expect(counted(plan([lamp()], snapshot))).toEqual({ terms: [], vendors: [] });
    expect(counted(plan([lamp({ regularPrice: 2000 })], snapshot))).toEqual({ terms: [], vendors: [] });
  });

  it('every term and the vendor of a product unpublished, made private or hidden', () => {
    for (const change of [
      { published: false },
      { private: true, published: false },
      { visibility: 'hidden' as const },
    ]) {
      expect(counted(plan([lamp(change)], snapshot))).toEqual({ terms: [1, 2], vendors: [7] });
    }
    // Catalog-only (listed, never searched) stops counting; search-only still counts.
    expect(counted(plan([lamp({ visibility: 'catalog' })], snapshot))).toEqual({
      terms: [1, 2],
      vendors: [7],
    });
    expect(counted(plan([lamp({ visibility: 'search' })], snapshot))).toEqual({ terms: [], vendors: [] });
  });

  it('the terms it joins or leaves alone when it stays searchable, and the vendor of a searchable product removed', () => {
    expect(counted(plan([lamp({ tags: [] })], snapshot))).toEqual({ terms: [2], vendors: [] });
    const removing: CatalogImport = { products: [], site: EMPTY_SIDECAR, removeMissing: true };
    expect(counted(planCatalogImport(removing, new SnapshotImportReader(snapshot)))).toEqual({
      terms: [1, 2],
      vendors: [7],
    });
  });
});
