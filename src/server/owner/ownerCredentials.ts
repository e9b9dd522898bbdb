import { createHmac, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

/*
 * The shop owner's credentials (settings `server.ownerPasswordHash`, `server.ownerToken`): their format, their
 * minimum strength and the one check of a secret against them. Checks run scrypt asynchronously (on libuv's
 * thread pool), so a stream of login tries never blocks the event loop that serves shoppers.
 */

/** Shorter passwords are refused where the hash is made (the settings only ever hold the hash). */
export const MIN_OWNER_PASSWORD_LENGTH = 10;

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export interface OwnerCredentials {
  ownerPasswordHash: string | null;
  ownerToken: string | null;
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The value of `server.ownerPasswordHash` for a password (`npm run owner-password`); refuses a short one. */
export function hashOwnerPassword(password: string, salt = randomBytes(16)): string {
  if (password.length < MIN_OWNER_PASSWORD_LENGTH)
    throw new Error(`The owner password must be at least ${MIN_OWNER_PASSWORD_LENGTH} characters long.`);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(password, salt, 32).toString('base64url')}`;
}

export async function verifyOwnerPassword(password: string, hash: string): Promise<boolean> {
  const [scheme, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  if (expected.length === 0) return false;
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** Whether `secret` is the owner token (constant time, no scrypt). */
export function isOwnerToken(credentials: OwnerCredentials, secret: string): boolean {
  return secret !== '' && credentials.ownerToken !== null && safeEqual(secret, credentials.ownerToken);
}

/** True when `secret` is the owner token or the owner's password (checked against its hash). */
export async function isOwnerCredential(credentials: OwnerCredentials, secret: string): Promise<boolean> {
  if (secret === '') return false;
  if (isOwnerToken(credentials, secret)) return true;
  return credentials.ownerPasswordHash !== null && verifyOwnerPassword(secret, credentials.ownerPasswordHash);
}

/**
 * A keyed fingerprint of the current credentials: sessions and known devices carry it, so changing the password
 * or the token ends every session and forgets every device.
 */
export function credentialsFingerprint(secret: string, credentials: OwnerCredentials): string {
  return createHmac('sha256', secret)
    .update(`owner-credentials|${credentials.ownerPasswordHash}|${credentials.ownerToken}`)
    .digest('base64url');
}
