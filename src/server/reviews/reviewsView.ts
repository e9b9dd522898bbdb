import type { FastifyRequest } from 'fastify';
import type { ReviewsSectionProps } from '../../client/product/ReviewsSection';
import type { ProductDetail } from '../../shared/catalog/types';
import { productUrl } from '../../shared/catalog/urls';
import {
  REVIEWS_PER_PAGE,
  type ReviewFieldErrors,
  type ReviewFormValues,
} from '../../shared/reviews/reviewTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { ReviewRepository } from '../db/ports';
import { EMPTY_REVIEW_FORM } from './reviewForm';

/** The nonce action of the review form (per visitor, like every shopper form). */
export const REVIEW_NONCE_ACTION = 'product_review';

export interface ReviewsViewState {
  page?: number;
  values?: ReviewFormValues;
  errors?: ReviewFieldErrors;
  message?: string | null;
  notice?: 'held' | 'published' | null;
}

export function reviewFormAction(slug: string): string {
  return `${productUrl(slug)}review`;
}

/** The figures, the page of approved reviews and the form of a product's "Reviews (N)" section. */
export function createReviewsView(reviews: ReviewRepository, settings: ShopConfig['reviews']) {
  return async function reviewsSection(
    request: FastifyRequest,
    product: ProductDetail,
    state: ReviewsViewState = {},
  ): Promise<ReviewsSectionProps> {
    const distribution = await reviews.distribution(product.id);
    const reviewCount = distribution.reduce((sum, n) => sum + n, 0);
    const pages = Math.max(1, Math.ceil(reviewCount / REVIEWS_PER_PAGE));
    const page = Math.min(Math.max(1, state.page ?? 1), pages);
    const list =
      reviewCount === 0
        ? { items: [] }
        : await reviews.listApproved({
            productId: product.id,
            page,
            perPage: REVIEWS_PER_PAGE,
            order: 'desc',
            orderBy: 'date',
          });
    return {
      productName: product.name,
      summary: {
        average: product.ratingAverage,
        count: product.ratingCount,
        distribution,
        reviewCount,
      },
      reviews: list.items,
      page,
      pages,
      productUrl: productUrl(product.slug),
      form: {
        action: reviewFormAction(product.slug),
        nonce: request.server.nonces.create(REVIEW_NONCE_ACTION, request.visitor),
        values: state.values ?? EMPTY_REVIEW_FORM,
        errors: state.errors ?? {},
        message: state.message ?? null,
      },
      notice: state.notice ?? null,
      verifiedOwnersOnly: settings.verifiedOwnersOnly,
    };
  };
}

export type ReviewsView = ReturnType<typeof createReviewsView>;
