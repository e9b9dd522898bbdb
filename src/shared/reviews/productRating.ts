/*
 * The rating stored with a product (products.rating_average and rating_count), which listings, suggestions, the
 * product page and structured data all read. The rule, in words (docs/reviews.md):
 *
 * - Until the product has an approved review, its rating is the imported one (the catalog sidecar's `rating`,
 *   kept in products.rating_imported_average / rating_imported_count), as it was before reviews existed.
 * - From its first approved review on, the imported rating is set aside (not mixed in): the rating is the mean of
 *   the approved reviews' stars, rounded to two decimals as WooCommerce rounds it, and the count is how many
 *   approved reviews there are. Pending and spam reviews never count.
 * - When the last approved review goes (marked spam, held again, deleted), the imported rating is back.
 *
 * Replaced rather than combined because a shopper can then check every figure against the reviews on the page.
 */

export interface RatingFigures {
  average: number;
  count: number;
}

/** What the approved reviews add up to: how many there are and the sum of their stars. */
export interface ApprovedTotals {
  count: number;
  starsSum: number;
}

export function productRating(imported: RatingFigures, approved: ApprovedTotals): RatingFigures {
  if (approved.count <= 0) {
    return imported.count > 0 ? imported : { average: 0, count: 0 };
  }
  return { average: Math.round((approved.starsSum / approved.count) * 100) / 100, count: approved.count };
}
