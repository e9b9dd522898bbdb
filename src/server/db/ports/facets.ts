import type { FacetProduct, FacetVocabulary } from '../../search/facets/facetTypes';

/** What the in-memory facet index is built from: committed catalog rows, read in bulk. */
export interface FacetRepository {
  /**
   * Every published parent product a listing may show (not hidden), or only those of `ids`; `removedIds` are the
   * asked ids that no longer have one.
   */
  loadFacetProducts(ids?: readonly number[]): Promise<{ products: FacetProduct[]; removedIds: number[] }>;
  /**
   * The products `loadFacetProducts()` loads, `limit` at a time in id order after `after` (0 first; then the last
   * id of the page before), for a rebuild that lets requests run between pages. Each page is its own read.
   */
  loadFacetProductPage(after: number, limit: number): Promise<FacetProduct[]>;
  /** The product categories and the global attributes with their terms. */
  loadFacetVocabulary(): Promise<FacetVocabulary>;
}
