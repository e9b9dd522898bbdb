import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

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
