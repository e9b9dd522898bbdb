import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * WordPress-style nonces: an HMAC of the action, the visitor's session and a 12-hour tick, valid for the current
 * and the previous tick (12 to 24 hours). Derived from the shared secret alone, so every server process checks
 * what any other issued, and nothing is stored.
 */

const TICK_MS = 12 * 60 * 60 * 1000;

function sign(secret: string, action: string, sessionId: string, tick: number): string {
  return createHmac('sha256', secret)
    .update(`${tick}|${action}|${sessionId}`)
    .digest('base64url')
    .slice(0, 22);
}

export function createNonce(secret: string, action: string, sessionId: string, now = Date.now()): string {
  return sign(secret, action, sessionId, Math.floor(now / TICK_MS));
}

export function verifyNonce(
  secret: string,
  nonce: unknown,
  action: string,
  sessionId: string,
  now = Date.now(),
): boolean {
  if (typeof nonce !== 'string' || nonce.length !== 22) return false;
  const tick = Math.floor(now / TICK_MS);
  return [tick, tick - 1].some((candidate) => {
    const expected = Buffer.from(sign(secret, action, sessionId, candidate));
    const given = Buffer.from(nonce);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}
