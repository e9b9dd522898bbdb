import type { SqliteDatabase } from '../openDatabase';
import type {
  ApprovedReviewsQuery,
  ModeratedReview,
  NewReview,
  PublicReview,
  RatingDistribution,
  ReviewPage,
  ReviewRepository,
  ReviewStatus,
} from '../ports';
import {
  APPROVED_TOTALS,
  approvedListSql,
  COUNT_BY_STATUS,
  DELETE_REVIEW,
  DISTRIBUTION,
  INSERT_REVIEW,
  moderationListSql,
  PRODUCT_IMPORTED_RATING,
  PUBLISHED_PRODUCT,
  REVIEW_PRODUCT,
  ratingFromRows,
  SET_REVIEW_STATUS,
  STORE_RATING,
  toDistribution,
  toModeratedReview,
  toPublicReview,
  toStatusCounts,
  verifiedOwnerSql,
} from '../sql/reviewSql';
import { writeWhenFree } from './withoutBusyWait';

export class SqliteReviewRepository implements ReviewRepository {
  #db: SqliteDatabase;
  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async isVerifiedOwner(productId: number, email: string): Promise<boolean> {
    return this.#verified(productId, email);
  }

  #verified(productId: number, email: string): boolean {
    const row = this.#db
      .prepare(verifiedOwnerSql('sqlite'))
      .get({ productId, email: email.trim().toLowerCase() });
    return row !== undefined;
  }

  async addReview(review: NewReview): Promise<(PublicReview & { status: ReviewStatus }) | null> {
    // IMMEDIATE takes the write lock first: the product's lock on this engine, as approvals take it. A lock held
    // elsewhere is waited out without holding the process (writeWhenFree).
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() => {
          if (!this.#db.prepare(PUBLISHED_PRODUCT).get({ productId: review.productId })) return null;
          const verified = this.#verified(review.productId, review.email);
          const row = this.#db.prepare(INSERT_REVIEW).get({
            productId: review.productId,
            status: review.status,
            rating: review.rating,
            reviewer: review.reviewer,
            email: review.email,
            content: review.content,
            verified: verified ? 1 : 0,
          }) as { id: number; created_at: string };
          if (review.status === 'approved') this.#storeRating(review.productId);
          return {
            id: row.id,
            productId: review.productId,
            rating: review.rating,
            reviewer: review.reviewer,
            content: review.content,
            verified,
            createdAt: row.created_at,
            status: review.status,
          };
        })
        .immediate(),
    );
  }

  async listApproved(query: ApprovedReviewsQuery): Promise<ReviewPage<PublicReview>> {
    const sql = approvedListSql('sqlite', query);
    const { limit: _limit, offset: _offset, ...filter } = sql.params;
    const rows = this.#db.prepare(sql.list).all(sql.params) as Record<string, unknown>[];
    const total = this.#db.prepare(sql.count).pluck().get(filter) as number;
    return { items: rows.map(toPublicReview), total };
  }

  async distribution(productId: number): Promise<RatingDistribution> {
    return toDistribution(this.#db.prepare(DISTRIBUTION).all({ productId }) as Record<string, unknown>[]);
  }

  async listForModeration(query: {
    status: ReviewStatus;
    page: number;
    perPage: number;
  }): Promise<ReviewPage<ModeratedReview>> {
    const sql = moderationListSql('sqlite');
    const rows = this.#db.prepare(sql.list).all({
      status: query.status,
      limit: query.perPage,
      offset: (query.page - 1) * query.perPage,
    }) as Record<string, unknown>[];
    const total = this.#db.prepare(sql.count).pluck().get({ status: query.status }) as number;
    return { items: rows.map(toModeratedReview), total };
  }

  async countByStatus(): Promise<Record<ReviewStatus, number>> {
    return toStatusCounts(this.#db.prepare(COUNT_BY_STATUS).all() as Record<string, unknown>[]);
  }

  async setStatus(id: number, status: ReviewStatus) {
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() => {
          const row = this.#db.prepare(REVIEW_PRODUCT).get({ id }) as
            | { product_id: number; status: ReviewStatus }
            | undefined;
          if (!row) return null;
          if (row.status !== status) {
            this.#db.prepare(SET_REVIEW_STATUS).run({ id, status });
            if (row.status === 'approved' || status === 'approved') this.#storeRating(row.product_id);
          }
          return { from: row.status, to: status };
        })
        .immediate(),
    );
  }

  async deleteReview(id: number): Promise<boolean> {
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() => {
          const row = this.#db.prepare(REVIEW_PRODUCT).get({ id }) as
            | { product_id: number; status: ReviewStatus }
            | undefined;
          if (!row) return false;
          this.#db.prepare(DELETE_REVIEW).run({ id });
          if (row.status === 'approved') this.#storeRating(row.product_id);
          return true;
        })
        .immediate(),
    );
  }

  /** Recomputes the product's stored rating from its committed reviews; runs inside the caller's transaction. */
  #storeRating(productId: number) {
    const imported = this.#db.prepare(PRODUCT_IMPORTED_RATING).get({ productId }) as
      | { average: number; count: number }
      | undefined;
    const totals = this.#db.prepare(APPROVED_TOTALS).get({ productId }) as { n: number; stars: number };
    const rating = ratingFromRows(imported, totals);
    this.#db.prepare(STORE_RATING).run({ productId, average: rating.average, count: rating.count });
  }
}
