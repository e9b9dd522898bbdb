import type { FacetRepository, SearchScope } from '../../db/ports';
import type { CatalogFollower, SearchService } from '../SearchService';
import { FacetIndex, type FacetQuery } from './FacetIndex';
import type { FacetResult } from './facetTypes';

/** Products per page of a rebuild: a few milliseconds of reading and indexing between two pauses. */
const REBUILD_PAGE = 250;
const NO_CHANGES: SearchScope = { products: [], terms: [], vendors: [], posts: [] };

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
  /** Applies and a rebuild's swap, one at a time in call order: a batch's read lands before the next batch's. */
  #queue: Promise<void> = Promise.resolve();
  /** The batches applied while a rebuild reads its pages (to the index it replaces): applied to the new one too. */
  #missed: SearchScope[] | null = null;

  constructor(options: { repository: FacetRepository; search: SearchService }) {
    this.#repository = options.repository;
    this.#search = options.search;
  }

  /**
   * Builds a new index beside the one in use, a page of products at a time with `pause()` awaited between pages
   * (requests counted meanwhile use the old index, whole), then swaps it in. Pages are separate reads: whatever
   * changes while they are read is in the change feed after the position the caller rebuilt at, and reaches this
   * index again through `apply`.
   */
  async rebuild(pause: () => Promise<void> = async () => {}): Promise<void> {
    const missed: SearchScope[] = [];
    this.#missed = missed;
    try {
      await this.#rebuild(pause, missed);
    } finally {
      if (this.#missed === missed) this.#missed = null;
    }
  }

  async #rebuild(pause: () => Promise<void>, missed: SearchScope[]): Promise<void> {
    const vocabulary = await this.#repository.loadFacetVocabulary();
    const index = new FacetIndex();
    index.setVocabulary(vocabulary);
    for (let after = 0; ; ) {
      const products = await this.#repository.loadFacetProductPage(after, REBUILD_PAGE);
      if (products.length === 0) break;
      index.update(products, []);
      after = products.at(-1)?.id ?? after;
      await pause();
    }
    await this.#inOrder(async () => {
      this.#missed = null;
      this.#vocabulary = JSON.stringify(vocabulary);
      this.#index = index;
      // A batch applied while the pages were read may have changed a product after its page was read.
      for (const changes of missed) await this.#apply(changes);
    });
  }

  /**
   * Takes in these products' changes, REBUILD_PAGE at a time with `pause()` awaited between pages (after a merge of
   * the search index: the products it changed). Each page is read and applied in turn with the batches `apply` is
   * given, so a later batch is never overwritten by an older read. Counts meanwhile mix the pages taken in and the
   * products still as they were; the pages showing them are kept only until the caller says the index caught up.
   */
  async catchUp(products: readonly number[], pause: () => Promise<void> = async () => {}): Promise<void> {
    for (let at = 0; at < products.length; at += REBUILD_PAGE) {
      await this.apply({ ...NO_CHANGES, products: products.slice(at, at + REBUILD_PAGE) });
      await pause();
    }
  }

  apply(changes: SearchScope): Promise<void> {
    this.#missed?.push(changes);
    return this.#inOrder(() => this.#apply(changes));
  }

  #inOrder(work: () => Promise<void>): Promise<void> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #apply(changes: SearchScope): Promise<void> {
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

  /**
   * Related products from the index (FacetIndex.related) on the committed catalog, and the change-log position the
   * answer is as of (`SearchService.indexedThrough`: behind the catalog while the index rebuilds after a big import);
   * null when the product is not in the index.
   */
  async relatedIds(
    productId: number,
    limit: number,
    exclude: readonly number[],
  ): Promise<{ ids: number[]; indexedThrough: number } | null> {
    await this.#search.refresh();
    const ids = this.#index.related(productId, limit, exclude);
    return ids && { ids, indexedThrough: this.#search.indexedThrough };
  }

  /** A category and its ancestors: what the category's own page does not offer as a filter. */
  categoryWithAncestors(categoryId: number): Set<number> {
    return this.#index.categoryWithAncestors(categoryId);
  }
}
