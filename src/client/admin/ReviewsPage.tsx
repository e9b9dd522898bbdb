import { productUrl } from '../../shared/catalog/urls';
import {
  type ModeratedReview,
  REVIEW_STATUS_LABELS,
  REVIEW_STATUSES,
  type ReviewStatus,
} from '../../shared/reviews/reviewTypes';
import { formatAdminDate } from './adminFormat';

/*
 * `/admin/reviews/`: moderation. One tab per status (pending first), newest first, each review with its stars,
 * text (as text), author, email, "Verified owner", product and date, and buttons to approve, hold again, mark as
 * spam or delete. Every button is its own small form with the page's nonce: it works without JavaScript.
 */

export const ADMIN_REVIEWS_PATH = '/admin/reviews/';

export function reviewsTabHref(status: ReviewStatus, page = 1): string {
  const query = new URLSearchParams({ status });
  if (page > 1) query.set('paged', String(page));
  return `${ADMIN_REVIEWS_PATH}?${query}`;
}

const ACTIONS: Record<ReviewStatus, { to: ReviewStatus; label: string }[]> = {
  pending: [
    { to: 'approved', label: 'Approve' },
    { to: 'spam', label: 'Spam' },
  ],
  approved: [
    { to: 'pending', label: 'Unapprove' },
    { to: 'spam', label: 'Spam' },
  ],
  spam: [
    { to: 'pending', label: 'Not spam' },
    { to: 'approved', label: 'Approve' },
  ],
};

export function ReviewsPage({
  status,
  reviews,
  total,
  page,
  perPage,
  counts,
  nonce,
  notice,
}: {
  status: ReviewStatus;
  reviews: ModeratedReview[];
  total: number;
  page: number;
  perPage: number;
  counts: Record<ReviewStatus, number>;
  nonce: string;
  notice: string | null;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  return (
    <div className="admin-reviews">
      {notice && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      <nav className="admin-tabs" aria-label="Reviews by status">
        <ul>
          {REVIEW_STATUSES.map((each) => (
            <li key={each}>
              <a href={reviewsTabHref(each)} aria-current={each === status ? 'page' : undefined}>
                {`${REVIEW_STATUS_LABELS[each]} (${counts[each]})`}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {reviews.length === 0 ? (
        <p>No {REVIEW_STATUS_LABELS[status].toLowerCase()} reviews.</p>
      ) : (
        <ol className="admin-review-list">
          {reviews.map((review) => (
            <li key={review.id} className="admin-review" id={`review-${review.id}`}>
              <article aria-labelledby={`review-${review.id}-title`}>
                <h2 id={`review-${review.id}-title`} className="admin-review__title">
                  {review.rating} of 5 stars for{' '}
                  <a href={productUrl(review.productSlug)}>{review.productName}</a>
                </h2>
                <p className="admin-review__meta">
                  <span>{review.reviewer}</span> · <span>{review.email}</span>
                  {review.verified && <span className="admin-status">Verified owner</span>} ·{' '}
                  <time dateTime={review.createdAt}>{formatAdminDate(review.createdAt)}</time>
                </p>
                <p className="admin-review__text">{review.content}</p>
                <div className="admin-review__actions">
                  {ACTIONS[review.status].map((action) => (
                    <form key={action.to} method="post" action={`${ADMIN_REVIEWS_PATH}${review.id}/status`}>
                      <input type="hidden" name="_wpnonce" value={nonce} />
                      <input type="hidden" name="status" value={action.to} />
                      <input type="hidden" name="tab" value={status} />
                      <button type="submit" aria-describedby={`review-${review.id}-title`}>
                        {action.label}
                      </button>
                    </form>
                  ))}
                  <form method="post" action={`${ADMIN_REVIEWS_PATH}${review.id}/delete`}>
                    <input type="hidden" name="_wpnonce" value={nonce} />
                    <input type="hidden" name="tab" value={status} />
                    <button type="submit" aria-describedby={`review-${review.id}-title`}>
                      Delete
                    </button>
                  </form>
                </div>
              </article>
            </li>
          ))}
        </ol>
      )}
      {pages > 1 && (
        <nav className="admin-pages" aria-label="Review pages">
          {page > 1 && <a href={reviewsTabHref(status, page - 1)}>← Newer</a>}
          <span>
            Page {page} of {pages}
          </span>
          {page < pages && <a href={reviewsTabHref(status, page + 1)}>Older →</a>}
        </nav>
      )}
    </div>
  );
}
