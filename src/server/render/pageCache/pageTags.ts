import type { PageChanges } from '../../db/ports';

/*
 * What a cached page depends on, as tags (a CDN's surrogate keys), and which tags a batch of catalog changes drops
 * (docs/scale-out.md "Exact invalidation"). A page declares its tags while it is rendered; a page that declares
 * none depends on ANY_CHANGE, so a page nobody thought about is dropped by every change rather than kept stale.
 */

/** Dropped by every change that reaches the cache. */
export const ANY_CHANGE = '*';

export const pageTag = {
  /** The product's own page: every change of the product (its stock count, its reviews). */
  product: (id: number) => `product:${id}`,
  /** A page showing the product's card (archives, the product lists under another product). */
  listed: (id: number) => `listed:${id}`,
  /** The term's archive: its members, their order and their filters' counts. */
  term: (id: number) => `term:${id}`,
  /**
   * A page whose selection spans the whole catalog (home's featured products, the shop, search results, a vendor's
   * archive): any product's listing-visible change, any product joining or leaving a term.
   */
  catalog: 'catalog',
  /** A listing ordered by popularity: every sale moves it, so every product change drops it. */
  sales: 'sales',
  /** Search results: the search rules (synonyms, boosts, pins) as well. */
  search: 'search',
  /** The journal, posts and content pages, and the home page's latest posts. */
  posts: 'posts',
  /**
   * A page showing answers of an in-memory index that had taken in the change log only up to `position`, behind the
   * cache (render/pagesPlugin.ts `rendersFromIndex`): dropped once the index has caught up.
   */
  indexedAt: (position: number) => `indexed-at:${position}`,
} as const;

/** What a batch of changes drops: everything, or the pages carrying one of `tags`. */
export interface Invalidation {
  all: boolean;
  tags: Set<string>;
}

/**
 * The tags a batch of changes drops. A term's own change (its name, slug, parent) and a vendor's own change show on
 * every page (the menu, breadcrumbs, filters, cards), so they drop everything; they are the owner's rare edits. (A
 * vendor that only gained or lost products is not in `changes.vendors`: pageChangeSql.ts reads its narrow row out.)
 */
export function invalidationOf(changes: PageChanges, rulesChanged: boolean): Invalidation {
  const tags = new Set<string>();
  const all = changes.full || changes.vendors.length > 0 || changes.terms.some((change) => change.wide);
  for (const { id, wide } of changes.products) {
    tags.add(pageTag.product(id));
    tags.add(pageTag.sales);
    if (wide) {
      tags.add(pageTag.listed(id));
      tags.add(pageTag.catalog);
    }
  }
  if (changes.terms.length > 0) tags.add(pageTag.catalog);
  for (const id of changes.archiveTerms) tags.add(pageTag.term(id));
  if (changes.posts.length > 0) tags.add(pageTag.posts);
  if (rulesChanged) tags.add(pageTag.search);
  if (tags.size > 0) tags.add(ANY_CHANGE);
  return { all, tags };
}
