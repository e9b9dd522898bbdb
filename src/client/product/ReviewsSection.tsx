import {
  type PublicReview,
  REVIEW_LIMITS,
  type ReviewFieldErrors,
  type ReviewFormValues,
  type ReviewSummary,
} from '../../shared/reviews/reviewTypes';
import { StarRating } from '../catalog/StarRating';
import { useShopSettings } from '../ShopSettingsContext';

/*
 * A product's "Reviews (N)" section, rendered on the server only (no island): the average as stars, the
 * distribution by stars, the approved reviews newest first in pages of plain links, and the review form, which
 * posts without JavaScript. The rating is a native radio group in a fieldset, so arrow keys move between the stars
 * and screen readers announce "4 stars, 2 of 5". Review text is plain text: React escapes it.
 */

export interface ReviewsSectionProps {
  productName: string;
  summary: ReviewSummary;
  reviews: PublicReview[];
  page: number;
  pages: number;
  /** The product page's address; pages add `?reviews-page=N#reviews`. */
  productUrl: string;
  form: {
    action: string;
    nonce: string;
    values: ReviewFormValues;
    errors: ReviewFieldErrors;
    /** A message for the whole form (too many reviews sent). */
    message: string | null;
  };
  /** After a review was sent: held for the owner, or published. */
  notice: 'held' | 'published' | null;
  verifiedOwnersOnly: boolean;
}

const STAR_WORDS = ['', 'Very poor', 'Not that bad', 'Average', 'Good', 'Perfect'];

export function reviewsPageUrl(productUrl: string, page: number): string {
  return page <= 1 ? `${productUrl}#reviews` : `${productUrl}?reviews-page=${page}#reviews`;
}

export function ReviewsSection(props: ReviewsSectionProps) {
  const { summary, reviews } = props;
  return (
    <section id="reviews" className="reviews" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">{`Reviews (${summary.reviewCount})`}</h2>
      {props.notice && (
        <p className="reviews__notice" role="status">
          {props.notice === 'held'
            ? 'Thank you for your review. It will appear once the shop has approved it.'
            : 'Thank you for your review. It is published below.'}
        </p>
      )}
      <div className="reviews__summary">
        {summary.count > 0 ? (
          <p className="reviews__average">
            <StarRating average={summary.average} count={summary.count} />{' '}
            <span className="reviews__average-text">
              {`${summary.average.toFixed(1)} out of 5 from ${summary.count} ` +
                (summary.reviewCount > 0
                  ? summary.count === 1
                    ? 'review'
                    : 'reviews'
                  : `earlier ${summary.count === 1 ? 'rating' : 'ratings'}; written reviews will replace it`)}
            </span>
          </p>
        ) : (
          <p className="reviews__average">No reviews yet.</p>
        )}
        <Distribution summary={summary} />
      </div>
      {reviews.length > 0 ? (
        <ol className="reviews__list">
          {reviews.map((review) => (
            <ReviewItem key={review.id} review={review} />
          ))}
        </ol>
      ) : (
        summary.reviewCount === 0 && (
          <p className="reviews__empty">Be the first to review “{props.productName}”.</p>
        )
      )}
      <ReviewPages {...props} />
      <ReviewForm {...props} />
    </section>
  );
}

