import type { Taxonomy } from '../../shared/catalog/types';
import { suggestionObjectId } from '../../shared/search/suggestionObjectId';
import { STORED_IMAGE_BASE, storedImageFile } from '../catalog/images/storedImageSources';
import type { ProductCard } from '../db/ports/search';
import type { SearchDocument } from './SearchIndex';

/*
 * From catalog rows to search documents, shared by the SQLite and PostgreSQL search repositories: each engine
 * reads the rows its own way (JSON lists or arrays), and both turn them into the same documents here.
 */

export interface ProductRow {
  id: number;
  type: string;
  parent_id: number | null;
  sku: string | null;
  name: string;
  featured: number;
  short_description: string;
  description: string;
  stock_status: string;
  total_sales: number;
  vendor_id: number | null;
}

/** A published variation with its own SKU: searchable by that SKU alone. */
interface VariationRow {
  id: number;
  parent_id: number;
  sku: string;
  stock_status: string;
}

export const SEARCH_TAXONOMIES: Taxonomy[] = ['product_cat', 'product_tag', 'product_brand'];
/** The SQL condition (on `products p`) of a product the search may show. */
export const SEARCHABLE = "p.status = 'publish' AND p.visibility IN ('visible', 'search')";

export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, entity: string) =>
      entity === 'amp' ? '&' : entity === 'nbsp' ? ' ' : entity === '#39' ? "'" : ' ',
    );
}

/** Texts grouped by the product (or post) that owns them, in row order. */
export function groupBy(rows: readonly { owner: number; text: string }[]): Map<number, string[]> {
  const map = new Map<number, string[]>();
  for (const row of rows) {
    const list = map.get(row.owner);
    if (list) list.push(row.text);
    else map.set(row.owner, [row.text]);
  }
  return map;
}

export function groupVariations(rows: readonly VariationRow[]): Map<number, VariationRow[]> {
  const variations = new Map<number, VariationRow[]>();
  for (const row of rows) {
    const list = variations.get(row.parent_id) ?? [];
    list.push(row);
    variations.set(row.parent_id, list);
  }
  return variations;
}

/** What a product's documents draw on besides its own row, read in bulk for all products at once. */
interface ProductSideTables {
  termNames: Map<number, string[]>;
  attributeValues: Map<number, string[]>;
  variations: Map<number, VariationRow[]>;
  vendors: Map<number, string>;
}

/** A product's document, then one per variation that has its own SKU. */
export function productDocuments(row: ProductRow, side: ProductSideTables): SearchDocument[] {
  const children = side.variations.get(row.id) ?? [];
  const vendor = row.vendor_id !== null ? side.vendors.get(row.vendor_id) : undefined;
  return [
    {
      key: suggestionObjectId({ type: 'product', postId: row.id }),
      kind: 'product',
      id: row.id,
      parentId: null,
      taxonomy: null,
      postType: null,
      fields: {
        title: [row.name],
        sku: row.sku ? [row.sku] : [],
        taxonomy: [...(side.termNames.get(row.id) ?? []), ...(vendor !== undefined ? [vendor] : [])],
        // A variation's own SKU ranks its variation first; the parent still matches it, lower.
        attributes: [...(side.attributeValues.get(row.id) ?? []), ...children.map((child) => child.sku)],
        content: [plainText(row.short_description), plainText(row.description)],
      },
      featured: row.featured === 1,
      inStock: row.stock_status !== 'outofstock',
      sales: row.total_sales,
    },
    ...children.map(
      (child): SearchDocument => ({
        key: suggestionObjectId({ type: 'product_variation', postId: row.id, variationId: child.id }),
        kind: 'variation',
        id: child.id,
        parentId: row.id,
        taxonomy: null,
        postType: null,
        fields: { sku: [child.sku] },
        featured: row.featured === 1,
        inStock: child.stock_status !== 'outofstock',
        sales: row.total_sales,
      }),
    ),
  ];
}

/** A term that holds `products` searchable products (terms holding none are not suggested). */
export function termDocument(row: {
  id: number;
  taxonomy: Taxonomy;
  name: string;
  products: number;
}): SearchDocument {
  return {
    key: suggestionObjectId({ type: 'taxonomy', termId: row.id, taxonomy: row.taxonomy }),
    kind: 'term',
    id: row.id,
    parentId: null,
    taxonomy: row.taxonomy,
    postType: null,
    fields: { title: [row.name] },
    featured: false,
    inStock: true,
    sales: row.products,
  };
}

export function vendorDocument(row: {
  id: number;
  name: string;
  city: string | null;
  products: number;
}): SearchDocument {
  return {
    key: suggestionObjectId({ type: 'vendor', vendorId: row.id }),
    kind: 'vendor',
    id: row.id,
    parentId: null,
    taxonomy: null,
    postType: null,
    fields: { title: [row.name], taxonomy: row.city ? [row.city] : [] },
    featured: false,
    inStock: true,
    sales: row.products,
  };
}

