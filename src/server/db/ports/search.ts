import type { PriceRange } from '../../../shared/catalog/types';
import type { RelevanceRules, SearchDocument } from '../../search/SearchIndex';

/** What changed in the catalog after a change-log position (see migration 0003). */
export interface SearchChanges {
  /** The newest position read; the next call asks for changes after it. */
  seq: number;
  /** Too many changes to apply one by one: rebuild. */
  full: boolean;
  /** A read in parts: the log holds changes after `seq`, read by the next part. */
  more?: boolean;
  products: number[];
  terms: number[];
  /**
   * Of `terms`, those whose own row changed since the position (a new, renamed, moved or deleted term: what the
   * documents of its products show), so each of their products is read again. The other terms only gained or lost
   * products, which are in `products` themselves: only the term's own document (its count) is read again. The
   * search service narrows it further to the terms whose name changed (SearchService `#namesCompared`). Left out,
   * every term in `terms` counts as edited.
   */
  editedTerms?: number[];
  vendors: number[];
  /**
   * Of `vendors`, those whose products are read again (their documents name the vendor): the vendors whose own row
   * changed. The others only gained or lost searchable products (a product published, hidden or moved between
   * vendors, which is in `products` itself): only the vendor's document (its count) is read again. The change log
   * does not tell a renamed vendor from one whose city or description changed: the search service narrows it,
   * comparing the vendor's document with the one its index holds. Left out, every vendor in `vendors` counts as
   * edited.
   */
  editedVendors?: number[];
  posts: number[];
}

/** No change after `seq`: what a read of the log starts from. */
export function noChanges(seq: number): SearchChanges {
  return {
    seq,
    full: false,
    products: [],
    terms: [],
    editedTerms: [],
    vendors: [],
    editedVendors: [],
    posts: [],
  };
}

export type SearchScope = Omit<SearchChanges, 'seq' | 'full'>;

export interface SearchQueryRecord {
  query: string;
  results: number;
  source: 'suggestions' | 'results';
  sessionHash: string;
  now: number;
  /**
   * A suggestions query from the same session within this many ms that extends or shortens the previous one
   * replaces it: one row per typing burst, holding its last query.
   */
  burstMs: number;
}

export interface QueryStat {
  query: string;
  count: number;
  /** Products found the last time it was searched. */
  results: number;
  lastSeen: number;
}

/** What a product suggestion shows, read in one query for all of a response's products. */
export interface ProductCard {
  id: number;
  slug: string;
  name: string;
  sku: string | null;
  shortDescription: string;
  price: PriceRange;
  featured: boolean;
  inStock: boolean;
  imageSrc: string | null;
  vendorId: number | null;
  /** The product's stored rating (docs/reviews.md): shown beside the suggestion when it has any. */
  rating: { average: number; count: number };
}

/** Storage of the search feature: documents from committed catalog rows, the owner's rules, analytics. */
/**
 * The documents of an import in flight, handed to the server processes before it commits (docs/search-engine.md
 * "Imports handed over"): each builds the index it will answer from while the import waits,
 * and at the commit only catches up with what else changed.
 */
export interface ImportHandoff {
  id: number;
  /** The importing transaction (PostgreSQL's id; on SQLite, the importing process). */
  xid: string;
  /**
   * The change log's newest position the import saw: a change of `changes` at or below it is the import's, and its
   * document is in the handoff; above it, it came later.
   */
  upTo: number;
  /** What the import changed (the change log's rows it wrote). */
  changes: SearchChanges;
}

/** A handoff's part was asked for after its import ended without storing it (the import waits a bounded time). */
export class HandoffEnded extends Error {}

