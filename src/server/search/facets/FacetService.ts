import type { FacetRepository, SearchScope } from '../../db/ports';
import type { CatalogFollower, SearchService } from '../SearchService';
import { FacetIndex, type FacetQuery } from './FacetIndex';
import type { FacetResult } from './facetTypes';

/**
 * The facet index of this process, kept in step with the committed catalog by the search service's change feed
 * (each batch of changed products is re-read; the category tree and attributes are re-read with every batch, as they
 * are small and a new attribute arrives with the products that use it). Every process keeps its own, on either engine.
 */
export class FacetService implements CatalogFollower {
  #repository: FacetRepository;
  #search: SearchService;
  #index = new FacetIndex();
  /** The vocabulary the index was last given, as JSON: re-deriving every product's values costs a pass, so only on change. */
  #vocabulary = '';

  constructor(options: { repository: FacetRepository; search: SearchService }) {
    this.#repository = options.repository;
    this.#search = options.search;
  }

  async rebuild(): Promise<void> {
    const [vocabulary, { products }] = await Promise.all([
      this.#repository.loadFacetVocabulary(),
      this.#repository.loadFacetProducts(),
    ]);
    const index = new FacetIndex();
    index.setVocabulary(vocabulary);
    index.replaceAll(products);
    this.#vocabulary = JSON.stringify(vocabulary);
    // Built beside the one in use, then swapped: a listing counted meanwhile sees the old index whole.
    this.#index = index;
  }

  async apply(changes: SearchScope): Promise<void> {
    const [vocabulary, { products, removedIds }] = await Promise.all([
      this.#repository.loadFacetVocabulary(),
      changes.products.length
        ? this.#repository.loadFacetProducts(changes.products)
        : Promise.resolve({ products: [], removedIds: [] }),
    ]);
    this.#index.update(products, removedIds);
    const text = JSON.stringify(vocabulary);
    if (text !== this.#vocabulary) {
      this.#index.setVocabulary(vocabulary);
      this.#vocabulary = text;
    }
  }

  /** Counts on the committed catalog: applies the changes committed since the last look first. */
  async count(query: FacetQuery): Promise<FacetResult> {
    await this.#search.refresh();
    return this.#index.count(query);
  }

  /** A category and its ancestors: what the category's own page does not offer as a filter. */
  categoryWithAncestors(categoryId: number): Set<number> {
    return this.#index.categoryWithAncestors(categoryId);
  }
}