/** A post or page as the index reads it from the posts table. */
export interface PostDocumentRow {
  id: number;
  type: 'post' | 'page';
  title: string;
  excerpt: string;
  content: string;
  password_hash: string | null;
}

export function postDocument(row: PostDocumentRow): SearchDocument {
  return {
    key: suggestionObjectId({ type: 'post', postId: row.id, postType: row.type }),
    kind: 'post',
    id: row.id,
    parentId: null,
    taxonomy: null,
    postType: row.type,
    // A password-protected page is found by its title only, as WordPress's own search does.
    fields: {
      title: [row.title],
      content: row.password_hash ? [] : [plainText(row.excerpt), plainText(row.content)],
    },
    featured: false,
    inStock: true,
    sales: 0,
  };
}

/** What a (re)build collects: the documents to index and the keys of documents to drop. */
export interface DocumentBatch {
  documents: SearchDocument[];
  removedKeys: string[];
}

/**
 * Terms become documents when they hold a searchable product; a scoped term that holds none (or is gone) loses
 * its suggestions under every taxonomy. A full rebuild passes the counts it gathered from the products it read.
 */
export function addTermDocuments(
  batch: DocumentBatch,
  rows: Parameters<typeof termDocument>[0][],
  scopedIds: readonly number[] | undefined,
  fullRebuildCounts: ReadonlyMap<number, number> | null,
): void {
  const live = new Set<number>();
  for (const row of rows) {
    if (fullRebuildCounts) row.products = fullRebuildCounts.get(row.id) ?? 0;
    if (row.products === 0) continue;
    live.add(row.id);
    batch.documents.push(termDocument(row));
  }
  for (const id of scopedIds ?? []) {
    if (live.has(id)) continue;
    for (const taxonomy of SEARCH_TAXONOMIES)
      batch.removedKeys.push(suggestionObjectId({ type: 'taxonomy', termId: id, taxonomy }));
  }
}

/** Vendors with a searchable product become documents; a scoped vendor without one (or gone) is dropped. */
export function addVendorDocuments(
  batch: DocumentBatch,
  rows: readonly Parameters<typeof vendorDocument>[0][],
  scopedIds: readonly number[] | undefined,
): void {
  const live = new Set<number>();
  for (const row of rows) {
    if (row.products === 0) continue;
    live.add(row.id);
    batch.documents.push(vendorDocument(row));
  }
  for (const id of scopedIds ?? []) {
    if (!live.has(id)) batch.removedKeys.push(suggestionObjectId({ type: 'vendor', vendorId: id }));
  }
}

/** Every post and page becomes a document; a scoped one that is gone is dropped under either type. */
export function addPostDocuments(
  batch: DocumentBatch,
  rows: readonly PostDocumentRow[],
  scopedIds: readonly number[] | undefined,
): void {
  const live = new Set<number>();
  for (const row of rows) {
    live.add(row.id);
    batch.documents.push(postDocument(row));
  }
  for (const id of scopedIds ?? []) {
    if (live.has(id)) continue;
    for (const postType of ['post', 'page'])
      batch.removedKeys.push(suggestionObjectId({ type: 'post', postId: id, postType }));
  }
}

/** A product as the search panels describe it, read by describeProducts on either engine. */
export interface ProductCardRow {
  id: number;
  type: string;
  slug: string;
  name: string;
  sku: string | null;
  short_description: string;
  featured: number;
  stock_status: string;
  vendor_id: number | null;
  price_min: number | null;
  price_max: number | null;
  regular_price: number | null;
  sale_price: number | null;
  rating_average: number;
  rating_count: number;
  image_id: number | null;
  /** The first image's stored files, when the import stored them. */
  image_key?: string | null;
}

/**
 * A product's card for the search panels. As the catalog's product summaries: a simple product's regular price is
 * shown struck through on sale; a variable product is on sale when one of its variations is.
 */
export function toProductCard(row: ProductCardRow, variationOnSale: boolean): ProductCard {
  const simpleOnSale =
    (row.type === 'simple' || row.type === 'external') &&
    row.sale_price !== null &&
    row.regular_price !== null &&
    row.sale_price < row.regular_price;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    sku: row.sku,
    shortDescription: plainText(row.short_description).replace(/\s+/g, ' ').trim(),
    price: {
      min: row.price_min,
      max: row.price_max,
      regular: simpleOnSale ? row.regular_price : null,
      onSale: simpleOnSale || variationOnSale,
    },
    featured: row.featured === 1,
    inStock: row.stock_status !== 'outofstock',
    imageSrc: row.image_key
      ? `${STORED_IMAGE_BASE}${storedImageFile(row.image_key, 300)}`
      : row.image_id === null
        ? null
        : `/images/${row.image_id}.svg`,
    vendorId: row.vendor_id,
    rating: { average: Number(row.rating_average), count: Number(row.rating_count) },
  };
}
