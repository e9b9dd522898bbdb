import type { ImportCatalogReader, ImportProductRow, StoredProduct } from './importPlan';

/*
 * The columns an import plan reads, held in memory: what PostgreSQL loads (under the import's lock) to plan with,
 * since planning is synchronous, and what the planner's unit tests start from.
 */

export interface CatalogSnapshot {
  products: { id: number; sku: string | null; slug: string | null; type: string }[];
  terms: { id: number; taxonomy: string; slug: string; name: string; parentId: number | null }[];
  posts: { slug: string; passwordHash: string | null }[];
  /**
   * What each stored product holds, for the plan to compare the file with (a product the file leaves as it is gets
   * no write). Without it every product the file names is written again, as if it had changed.
   */
  stored?: StoredCatalogRows;
}

/** The stored rows an import compares with, as importSnapshotSql.ts reads them (the same SQL on both engines). */
export interface StoredCatalogRows {
  products: (ImportProductRow & { id: number; vendorId?: number | null })[];
  productTerms: { productId: number; termId: number }[];
  images: {
    productId: number;
    position: number;
    sourceUrl: string;
    alt: string;
    color: string;
    storedKey: string | null;
  }[];
  downloads: { productId: number; position: number; name: string; url: string }[];
  attributes: { productId: number; attribute: string; position: number; visible: number }[];
  attributeTerms: { productId: number; attribute: string; term: string; position: number }[];
  variationAttributes: { variationId: number; attribute: string; term: string | null }[];
  groupedChildren: { parentId: number; childId: number; position: number }[];
  links: { productId: number; kind: 'upsell' | 'cross_sell'; linkedId: number; position: number }[];
}

/** Gathers each product's rows (lists in their stored order) under its id. */
export function indexStoredProducts(rows: StoredCatalogRows): Map<number, StoredProduct> {
  const byId = new Map<number, StoredProduct>();
  for (const { id, vendorId, ...row } of rows.products) {
    byId.set(id, {
      row,
      vendorId,
      termIds: [],
      images: [],
      downloads: [],
      attributes: [],
      variationAttributes: [],
      groupedChildren: [],
      upsells: [],
      crossSells: [],
    });
  }
  const at = (id: number) => byId.get(id);
  for (const link of rows.productTerms) at(link.productId)?.termIds.push(link.termId);
  for (const { productId, ...image } of sortByPosition(rows.images)) at(productId)?.images.push(image);
  for (const { productId, ...download } of sortByPosition(rows.downloads)) {
    at(productId)?.downloads.push(download);
  }
  for (const { productId, attribute, position, visible } of sortByPosition(rows.attributes)) {
    at(productId)?.attributes.push({ slug: attribute, position, visible, terms: [] });
  }
  for (const { productId, attribute, term, position } of sortByPosition(rows.attributeTerms)) {
    at(productId)
      ?.attributes.find((stored) => stored.slug === attribute)
      ?.terms.push({ slug: term, position });
  }
  for (const { variationId, attribute, term } of rows.variationAttributes) {
    at(variationId)?.variationAttributes.push({ attribute, term });
  }
  for (const { parentId, childId } of sortByPosition(rows.groupedChildren)) {
    at(parentId)?.groupedChildren.push(childId);
  }
  for (const { productId, kind, linkedId } of sortByPosition(rows.links)) {
    const stored = at(productId);
    if (stored) (kind === 'upsell' ? stored.upsells : stored.crossSells).push(linkedId);
  }
  return byId;
}

function sortByPosition<T extends { position: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => a.position - b.position);
}

/** SQLite's lower(), the rule term names have always been matched by: ASCII letters only. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

export class SnapshotImportReader implements ImportCatalogReader {
  #bySku = new Map<string, CatalogSnapshot['products'][number]>();
  #byId = new Map<number, CatalogSnapshot['products'][number]>();
  #slugs = new Set<string>();
  #maxProductId = 0;
  #terms: CatalogSnapshot['terms'];
  #termSlugs = new Set<string>();
  #maxTermId = 0;
  #posts = new Map<string, string | null>();
  #stored: Map<number, StoredProduct> | null;
  #groupedParents = new Map<number, number[]>();

  constructor({ products, terms, posts, stored }: CatalogSnapshot) {
    this.#stored = stored ? indexStoredProducts(stored) : null;
    for (const { parentId, childId } of stored?.groupedChildren ?? []) {
      this.#groupedParents.set(childId, [...(this.#groupedParents.get(childId) ?? []), parentId]);
    }
    for (const product of products) {
      if (product.sku !== null) this.#bySku.set(product.sku, product);
      if (product.slug !== null) this.#slugs.add(product.slug);
      this.#byId.set(product.id, product);
      this.#maxProductId = Math.max(this.#maxProductId, product.id);
    }
    this.#terms = [...terms].sort((a, b) => a.id - b.id);
    for (const term of terms) {
      this.#termSlugs.add(`${term.taxonomy}\u0000${term.slug}`);
      this.#maxTermId = Math.max(this.#maxTermId, term.id);
    }
    for (const post of posts) this.#posts.set(post.slug, post.passwordHash);
  }

  productBySku(sku: string) {
    const product = this.#bySku.get(sku);
    return product && { id: product.id, type: product.type };
  }

  productById(id: number) {
    const product = this.#byId.get(id);
    return product && { id: product.id, type: product.type, sku: product.sku };
  }

  productSlugTaken(slug: string): boolean {
    return this.#slugs.has(slug);
  }

  maxProductId(): number {
    return this.#maxProductId;
  }

  termByName(taxonomy: string, name: string, parentId: number | null) {
    const folded = asciiLower(name);
    return this.#terms.find(
      (term) => term.taxonomy === taxonomy && term.parentId === parentId && asciiLower(term.name) === folded,
    )?.id;
  }

  rootTermBySlug(taxonomy: string, slug: string) {
    return this.#terms.find(
      (term) => term.taxonomy === taxonomy && term.parentId === null && term.slug === slug,
    )?.id;
  }

  termSlugTaken(taxonomy: string, slug: string): boolean {
    return this.#termSlugs.has(`${taxonomy}\u0000${slug}`);
  }

  maxTermId(): number {
    return this.#maxTermId;
  }

  postPasswordHash(slug: string) {
    return this.#posts.get(slug);
  }

  storedProduct(id: number): StoredProduct | undefined {
    return this.#stored?.get(id);
  }

  groupedParentsOf(childId: number): readonly number[] {
    return this.#groupedParents.get(childId) ?? [];
  }

  productIds(): number[] {
    return [...this.#byId.keys()];
  }
}
