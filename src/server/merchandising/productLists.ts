import type { ProductSummary } from '../../shared/catalog/types';
import type { Repositories } from '../db/ports';

/*
 * The product lists that sell more, one home for their rules (docs/catalog-and-import.md):
 *
 * - upsells ("You may also like…" on the product page) and cross-sells ("You may be interested in…" on the cart
 *   page) come from the CSV's Upsells and Cross-sells columns, in its order;
 * - "Customers also bought" lists the products bought in the same orders as this one, the most shared orders
 *   first. With fewer than ALSO_BOUGHT_MINIMUM such products there are too few orders to say anything: the section
 *   is left out and the page falls back to its related products;
 * - related products share categories or tags with the product (merchandisingSql.relatedProductIds), leaving out
 *   what the page already shows above them (upsells and customers also bought).
 *
 * Every list holds only products a shopper can open and buy now, never the product itself.
 */

export const LIST_SIZE = 4;
export const ALSO_BOUGHT_MINIMUM = 2;

export interface ProductPageLists {
  upsells: ProductSummary[];
  alsoBought: ProductSummary[];
  related: ProductSummary[];
  /** The change-log position the related list is as of when an in-memory index ranked it (else null). */
  relatedIndexedThrough: number | null;
}

/**
 * An in-memory index that ranks related products as merchandisingSql's relatedProductIds does (the facet index,
 * FacetService): null when it does not hold the product.
 */
export interface RelatedProductsIndex {
  relatedIds(
    productId: number,
    limit: number,
    exclude: readonly number[],
  ): Promise<{ ids: number[]; indexedThrough: number } | null>;
}

/** The cards of these products, in this order. */
async function summaries(repositories: Repositories, ids: number[]): Promise<ProductSummary[]> {
  if (ids.length === 0) return [];
  const list = await repositories.catalog.listProducts({
    context: 'shop',
    ids,
    relevance: true,
    orderby: 'menu_order',
    page: 1,
    perPage: ids.length,
  });
  return list.items;
}

/**
 * A product page's three lists. The related products are the heaviest read of a product page (every product sharing
 * a category or tag with it is counted: 1–5 ms at 20,000 products on SQLite, a third of the server's time under the
 * live-import bench's mix); with `index` they are ranked from memory in microseconds, and read from the database
 * only for a product the index does not hold.
 */
export async function productPageLists(
  repositories: Repositories,
  productId: number,
  index?: RelatedProductsIndex,
): Promise<ProductPageLists> {
  // One statement on either engine (on PostgreSQL one round trip instead of two in a row).
  const listed = await repositories.merchandising.productPageListIds(
    productId,
    LIST_SIZE,
    ALSO_BOUGHT_MINIMUM,
    {
      related: !index,
    },
  );
  const shown = [...listed.upsells, ...listed.alsoBought];
  const ranked = index ? await index.relatedIds(productId, LIST_SIZE, shown) : null;
  const relatedIds = !index
    ? listed.related
    : (ranked?.ids ?? (await repositories.merchandising.relatedProductIds(productId, LIST_SIZE, shown)));
  // The three lists' cards in one read (one round trip on PostgreSQL), then dealt out in each list's order.
  const cards = new Map(
    (
      await summaries(repositories, [...new Set([...listed.upsells, ...listed.alsoBought, ...relatedIds])])
    ).map((card) => [card.id, card]),
  );
  const cardsOf = (ids: number[]) => ids.flatMap((id) => cards.get(id) ?? []);
  return {
    upsells: cardsOf(listed.upsells),
    alsoBought: cardsOf(listed.alsoBought),
    related: cardsOf(relatedIds),
    relatedIndexedThrough: ranked?.indexedThrough ?? null,
  };
}

/** The cross-sells of the cart's products (parents), in the cart's order, never a product already in the cart. */
export async function cartCrossSells(
  repositories: Repositories,
  productIds: number[],
): Promise<ProductSummary[]> {
  const ids = await repositories.merchandising.linkedProductIds(productIds, 'cross_sell', LIST_SIZE);
  return summaries(repositories, ids);
}
