import { describe, expect, it } from 'vitest';
import { createNonce, verifyNonce } from './nonces';

const SECRET = 'a'.repeat(40);
const HOUR = 60 * 60 * 1000;
// One hour into a 12-hour tick, so "12 hours later" lands in the next tick and "24 hours later" two ticks on.
const NOW = 20_000 * 12 * HOUR + HOUR;

describe('createNonce / verifyNonce', () => {
  const nonce = createNonce(SECRET, 'cart', 'session-1', NOW);

  it('makes a 22-character URL-safe string', () => {
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('verifies for the same secret, action and session', () => {
    expect(verifyNonce(SECRET, nonce, 'cart', 'session-1', NOW)).toBe(true);
  });

  it('is the same for the same inputs and differs for another session', () => {
    expect(createNonce(SECRET, 'cart', 'session-1', NOW)).toBe(nonce);
    expect(createNonce(SECRET, 'cart', 'session-2', NOW)).not.toBe(nonce);
  });

  it('fails for another action', () => {
    expect(verifyNonce(SECRET, nonce, 'checkout', 'session-1', NOW)).toBe(false);
  });

  it('fails for another session', () => {
    expect(verifyNonce(SECRET, nonce, 'cart', 'session-2', NOW)).toBe(false);
    expect(verifyNonce(SECRET, nonce, 'cart', '', NOW)).toBe(false);
  });

  it('fails for another secret', () => {
    expect(verifyNonce('b'.repeat(40), nonce, 'cart', 'session-1', NOW)).toBe(false);
  });

  it('fails for a tampered string', () => {
    const last = nonce.at(-1) === 'A' ? 'B' : 'A';
    expect(verifyNonce(SECRET, `${nonce.slice(0, -1)}${last}`, 'cart', 'session-1', NOW)).toBe(false);
    expect(verifyNonce(SECRET, nonce.slice(0, -1), 'cart', 'session-1', NOW)).toBe(false);
    expect(verifyNonce(SECRET, `${nonce}A`, 'cart', 'session-1', NOW)).toBe(false);
    expect(verifyNonce(SECRET, '', 'cart', 'session-1', NOW)).toBe(false);
  });

  it.each([undefined, null, 42, ['x'], { nonce: 'x' }])('fails for a non-string %j', (value) => {
    expect(verifyNonce(SECRET, value, 'cart', 'session-1', NOW)).toBe(false);
  });

  it('fails for a non-string holding the right characters', () => {
    expect(verifyNonce(SECRET, [nonce], 'cart', 'session-1', NOW)).toBe(false);
    expect(verifyNonce(SECRET, Buffer.from(nonce), 'cart', 'session-1', NOW)).toBe(false);
  });

  it('is still valid one tick (12 hours) later', () => {
    expect(verifyNonce(SECRET, nonce, 'cart', 'session-1', NOW + 12 * HOUR)).toBe(true);
    expect(verifyNonce(SECRET, nonce, 'cart', 'session-1', NOW + 22 * HOUR)).toBe(true);
  });

  it('is invalid 24 hours or more later', () => {
    expect(verifyNonce(SECRET, nonce, 'cart', 'session-1', NOW + 24 * HOUR)).toBe(false);
    expect(verifyNonce(SECRET, nonce, 'cart', 'session-1', NOW + 72 * HOUR)).toBe(false);
  });

  it('is not valid before the tick it was made in', () => {
    expect(verifyNonce(SECRET, nonce, 'cart', 'session-1', NOW - 12 * HOUR)).toBe(false);
  });
});
