import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/*
 * The shop owner's credentials (settings `server.ownerPasswordHash`, `server.ownerToken`): one home for checking
 * them and for the owner cookie of the visitor statistics, shared by the statistics plugin (issue 7) and the
 * owner's insights (issue 13).
 */

export const OWNER_COOKIE = 'shop_owner';

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value of the statistics owner cookie (its visits are not counted); null without an owner token. */
export function statsOwnerCookieValue(secret: string, ownerToken: string | null): string | null {
  return ownerToken ? createHmac('sha256', secret).update(`stats-owner|${ownerToken}`).digest('hex') : null;
}

/** `scrypt$<salt>$<key>` (base64url), the format of `server.ownerPasswordHash`. */
export function hashOwnerPassword(password: string, salt = randomBytes(16)): string {
  return `scrypt$${salt.toString('base64url')}$${scryptSync(password, salt, 32).toString('base64url')}`;
}

export function verifyOwnerPassword(password: string, hash: string): boolean {
  const [scheme, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = scryptSync(password, Buffer.from(salt, 'base64url'), expected.length || 32);
  return expected.length > 0 && timingSafeEqual(actual, expected);
}

/** True when `secret` is the owner's password (against its hash) or the owner token. */
export function isOwnerCredential(
  server: { ownerPasswordHash: string | null; ownerToken: string | null },
  secret: string,
): boolean {
  if (secret === '') return false;
  const byToken = server.ownerToken !== null && safeEqual(secret, server.ownerToken);
  const byPassword =
    server.ownerPasswordHash !== null && verifyOwnerPassword(secret, server.ownerPasswordHash);
  return byToken || byPassword;
}
