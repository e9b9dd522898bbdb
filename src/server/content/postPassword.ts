import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RateLimit, RateLimiter, RateVerdict } from '../security/rateLimiter';

/* WordPress compares a page password as given; we keep only a salted hash of it. */

export function hashPostPassword(password: string, salt = randomBytes(8).toString('hex')): string {
  return `${salt}$${createHash('sha256').update(`${salt}:${password}`).digest('hex')}`;
}

export function checkPostPassword(password: string, stored: string): boolean {
  const [salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const given = Buffer.from(createHash('sha256').update(`${salt}:${password}`).digest('hex'));
  const expected = Buffer.from(hash);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/*
 * Guessing a page password is throttled twice, both counted in the shared rate_limits table:
 * - per address and page, 10 tries per 15 minutes: a person who mistypes a few times is never stopped, one
 *   address can try at most 960 passwords a day, and a right password clears that address's count;
 * - per page, 100 tries per hour from all addresses together: many addresses (a botnet) still get no more than
 *   2,400 guesses a day. The price is that a flood of wrong tries can keep the form closed for the rest of the
 *   hour; visitors who already unlocked the page keep reading it (their cookie is not a try).
 * Every try is counted before the password is compared, so concurrent guesses cannot slip past the count, and
 * a refused try is never compared at all, so a throttled guess learns nothing, right or wrong.
 */
const PASSWORD_TRIES_PER_ADDRESS: RateLimit = {
  name: 'post-password-address',
  limit: 10,
  windowMs: 15 * 60 * 1000,
};
const PASSWORD_TRIES_PER_PAGE: RateLimit = {
  name: 'post-password-page',
  limit: 100,
  windowMs: 60 * 60 * 1000,
};

type PasswordTry = { result: 'right' | 'wrong' } | { result: 'throttled'; verdict: RateVerdict };

/** One visitor's try at a protected page's password, counted against both limits first. */
export async function tryPostPassword(
  limiter: RateLimiter,
  attempt: { postId: number; passwordHash: string; password: string; address: string },
): Promise<PasswordTry> {
  const addressAndPage = `${attempt.address}|${attempt.postId}`;
  const byAddress = await limiter.take(PASSWORD_TRIES_PER_ADDRESS, addressAndPage);
  if (!byAddress.allowed) return { result: 'throttled', verdict: byAddress };
  // Only tries an address was allowed count for the page, so one address alone uses at most its own share.
  const byPage = await limiter.take(PASSWORD_TRIES_PER_PAGE, String(attempt.postId));
  if (!byPage.allowed) return { result: 'throttled', verdict: byPage };
  if (!checkPostPassword(attempt.password, attempt.passwordHash)) return { result: 'wrong' };
  await limiter.reset(PASSWORD_TRIES_PER_ADDRESS, addressAndPage);
  return { result: 'right' };
}