function Distribution({ summary }: { summary: ReviewSummary }) {
  const total = summary.distribution.reduce((sum, n) => sum + n, 0);
  return (
    <table className="reviews__distribution">
      <caption className="screen-reader-text">Reviews by stars</caption>
      <tbody>
        {[5, 4, 3, 2, 1].map((stars) => {
          const n = summary.distribution[stars - 1] ?? 0;
          const percent = total === 0 ? 0 : Math.round((n / total) * 100);
          return (
            <tr key={stars} data-stars={stars}>
              <th scope="row">
                {stars} <span aria-hidden="true">★</span>
                <span className="screen-reader-text">{stars === 1 ? 'star' : 'stars'}</span>
              </th>
              <td className="reviews__bar-cell">
                <span className="reviews__bar" aria-hidden="true">
                  <span className="reviews__bar-fill" style={{ width: `${percent}%` }} />
                </span>
              </td>
              <td className="reviews__bar-count">
                {n}
                <span className="screen-reader-text">
                  {` ${n === 1 ? 'review' : 'reviews'} (${percent}%)`}
                </span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function ReviewItem({ review }: { review: PublicReview }) {
  const { i18n } = useShopSettings();
  const date = new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(review.createdAt),
  );
  const label = `Rated ${review.rating} out of 5`;
  return (
    <li className="review" id={`review-${review.id}`}>
      <article aria-labelledby={`review-${review.id}-by`}>
        <p className="review__meta">
          <span className="star-rating" role="img" aria-label={label} title={label}>
            <span className="star-rating__fill" style={{ width: `${(review.rating / 5) * 100}%` }} />
          </span>{' '}
          <strong id={`review-${review.id}-by`} className="review__author">
            {review.reviewer}
          </strong>
          {review.verified && <span className="review__verified">Verified owner</span>}{' '}
          <time className="review__date" dateTime={review.createdAt}>
            {date}
          </time>
        </p>
        <div className="review__text">
          {review.content.split(/\n{2,}/).map((paragraph, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs of one immutable text
            <p key={index}>
              {paragraph.split('\n').map((line, lineIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of one immutable paragraph
                <span key={lineIndex}>
                  {lineIndex > 0 && <br />}
                  {line}
                </span>
              ))}
            </p>
          ))}
        </div>
      </article>
    </li>
  );
}

function ReviewPages({ page, pages, productUrl }: ReviewsSectionProps) {
  if (pages <= 1) return null;
  return (
    <nav className="pagination reviews__pages" aria-label="Review pages">
      <ul>
        {page > 1 && (
          <li>
            <a href={reviewsPageUrl(productUrl, page - 1)} rel="prev">
              ← Newer reviews
            </a>
          </li>
        )}
        {Array.from({ length: pages }, (_, index) => index + 1).map((number) => (
          <li key={number}>
            {number === page ? (
              <span aria-current="page">{number}</span>
            ) : (
              <a href={reviewsPageUrl(productUrl, number)} aria-label={`Reviews page ${number}`}>
                {number}
              </a>
            )}
          </li>
        ))}
        {page < pages && (
          <li>
            <a href={reviewsPageUrl(productUrl, page + 1)} rel="next">
              Older reviews →
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="review-form__error">
      {message}
    </p>
  );
}

function ReviewForm({ productName, form, verifiedOwnersOnly }: ReviewsSectionProps) {
  const { values, errors } = form;
  const problems = Object.values(errors).filter(Boolean);
  const described = (field: keyof ReviewFormValues, hint?: string) =>
    [hint, errors[field] ? `review-${field}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <form
      method="post"
      action={form.action}
      className="review-form"
      aria-labelledby="review-form-heading"
      noValidate
    >
      <h3 id="review-form-heading">Add a review of “{productName}”</h3>
      {verifiedOwnersOnly && (
        <p className="review-form__hint">Only customers who bought this product can review it.</p>
      )}
      {(form.message || problems.length > 0) && (
        <div className="review-form__problems" role="alert">
          {form.message ?? (
            <>
              <p>Your review was not sent yet. Please correct:</p>
              <ul>
                {problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {/* Empty on a cached page: filled in before sending (client/forms/fillFormNonces.ts). */}
      <input type="hidden" name="_wpnonce" value={form.nonce} data-nonce-action="product_review" />
      <fieldset
        className="review-form__rating"
        aria-describedby={errors.rating ? 'review-rating-error' : undefined}
      >
        <legend>
          Your rating <span aria-hidden="true">*</span>
          <span className="screen-reader-text">(required)</span>
        </legend>
        <div className="review-form__stars">
          {[5, 4, 3, 2, 1].map((stars) => (
            <label key={stars} className="review-form__star">
              <input
                type="radio"
                name="rating"
                value={stars}
                defaultChecked={values.rating === String(stars)}
                required
              />{' '}
              <span aria-hidden="true">{'★'.repeat(stars)}</span>{' '}
              <span>
                {stars} {stars === 1 ? 'star' : 'stars'}
                <span className="review-form__star-word">, {STAR_WORDS[stars]}</span>
              </span>
            </label>
          ))}
        </div>
        <FieldError id="review-rating-error" message={errors.rating} />
      </fieldset>
      <p className="review-form__field">
        <label htmlFor="review-content">
          Your review <span aria-hidden="true">*</span>
          <span className="screen-reader-text">(required)</span>
        </label>
        <textarea
          id="review-content"
          name="content"
          rows={6}
          maxLength={REVIEW_LIMITS.content}
          required
          defaultValue={values.content}
          aria-invalid={errors.content ? true : undefined}
          aria-describedby={described('content', 'review-content-hint')}
        />
        <span id="review-content-hint" className="review-form__hint">
          Plain text, up to {REVIEW_LIMITS.content.toLocaleString('en-US')} characters.
        </span>
        <FieldError id="review-content-error" message={errors.content} />
      </p>
      <p className="review-form__field">
        <label htmlFor="review-reviewer">
          Name <span aria-hidden="true">*</span>
          <span className="screen-reader-text">(required)</span>
        </label>
        <input
          id="review-reviewer"
          name="reviewer"
          type="text"
          autoComplete="name"
          maxLength={REVIEW_LIMITS.reviewer}
          required
          defaultValue={values.reviewer}
          aria-invalid={errors.reviewer ? true : undefined}
          aria-describedby={described('reviewer')}
        />
        <FieldError id="review-reviewer-error" message={errors.reviewer} />
      </p>
      <p className="review-form__field">
        <label htmlFor="review-email">
          Email <span aria-hidden="true">*</span>
          <span className="screen-reader-text">(required)</span>
        </label>
        <input
          id="review-email"
          name="email"
          type="email"
          autoComplete="email"
          maxLength={REVIEW_LIMITS.email}
          required
          defaultValue={values.email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={described('email', 'review-email-hint')}
        />
        <span id="review-email-hint" className="review-form__hint">
          Never shown. It marks your review “Verified owner” when it is the address of your order.
        </span>
        <FieldError id="review-email-error" message={errors.email} />
      </p>
      {/* Robots fill every field; people never see this one, nor reach it by keyboard. */}
      <div className="review-form__trap" aria-hidden="true">
        <label htmlFor="review-website">Leave this field empty</label>
        <input id="review-website" name="review_website" type="text" tabIndex={-1} autoComplete="off" />
      </div>
      <p>
        <button type="submit" className="button">
          Submit review
        </button>
      </p>
    </form>
  );
}
