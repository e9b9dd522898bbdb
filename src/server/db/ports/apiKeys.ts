/* Keys of the WooCommerce REST API (migration 0025): made and revoked by the owner, checked on every API call. */

import type { ApiKey, ApiKeyPermissions } from '../../../shared/apiKeys/apiKeyTypes';

export { API_KEY_PERMISSIONS } from '../../../shared/apiKeys/apiKeyTypes';
export type { ApiKey, ApiKeyPermissions };

export interface NewApiKey {
  description: string;
  permissions: ApiKeyPermissions;
  /** SHA-256 (hex) of the consumer key and of the consumer secret. */
  keyHash: string;
  secretHash: string;
  truncatedKey: string;
  now: number;
}

export interface ApiKeyRepository {
  createApiKey(key: NewApiKey): Promise<ApiKey>;
  /** Newest first, revoked ones too. */
  listApiKeys(): Promise<ApiKey[]>;
  /** The key whose consumer key hashes to `keyHash`, with its secret's hash, unless it was revoked. */
  findLiveApiKey(keyHash: string): Promise<(ApiKey & { secretHash: string }) | null>;
  /** Records a call; written at most once a minute per key, so busy clients cost no write per request. */
  touchApiKey(id: number, now: number): Promise<void>;
  /** False when there is no such live key. */
  revokeApiKey(id: number, now: number): Promise<boolean>;
}
