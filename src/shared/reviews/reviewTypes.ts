/* Product reviews as the shop shows them (docs/reviews.md). Plain types: the product page and the server share them. */

export const REVIEW_STATUSES = ['pending', 'approved', 'spam'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const REVIEW_STATUS_LABELS: Record<ReviewStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  spam: 'Spam',
};

/** A review as shoppers see it: never the email. */
export interface PublicReview {
  id: number;
  productId: number;
  rating: number;
  reviewer: string;
  /** Plain text as typed; always rendered escaped. */
  content: string;
  verified: boolean;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** A review as the owner moderates it. */
export interface ModeratedReview extends PublicReview {
  status: ReviewStatus;
  email: string;
  productName: string;
  productSlug: string;
}

/** How many approved reviews gave each number of stars: index 0 is 1★, index 4 is 5★. */
export type RatingDistribution = [number, number, number, number, number];

/** The figures of a product's "Reviews" section. */
export interface ReviewSummary {
  /** The product's stored rating (docs/reviews.md "Average and count"). */
  average: number;
  count: number;
  /** Approved reviews by stars. */
  distribution: RatingDistribution;
  /** Approved reviews listed (the section's "Reviews (N)"). */
  reviewCount: number;
}

/** Length limits of the review form, shown beside the fields and enforced on the server. */
export const REVIEW_LIMITS = {
  reviewer: 80,
  email: 254,
  content: 3000,
} as const;

/** Reviews listed per page on a product page. */
export const REVIEWS_PER_PAGE = 10;

/** The review form's fields as typed (strings, so a refused form is shown again with them). */
export interface ReviewFormValues {
  rating: string;
  reviewer: string;
  email: string;
  content: string;
}

/** A message in words per field, shown beside it. */
export type ReviewFieldErrors = Partial<Record<keyof ReviewFormValues, string>>;
