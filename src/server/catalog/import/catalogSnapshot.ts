import type { ImportCatalogReader } from './importPlan';

/*
 * The columns an import plan reads, held in memory: what PostgreSQL loads (under the import's lock) to plan with,
 * since planning is synchronous, and what the planner's unit tests start from.
 */

export interface CatalogSnapshot {
  products: { id: number; sku: string | null; slug: string | null; type: string }[];
  terms: { id: number; taxonomy: string; slug: string; name: string; parentId: number | null }[];
  posts: { slug: string; passwordHash: string | null }[];
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

  constructor({ products, terms, posts }: CatalogSnapshot) {
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
}
