import {
  REVIEW_LIMITS,
  type ReviewFieldErrors,
  type ReviewFormValues,
} from '../../shared/reviews/reviewTypes';
import { isEmail } from '../../shared/validation/isEmail';

/*
 * The review form as posted: read as strings (so the form can be shown again with what was typed), then checked
 * field by field into messages a person reads. Reviews are plain text: markup is kept as typed and always shown
 * escaped, never interpreted.
 */

export type { ReviewFieldErrors, ReviewFormValues };

export const EMPTY_REVIEW_FORM: ReviewFormValues = { rating: '', reviewer: '', email: '', content: '' };

/** The honeypot's name: a field people never see nor reach, which only form-filling robots fill in. */
export const REVIEW_HONEYPOT = 'review_website';

/** Anything longer than this many times a limit is cut on reading, so a huge post costs nothing to show again. */
const READ_SLACK = 2;

function stringField(body: Record<string, unknown>, name: string, limit: number): string {
  const value = body[name];
  return typeof value === 'string' ? value.slice(0, limit * READ_SLACK) : '';
}

export function readReviewForm(body: Record<string, unknown>): ReviewFormValues {
  return {
    rating: stringField(body, 'rating', 1),
    reviewer: stringField(body, 'reviewer', REVIEW_LIMITS.reviewer),
    email: stringField(body, 'email', REVIEW_LIMITS.email),
    content: stringField(body, 'content', REVIEW_LIMITS.content),
  };
}

/** Control characters other than line breaks and tabs are dropped; line breaks become `\n`. */
function cleanText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
      .trim()
  );
}

export interface ValidReview {
  rating: number;
  reviewer: string;
  email: string;
  content: string;
}

export function validateReviewForm(
  values: ReviewFormValues,
): { ok: true; review: ValidReview } | { ok: false; errors: ReviewFieldErrors } {
  const errors: ReviewFieldErrors = {};
  const rating = /^[1-5]$/.test(values.rating) ? Number(values.rating) : null;
  if (rating === null) errors.rating = 'Choose a rating from 1 to 5 stars.';

  const reviewer = cleanText(values.reviewer).replace(/\s+/g, ' ');
  if (reviewer === '') errors.reviewer = 'Enter your name.';
  else if (reviewer.length > REVIEW_LIMITS.reviewer)
    errors.reviewer = `Your name is too long: at most ${REVIEW_LIMITS.reviewer} characters.`;

  const email = values.email.trim();
  if (email === '') errors.email = 'Enter your email address.';
  else if (email.length > REVIEW_LIMITS.email || !isEmail(email) || email.startsWith('mailto:'))
    errors.email = 'Enter a valid email address, like name@example.com.';

  const content = cleanText(values.content);
  if (content === '') errors.content = 'Write your review.';
  else if (content.length > REVIEW_LIMITS.content)
    errors.content = `Your review is too long: at most ${REVIEW_LIMITS.content.toLocaleString('en-US')} characters (it has ${content.length.toLocaleString('en-US')}).`;

  if (rating === null || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, review: { rating, reviewer, email, content } };
}
