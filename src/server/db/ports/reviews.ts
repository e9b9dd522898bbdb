import type {
  ModeratedReview,
  PublicReview,
  RatingDistribution,
  ReviewStatus,
} from '../../../shared/reviews/reviewTypes';

export type * from '../../../shared/reviews/reviewTypes';

/*
 * Product reviews (migration 0027). Every write that changes which reviews are approved recomputes the product's
 * stored rating (products.rating_average, rating_count; rule in shared/reviews/productRating.ts) in the same
 * transaction, under the product's row lock (PostgreSQL `SELECT … FOR UPDATE`, SQLite `BEGIN IMMEDIATE`), so two
 * approvals at once, in one process or two, each count the other's review.
 */

export interface NewReview {
  productId: number;
  rating: number;
  reviewer: string;
  /** Stored as given (trimmed); compared lower-cased. */
  email: string;
  content: string;
  status: Extract<ReviewStatus, 'pending' | 'approved'>;
}

export type ReviewOrderBy = 'date' | 'id' | 'rating' | 'product';

export interface ApprovedReviewsQuery {
  /** Null: every product's reviews. */
  productId: number | null;
  page: number;
  perPage: number;
  order: 'asc' | 'desc';
  orderBy: ReviewOrderBy;
}

export interface ReviewPage<T> {
  items: T[];
  total: number;
}

export interface ReviewRepository {
  /**
   * Whether `email` bought the product: an order in processing or completed status, billed to that address
   * (case-insensitive), with a line of the product or one of its variations.
   */
  isVerifiedOwner(productId: number, email: string): Promise<boolean>;
  /**
   * Writes a review with `verified` decided now (isVerifiedOwner). A review published at once recomputes the
   * product's rating in the same transaction. Null when there is no such published product.
   */
  addReview(review: NewReview): Promise<(PublicReview & { status: ReviewStatus }) | null>;
  /** Approved reviews only, with their products' names for the REST API. */
  listApproved(query: ApprovedReviewsQuery): Promise<ReviewPage<PublicReview>>;
  /** How many approved reviews gave each number of stars. */
  distribution(productId: number): Promise<RatingDistribution>;
  /** The owner's list: one status, newest first. */
  listForModeration(query: {
    status: ReviewStatus;
    page: number;
    perPage: number;
  }): Promise<ReviewPage<ModeratedReview>>;
  countByStatus(): Promise<Record<ReviewStatus, number>>;
  /**
   * Moves a review to `status` and recomputes its product's rating, in one transaction under the product's lock.
   * Null when there is no such review.
   */
  setStatus(id: number, status: ReviewStatus): Promise<{ from: ReviewStatus; to: ReviewStatus } | null>;
  /** Deletes a review and recomputes its product's rating, in one transaction. False when there was none. */
  deleteReview(id: number): Promise<boolean>;
}
