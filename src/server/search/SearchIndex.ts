import type { Taxonomy } from '../../shared/catalog/types';
import type { SearchVocabulary } from './didYouMean';

/*
 * The search engine behind one interface, so the embedded in-memory index (MemorySearchIndex) can be swapped
 * for a shared engine when a shop runs several processes (README "Search engine"). Documents are built from
 * committed catalog rows; only searchable ones are ever added (hidden and catalog-only products never are).
 */

/** Where a word was found; each field has an owner-tunable weight (RelevanceRules.boosts). */
export const SEARCH_FIELDS = ['title', 'sku', 'taxonomy', 'attributes', 'content'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export type SearchDocumentKind = 'product' | 'variation' | 'term' | 'vendor' | 'post';

export interface SearchDocument {
  /** Unique across kinds: the suggestion object id (`product__12`, `taxonomy__5__product_cat`, …). */
  key: string;
  kind: SearchDocumentKind;
  /** Product, variation, term, vendor or post id. */
  id: number;
  /** A variation's parent product. */
  parentId: number | null;
  taxonomy: Taxonomy | null;
  postType: 'post' | 'page' | null;
  fields: Partial<Record<SearchField, string[]>>;
  featured: boolean;
  inStock: boolean;
  /** Popularity: units sold (products), products in the term or vendor (taxonomies, vendors). */
  sales: number;
}

export type OutOfStockHandling = 'normal' | 'last' | 'hide';

/** The owner's relevance rules (stored in the database, seeded from `search.relevance` in the settings). */
export interface RelevanceRules {
  /** Groups of words that mean the same: each word of a group also finds the others. */
  synonyms: string[][];
  stopWords: string[];
  boosts: Record<SearchField, number>;
  outOfStock: OutOfStockHandling;
  /** Product ids shown first, in this order, for exactly this (folded) query. */
  pins: Record<string, number[]>;
}

/** The suggestion groups, each with its own limit: products (with variations), each taxonomy, vendors, posts, pages. */
export const SEARCH_GROUPS = [
  'products',
  'product_cat',
  'product_tag',
  'product_brand',
  'vendors',
  'post',
  'page',
] as const;
export type SearchGroup = (typeof SEARCH_GROUPS)[number];

export interface SearchRequest {
  text: string;
  /** How many hits of each group to return (0 or absent: none). */
  limits: Partial<Record<SearchGroup, number>>;
  /** Whether variations may appear among the products (a variation matches only by its own SKU). */
  variations?: boolean;
  /** False: the words as typed only, no typo matching (the "search instead for" link of did you mean). */
  typos?: boolean;
}

/** A matching document, named as the document names itself, with its score for the query. */
export interface SearchHit
  extends Pick<SearchDocument, 'key' | 'kind' | 'id' | 'parentId' | 'taxonomy' | 'postType'> {
  score: number;
}

export interface SearchResult {
  hits: Partial<Record<SearchGroup, SearchHit[]>>;
  /** How many products (with variations counted by their parent) match in all, or at least (totalIsLowerBound). */
  totalProducts: number;
  /**
   * Set when counting every match would have cost more than finding the top ones: `totalProducts` is then a lower
   * bound (the products found before the walk stopped), shown as "N+".
   */
  totalIsLowerBound?: boolean;
}

/**
 * Asynchronous so that a shared engine (PostgresSearchIndex, or a dedicated search server later) fits the same
 * interface; the embedded MemorySearchIndex answers synchronously inside the promise.
 */
export interface SearchIndex extends SearchVocabulary {
  /** Replaces the whole index (a rebuild). */
  replaceAll(documents: Iterable<SearchDocument>): Promise<void>;
  /** Adds or replaces documents by key and removes the listed keys: after a catalog write. */
  update(upserts: readonly SearchDocument[], removedKeys: readonly string[]): Promise<void>;
  setRules(rules: RelevanceRules): Promise<void>;
  search(request: SearchRequest): Promise<SearchResult>;
  /** All matching product ids (variations folded into their parent) in relevance order: results pages. */
  searchProductIds(text: string, options?: { typos?: boolean }): Promise<number[]>;
  /** How many documents the index holds. */
  count(): Promise<number>;
  /**
   * Every document key: lets a copy kept in the background (the PostgreSQL fallback) be brought to a catalog's
   * content by updates in slices, dropping the keys the catalog no longer has, instead of one long replaceAll.
   */
  keys?(): Promise<string[]>;
  /**
   * For a copy several processes keep current in the background (the PostgreSQL fallback): runs `work`, which
   * brings the copy to the change log's position `to` (from `from`, or a whole fill when `from` is null), unless
   * the copy already holds `to` because another process did the same work; one process at a time. `work`
   * resolves false when it stopped short (its process is closing): the copy is then not known to hold `to`.
   */
  keepUp?(position: { from: number | null; to: number }, work: () => Promise<unknown>): Promise<void>;
}

export const DEFAULT_BOOSTS: Record<SearchField, number> = {
  title: 10,
  sku: 8,
  taxonomy: 5,
  attributes: 4,
  content: 1,
};

export const DEFAULT_RULES: RelevanceRules = {
  synonyms: [],
  stopWords: [],
  boosts: DEFAULT_BOOSTS,
  outOfStock: 'normal',
  pins: {},
};
