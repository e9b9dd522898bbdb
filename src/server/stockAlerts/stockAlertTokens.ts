import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * An address is never put in a URL. Its alerts are found by `emailKey`, an HMAC of the lower-cased address with
 * the shop's secret; the unsubscribe link carries that key and a signature of it, so a link cannot be made up for
 * someone else's key, and a changed one is refused in words before the database is asked.
 */

const KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function stockAlertEmailKey(secret: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`stock-alert-email|${normalizeEmail(email)}`)
    .digest('base64url');
}

function signature(secret: string, emailKey: string): string {
  return createHmac('sha256', secret)
    .update(`stock-alert-unsubscribe|${emailKey}`)
    .digest('base64url')
    .slice(0, 22);
}

export function unsubscribeToken(secret: string, emailKey: string): string {
  return `${emailKey}.${signature(secret, emailKey)}`;
}

/** The email key of a genuine token; null for anything else. */
export function verifyUnsubscribeToken(secret: string, token: unknown): string | null {
  if (typeof token !== 'string') return null;
  const [emailKey, given, extra] = token.split('.');
  if (extra !== undefined || !emailKey || !given || !KEY_PATTERN.test(emailKey)) return null;
  const expected = Buffer.from(signature(secret, emailKey));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? emailKey : null;
}