export interface ImportHandoffs {
  /**
   * Calls `onHandedOver` when an import may have handed documents over, until the returned stop is called, and
   * counts this process among those an import waits for meanwhile (SQLite, which has no notifications: it looks in
   * the side file). Left out, the change notifications tell (PostgreSQL).
   */
  watch?(onHandedOver: () => void): () => void;
  /** Handoffs of imports still in flight that this process has not answered. */
  pending(): Promise<ImportHandoff[]>;
  /**
   * The documents of part `part` (from 0) and the keys it found gone, once the import stored it (waits while it
   * has not and the import is in flight); null past the last part. Fails with HandoffEnded when the import ended
   * without storing it.
   */
  part(
    handoff: ImportHandoff,
    part: number,
  ): Promise<{ documents: SearchDocument[]; removedKeys: string[] } | null>;
  /**
   * Tells the import this process has built, from the handoff's documents, the index it will swap in once the
   * import commits (`prepared`), or that it will not build from it.
   */
  answer(handoff: ImportHandoff, prepared: boolean): Promise<void>;
  /** Whether the import committed, rolled back (or ended with its process), or is still in flight. */
  outcome(handoff: ImportHandoff): Promise<'committed' | 'aborted' | 'in progress'>;
}

export interface SearchRepository {
  /** Imports handed over before they commit; left out, there are none (an in-memory SQLite shop). */
  readonly handoffs?: ImportHandoffs;
  /**
   * The newest change-log position, the rules' revision and the rebuild request count: cheap, asked before every
   * search.
   */
  revision(): Promise<{ catalog: number; rules: number; rebuild: number }>;
  /** Asks every server process to rebuild its index from scratch on its next search (`npm run reindex`). */
  requestRebuild(): Promise<void>;
  /**
   * The log's changes after position `seq`, at most `limit` of them (more: `full`, and `seq` is the log's newest).
   * With `part`, a read of a long backlog in parts: the first `limit` changes (never `full`; `more` says whether the
   * log holds changes after them), a term's or vendor's counted edited when it changed itself after
   * `part.wideAfter`, the position the whole read started from.
   */
  changesSince(seq: number, limit: number, part?: { wideAfter: number }): Promise<SearchChanges>;
  /**
   * The database file another thread may open to read documents (SQLite, whose driver holds the event loop for each
   * read: a merge's reads then run off it, SearchService `readThread`); left out when there is none to open.
   */
  readonly databaseFile?: string;
  /**
   * Products per scoped read when a merge reads its changed products (250 when left out): a read that holds the
   * event loop (SQLite's synchronous driver) is kept short; one awaited over the network costs a round trip each.
   */
  readonly scopedReadSize?: number;
  /**
   * The searchable documents (everything, or those of the scope and the products of its terms and vendors),
   * and the keys in the scope that no longer have a searchable document. Everything is read in pages of products
   * (by id), awaiting `pause` between them when given: the pages are not one snapshot, so a caller that needs the
   * catalog at one position catches up from the change log position it read before.
   */
  loadDocuments(
    scope?: SearchScope,
    onProgress?: (done: number, total: number) => void,
    pause?: () => Promise<void>,
  ): Promise<{ documents: SearchDocument[]; removedKeys: string[] }>;
  /** The cards of these products, in no particular order; unknown ids are left out. */
  describeProducts(ids: readonly number[]): Promise<ProductCard[]>;
  /** Null until rules were saved once (the settings file seeds them). */
  getRules(): Promise<RelevanceRules | null>;
  saveRules(rules: RelevanceRules): Promise<void>;
  /**
   * Saves the rules only if none were ever saved, atomically: the first start of several processes at once seeds
   * them once. Answers whether this call wrote them.
   */
  seedRules(rules: RelevanceRules): Promise<boolean>;
  recordQuery(record: SearchQueryRecord): Promise<void>;
  /**
   * Records a batch of queries in one transaction, in the order given (a typing burst may span a batch); fails as a
   * whole with the database's busy error, for the caller's retry queue to try again.
   */
  recordQueries(records: readonly SearchQueryRecord[]): Promise<void>;
  /** Retention: deletes recorded searches last updated before `before` (Unix ms). */
  deleteQueriesBefore(before: number): Promise<void>;
  topQueries(options: { limit: number; since: number; zeroResults: boolean }): Promise<QueryStat[]>;
  /**
   * Queries searched since `since` that found something (results > 0), most searched first, with how many
   * times: what "did you mean" learns from.
   */
  successfulQueries(options: {
    limit: number;
    since: number;
  }): Promise<{ query: string; searches: number }[]>;
}
