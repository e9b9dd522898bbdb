/**
 * What the render cache of every process follows to drop exactly the pages a committed write changed: the catalog
 * change log (`search_changes`, written by triggers and by the import) and the search rules' revision
 * (src/server/render/pageCache, docs/scale-out.md "Exact invalidation").
 */
export interface PageVersionRepository {
  /** Changes whenever a committed write could change a catalog page; cheap enough to ask several times a second. */
  catalogVersion(): Promise<string>;
  /**
   * The log's changes after position `seq`, at most `limit` of them (more: `full`, and `seq` is the log's newest).
   * `seq` of the answer is the position to ask from next; it stays `seq` when the log could not be read yet (a long
   * write holds it on PostgreSQL), and the caller asks again.
   */
  pageChangesSince(seq: number, limit: number, part?: PagePart): Promise<PageChanges>;
}

/**
 * A read of a long backlog in parts: the first `limit` changes after `seq` (never `full`; `more` says whether the log
 * holds changes after them), each counted wide when its object changed widely after `wideAfter`, the position the
 * whole read started from.
 */
export interface PagePart {
  wideAfter: number;
}

export interface PageChange {
  id: number;
  /** The change shows beyond the object's own page (migration 0037: `wide_seq` after the position). */
  wide: boolean;
}

export interface PageChanges {
  seq: number;
  /** More changes than asked for: the caller forgets everything derived from the catalog. */
  full: boolean;
  /** A read in parts (PagePart): the log holds changes after `seq`, read by the next part. */
  more?: boolean;
  /** The search rules' revision (synonyms, boosts, pins), which only search results show; null: not read yet. */
  rules: string | null;
  products: PageChange[];
  terms: PageChange[];
  /** Vendors that changed themselves (wide rows); one that only gained or lost products is left out. */
  vendors: number[];
  posts: number[];
  /**
   * The terms whose archives list a changed product: the terms of every product changed widely and every term a
   * product joined or left, with their ancestors (a category's archive lists its subcategories' products too).
   */
  archiveTerms: number[];
}
