import { productRating, type RatingFigures } from '../../../shared/reviews/productRating';
import type {
  ModeratedReview,
  PublicReview,
  RatingDistribution,
  ReviewStatus,
} from '../../../shared/reviews/reviewTypes';
import type { ApprovedReviewsQuery } from '../ports';
import type { SqlDialect } from './dialect';

/*
 * The reviews' SQL, alike on both engines but for reading the billing JSON. `@name` placeholders: SQLite binds them,
 * PostgreSQL's adapter turns them into `$n` (queryNamed). Column aliases are quoted for PostgreSQL, which folds
 * unquoted names to lower case.
 */

const q = (dialect: SqlDialect, name: string) => (dialect === 'postgres' ? `"${name}"` : name);

function billingEmail(dialect: SqlDialect): string {
  return dialect === 'sqlite' ? "json_extract(o.billing, '$.email')" : "(o.billing::jsonb ->> 'email')";
}

export function verifiedOwnerSql(dialect: SqlDialect): string {
  return `SELECT 1 AS found FROM orders o JOIN order_items i ON i.order_id = o.id
    WHERE i.product_id = @productId AND o.status IN ('processing', 'completed')
      AND LOWER(${billingEmail(dialect)}) = @email
    LIMIT 1`;
}

/**
 * For the catalog import: an imported rating is stored aside, and shown only while the product has no approved
 * review (rule: productRating).
 */
export const HAS_APPROVED_REVIEW =
  "EXISTS (SELECT 1 FROM product_reviews r WHERE r.product_id = products.id AND r.status = 'approved')";

export const PUBLISHED_PRODUCT =
  "SELECT id FROM products WHERE id = @productId AND status = 'publish' AND type <> 'variation'";

export const INSERT_REVIEW = `INSERT INTO product_reviews (product_id, status, rating, reviewer, email, content, verified)
  VALUES (@productId, @status, @rating, @reviewer, @email, @content, @verified)
  RETURNING id, created_at`;

function publicColumns(dialect: SqlDialect): string {
  return `r.id, r.product_id AS ${q(dialect, 'productId')}, r.rating, r.reviewer, r.content, r.verified,
    r.created_at AS ${q(dialect, 'createdAt')}`;
}

const ORDER_COLUMNS: Record<ApprovedReviewsQuery['orderBy'], string> = {
  date: 'r.created_at',
  id: 'r.id',
  rating: 'r.rating',
  product: 'r.product_id',
};

export function approvedListSql(dialect: SqlDialect, query: ApprovedReviewsQuery) {
  // Reviews of a product shoppers cannot see (a draft, a private one) are not listed either.
  const where = `JOIN products p ON p.id = r.product_id AND p.status = 'publish'
    WHERE r.status = 'approved'${query.productId === null ? '' : ' AND r.product_id = @productId'}`;
  const direction = query.order === 'asc' ? 'ASC' : 'DESC';
  const params: Record<string, unknown> = {
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  };
  if (query.productId !== null) params.productId = query.productId;
  return {
    list: `SELECT ${publicColumns(dialect)} FROM product_reviews r ${where}
      ORDER BY ${ORDER_COLUMNS[query.orderBy]} ${direction}, r.id ${direction}
      LIMIT @limit OFFSET @offset`,
    count: `SELECT COUNT(*) AS n FROM product_reviews r ${where}`,
    params,
  };
}

export const DISTRIBUTION = `SELECT rating, COUNT(*) AS n FROM product_reviews
  WHERE product_id = @productId AND status = 'approved' GROUP BY rating`;

export function moderationListSql(dialect: SqlDialect) {
  return {
    list: `SELECT ${publicColumns(dialect)}, r.status, r.email, p.name AS ${q(dialect, 'productName')},
        p.slug AS ${q(dialect, 'productSlug')}
      FROM product_reviews r JOIN products p ON p.id = r.product_id
      WHERE r.status = @status ORDER BY r.created_at DESC, r.id DESC LIMIT @limit OFFSET @offset`,
    count: 'SELECT COUNT(*) AS n FROM product_reviews r WHERE r.status = @status',
  };
}

export const COUNT_BY_STATUS = 'SELECT status, COUNT(*) AS n FROM product_reviews GROUP BY status';

export const REVIEW_PRODUCT = 'SELECT product_id, status FROM product_reviews WHERE id = @id';
export const SET_REVIEW_STATUS = 'UPDATE product_reviews SET status = @status WHERE id = @id';
export const DELETE_REVIEW = 'DELETE FROM product_reviews WHERE id = @id';

/** Locks the product row on PostgreSQL (`FOR UPDATE` appended there); reads its imported rating. */
export const PRODUCT_IMPORTED_RATING = `SELECT rating_imported_average AS average, rating_imported_count AS count
  FROM products WHERE id = @productId`;
export const APPROVED_TOTALS = `SELECT COUNT(*) AS n, COALESCE(SUM(rating), 0) AS stars
  FROM product_reviews WHERE product_id = @productId AND status = 'approved'`;
export const STORE_RATING =
  'UPDATE products SET rating_average = @average, rating_count = @count WHERE id = @productId';

/** The stored rating from the imported one and the approved reviews' totals (rule: productRating). */
export function ratingFromRows(
  imported: { average: unknown; count: unknown } | undefined,
  totals: { n: unknown; stars: unknown } | undefined,
): RatingFigures {
  return productRating(
    { average: Number(imported?.average ?? 0), count: Number(imported?.count ?? 0) },
    { count: Number(totals?.n ?? 0), starsSum: Number(totals?.stars ?? 0) },
  );
}

export function toPublicReview(row: Record<string, unknown>): PublicReview {
  return {
    id: Number(row.id),
    productId: Number(row.productId),
    rating: Number(row.rating),
    reviewer: String(row.reviewer),
    content: String(row.content),
    verified: Number(row.verified) === 1,
    createdAt: String(row.createdAt),
  };
}

export function toModeratedReview(row: Record<string, unknown>): ModeratedReview {
  return {
    ...toPublicReview(row),
    status: row.status as ReviewStatus,
    email: String(row.email),
    productName: String(row.productName),
    productSlug: String(row.productSlug),
  };
}

export function toDistribution(rows: Record<string, unknown>[]): RatingDistribution {
  const distribution: RatingDistribution = [0, 0, 0, 0, 0];
  for (const row of rows) {
    const stars = Number(row.rating);
    if (stars >= 1 && stars <= 5) distribution[stars - 1] = Number(row.n);
  }
  return distribution;
}

export function toStatusCounts(rows: Record<string, unknown>[]): Record<ReviewStatus, number> {
  const counts: Record<ReviewStatus, number> = { pending: 0, approved: 0, spam: 0 };
  for (const row of rows) counts[row.status as ReviewStatus] = Number(row.n);
  return counts;
}
