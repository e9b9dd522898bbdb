import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { ReviewRepository } from '../db/ports';
import type { RateLimiter, RateVerdict } from '../security/rateLimiter';
import {
  REVIEW_HONEYPOT,
  type ReviewFieldErrors,
  type ReviewFormValues,
  readReviewForm,
  validateReviewForm,
} from './reviewForm';

/*
 * The one home of the rules for a new review: the honeypot, the fields, the per-client limit (shared by every
 * process through the rate limiter), "only verified owners" and moderation. The plugin only translates HTTP.
 */

export type ReviewOutcome =
  /** Stored: `held` waits for the owner; `published` is shown and counted now. */
  | { kind: 'stored'; status: 'held' | 'published'; reviewId: number }
  /** The honeypot was filled: answered like a held review, stored nowhere. */
  | { kind: 'ignored' }
  | { kind: 'invalid'; values: ReviewFormValues; errors: ReviewFieldErrors; status: 400 | 403 }
  | { kind: 'limited'; values: ReviewFormValues; verdict: RateVerdict }
  | { kind: 'no_product' };

export const REVIEW_RATE_LIMIT_NAME = 'product-review';

export async function submitReview(
  deps: { reviews: ReviewRepository; rateLimiter: RateLimiter; settings: ShopConfig['reviews'] },
  input: { productId: number; body: Record<string, unknown>; clientAddress: string },
): Promise<ReviewOutcome> {
  const values = readReviewForm(input.body);
  const checked = validateReviewForm(values);
  if (!checked.ok) return { kind: 'invalid', values, errors: checked.errors, status: 400 };

  // Counted once the form is filled in right, so a person fixing a mistake spends no tries.
  const verdict = await deps.rateLimiter.take(
    { name: REVIEW_RATE_LIMIT_NAME, limit: deps.settings.perHour, windowMs: 60 * 60 * 1000 },
    input.clientAddress,
  );
  if (!verdict.allowed) return { kind: 'limited', values, verdict };

  const honeypot = input.body[REVIEW_HONEYPOT];
  if (typeof honeypot === 'string' && honeypot.trim() !== '') return { kind: 'ignored' };

  if (
    deps.settings.verifiedOwnersOnly &&
    !(await deps.reviews.isVerifiedOwner(input.productId, checked.review.email))
  ) {
    return {
      kind: 'invalid',
      values,
      status: 403,
      errors: {
        email:
          'Only customers who bought this product can review it. Use the email address of your order (once it is processing or completed).',
      },
    };
  }

  const stored = await deps.reviews.addReview({
    productId: input.productId,
    ...checked.review,
    status: deps.settings.moderation === 'publish' ? 'approved' : 'pending',
  });
  if (!stored) return { kind: 'no_product' };
  return {
    kind: 'stored',
    status: stored.status === 'approved' ? 'published' : 'held',
    reviewId: stored.id,
  };
}
