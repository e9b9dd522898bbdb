/** A product page's three lists, ids in display order. */
export interface ProductPageListIds {
  upsells: number[];
  alsoBought: number[];
  related: number[];
}

/** The lists that sell more: related products, customers also bought, upsells and cross-sells (migration 0028). */
export interface MerchandisingRepository {
  /** Up to `limit` related products of `productId` (shared categories and tags), leaving out `exclude`. */
  relatedProductIds(productId: number, limit: number, exclude?: readonly number[]): Promise<number[]>;
  /** Up to `limit` products bought in the same orders as `productId`, the most shared orders first. */
  alsoBoughtIds(productId: number, limit: number): Promise<number[]>;
  /**
   * A product page's upsells, products also bought (none below `alsoBoughtMinimum`) and related products (never one
   * of the other two lists), each up to `limit`: what the three reads above choose, in one statement. With
   * `related: false` the related list is left empty (an in-memory index ranks it).
   */
  productPageListIds(
    productId: number,
    limit: number,
    alsoBoughtMinimum: number,
    options?: { related?: boolean },
  ): Promise<ProductPageListIds>;
  /** The products' upsells or cross-sells, in the given products' order, never one of them. */
  linkedProductIds(
    productIds: readonly number[],
    kind: 'upsell' | 'cross_sell',
    limit: number,
  ): Promise<number[]>;
}
