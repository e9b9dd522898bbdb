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
import { queryNamed } from './namedQuery';
import { inTransaction, type PgPool, type Queryable } from './openPostgres';

/**
 * Takes, first, the table lock the product update will need anyway (ROW EXCLUSIVE, which moderations share with
 * each other). A catalog import locks the catalog tables in SHARE ROW EXCLUSIVE mode before writing products: taking
 * ours before the product's row lock makes a moderation and an import wait for each other whole, instead of each
 * holding what the other needs (a deadlock PostgreSQL would break by failing one of them).
 */
async function lockProductsTable(client: Queryable) {
  await client.query('LOCK TABLE products IN ROW EXCLUSIVE MODE');
}

export class PgReviewRepository implements ReviewRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async isVerifiedOwner(productId: number, email: string): Promise<boolean> {
    return this.#verified(this.#pool, productId, email);
  }

  async #verified(db: Queryable, productId: number, email: string): Promise<boolean> {
    const rows = await queryNamed(db, verifiedOwnerSql('postgres'), {
      productId,
      email: email.trim().toLowerCase(),
    });
    return rows.length > 0;
  }

  async addReview(review: NewReview): Promise<(PublicReview & { status: ReviewStatus }) | null> {
    return inTransaction(this.#pool, async (client) => {
      await lockProductsTable(client);
      // The product's row lock, as approvals take it, so a review published at once counts every other one.
      const product = await queryNamed(client, `${PUBLISHED_PRODUCT} FOR UPDATE`, {
        productId: review.productId,
      });
      if (product.length === 0) return null;
      const verified = await this.#verified(client, review.productId, review.email);
      const [row] = await queryNamed<{ id: number; created_at: string }>(client, INSERT_REVIEW, {
        productId: review.productId,
        status: review.status,
        rating: review.rating,
        reviewer: review.reviewer,
        email: review.email,
        content: review.content,
        verified: verified ? 1 : 0,
      });
      if (!row) throw new Error('The review was not written');
      if (review.status === 'approved') await this.#storeRating(client, review.productId);
      return {
        id: Number(row.id),
        productId: review.productId,
        rating: review.rating,
        reviewer: review.reviewer,
        content: review.content,
        verified,
        createdAt: row.created_at,
        status: review.status,
      };
    });
  }

  async listApproved(query: ApprovedReviewsQuery): Promise<ReviewPage<PublicReview>> {
    const sql = approvedListSql('postgres', query);
    const { limit: _limit, offset: _offset, ...filter } = sql.params;
    const [rows, count] = await Promise.all([
      queryNamed(this.#pool, sql.list, sql.params),
      queryNamed(this.#pool, sql.count, filter),
    ]);
    return { items: rows.map(toPublicReview), total: Number(count[0]?.n ?? 0) };
  }

  async distribution(productId: number): Promise<RatingDistribution> {
    // Every product page reads it: prepared, so each connection parses and plans it once.
    return toDistribution(await queryNamed(this.#pool, DISTRIBUTION, { productId }, { prepare: true }));
  }

  async listForModeration(query: {
    status: ReviewStatus;
    page: number;
    perPage: number;
  }): Promise<ReviewPage<ModeratedReview>> {
    const sql = moderationListSql('postgres');
    const [rows, count] = await Promise.all([
      queryNamed(this.#pool, sql.list, {
        status: query.status,
        limit: query.perPage,
        offset: (query.page - 1) * query.perPage,
      }),
      queryNamed(this.#pool, sql.count, { status: query.status }),
    ]);
    return { items: rows.map(toModeratedReview), total: Number(count[0]?.n ?? 0) };
  }

  async countByStatus(): Promise<Record<ReviewStatus, number>> {
    return toStatusCounts(await queryNamed(this.#pool, COUNT_BY_STATUS, {}));
  }

  async setStatus(id: number, status: ReviewStatus) {
    return inTransaction(this.#pool, async (client) => {
      await lockProductsTable(client);
      const row = await this.#lockReview(client, id);
      if (!row) return null;
      if (row.status !== status) {
        await queryNamed(client, SET_REVIEW_STATUS, { id, status });
        if (row.status === 'approved' || status === 'approved')
          await this.#storeRating(client, row.productId);
      }
      return { from: row.status, to: status };
    });
  }

  async deleteReview(id: number): Promise<boolean> {
    return inTransaction(this.#pool, async (client) => {
      await lockProductsTable(client);
      const row = await this.#lockReview(client, id);
      if (!row) return false;
      await queryNamed(client, DELETE_REVIEW, { id });
      if (row.status === 'approved') await this.#storeRating(client, row.productId);
      return true;
    });
  }

  /**
   * Locks the review's product, then reads the review: every write that changes a product's approved reviews
   * queues on the product's row, so the last to commit counts all the others (READ COMMITTED reads each statement
   * afresh after the wait). The review is read again after the lock, since another write may have moved it.
   */
  async #lockReview(client: Queryable, id: number) {
    const [first] = await queryNamed<{ product_id: number }>(client, REVIEW_PRODUCT, { id });
    if (!first) return null;
    await queryNamed(client, 'SELECT id FROM products WHERE id = @productId FOR UPDATE', {
      productId: first.product_id,
    });
    const [row] = await queryNamed<{ product_id: number; status: ReviewStatus }>(
      client,
      `${REVIEW_PRODUCT} FOR UPDATE`,
      { id },
    );
    return row ? { productId: Number(row.product_id), status: row.status } : null;
  }

  async #storeRating(client: Queryable, productId: number) {
    const [imported] = await queryNamed<{ average: number; count: number }>(client, PRODUCT_IMPORTED_RATING, {
      productId,
    });
    const [totals] = await queryNamed<{ n: number; stars: number }>(client, APPROVED_TOTALS, { productId });
    const rating = ratingFromRows(imported, totals);
    await queryNamed(client, STORE_RATING, { productId, average: rating.average, count: rating.count });
  }
}
