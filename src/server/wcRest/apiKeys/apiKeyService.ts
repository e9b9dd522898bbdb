import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ShopError } from '../../../shared/errors/ShopError';
import type { ApiKey, ApiKeyPermissions, ApiKeyRepository } from '../../db/ports';
import { API_KEY_PERMISSIONS } from '../../db/ports';

/*
 * The WooCommerce REST API's keys in one home: the back office's page and `npm run owner -- api-key` make and
 * revoke them here, and every API call is checked here. Keys look like WooCommerce's (`ck_` and `cs_` followed
 * by 40 hex digits, 160 random bits each); the database keeps only SHA-256 hashes of both, so a copy of it
 * authenticates nothing. Being long and random, they need no slow hash.
 */

export const MAX_DESCRIPTION_LENGTH = 200;

/** A new key as it is shown once: the consumer key and secret are nowhere else. */
export interface IssuedApiKey {
  key: ApiKey;
  consumerKey: string;
  consumerSecret: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const CONSUMER_KEY = /^ck_[0-9a-f]{40}$/;
const CONSUMER_SECRET = /^cs_[0-9a-f]{40}$/;

export function isApiKeyPermissions(value: string): value is ApiKeyPermissions {
  return (API_KEY_PERMISSIONS as readonly string[]).includes(value);
}

/** Whether a key with these permissions may do a read (GET) or a write (anything else). */
export function permits(permissions: ApiKeyPermissions, access: 'read' | 'write'): boolean {
  return permissions === 'read_write' || permissions === access;
}

export interface ApiKeyService {
  create(input: { description: string; permissions: string }): Promise<IssuedApiKey>;
  list(): Promise<ApiKey[]>;
  /** Throws not_found for a key that does not exist or is already revoked. */
  revoke(id: number): Promise<void>;
  /** The live key these credentials open, or null (a wrong key, a wrong secret, a revoked key alike). */
  verify(consumerKey: string, consumerSecret: string): Promise<ApiKey | null>;
}

export function createApiKeyService(
  keys: ApiKeyRepository,
  now: () => number = () => Date.now(),
): ApiKeyService {
  return {
    async create({ description, permissions }) {
      const text = description.trim();
      if (text === '') throw new ShopError('invalid_request', 'Describe the key (what will use it).');
      if (text.length > MAX_DESCRIPTION_LENGTH)
        throw new ShopError(
          'invalid_request',
          `A description is at most ${MAX_DESCRIPTION_LENGTH} characters.`,
        );
      if (!isApiKeyPermissions(permissions))
        throw new ShopError('invalid_request', 'Choose the permissions: read, write or read_write.');
      const consumerKey = `ck_${randomBytes(20).toString('hex')}`;
      const consumerSecret = `cs_${randomBytes(20).toString('hex')}`;
      const key = await keys.createApiKey({
        description: text,
        permissions,
        keyHash: sha256(consumerKey),
        secretHash: sha256(consumerSecret),
        truncatedKey: consumerKey.slice(-7),
        now: now(),
      });
      return { key, consumerKey, consumerSecret };
    },
    list: () => keys.listApiKeys(),
    async revoke(id) {
      if (!(await keys.revokeApiKey(id, now())))
        throw new ShopError('not_found', 'There is no such key, or it was already revoked.');
    },
    async verify(consumerKey, consumerSecret) {
      if (!CONSUMER_KEY.test(consumerKey) || !CONSUMER_SECRET.test(consumerSecret)) return null;
      const found = await keys.findLiveApiKey(sha256(consumerKey));
      if (!found) return null;
      const given = Buffer.from(sha256(consumerSecret), 'hex');
      const stored = Buffer.from(found.secretHash, 'hex');
      if (given.length !== stored.length || !timingSafeEqual(given, stored)) return null;
      const at = now();
      await keys.touchApiKey(found.id, at);
      const { secretHash: _secretHash, ...key } = found;
      return key;
    },
  };
}
