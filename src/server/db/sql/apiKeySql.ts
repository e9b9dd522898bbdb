import type { ApiKey, ApiKeyPermissions } from '../ports';

/* The API keys' SQL, alike on both engines (`@name` placeholders; PostgreSQL's adapter runs them with queryNamed). */

const COLUMNS = `id, description, permissions, truncated_key, created_at, last_access, revoked_at`;

export const INSERT_API_KEY = `INSERT INTO api_keys (description, permissions, key_hash, secret_hash, truncated_key, created_at)
  VALUES (@description, @permissions, @keyHash, @secretHash, @truncatedKey, @now) RETURNING ${COLUMNS}`;

export const LIST_API_KEYS = `SELECT ${COLUMNS} FROM api_keys ORDER BY id DESC`;

export const FIND_LIVE_API_KEY = `SELECT ${COLUMNS}, secret_hash FROM api_keys
  WHERE key_hash = @keyHash AND revoked_at IS NULL`;

/** Once a minute at most: a client's burst of calls writes one row once. */
export const TOUCH_API_KEY = `UPDATE api_keys SET last_access = @now
  WHERE id = @id AND (last_access IS NULL OR last_access < @staleBefore)`;

/** A key's last access is written again once it is this old. */
export const LAST_ACCESS_RESOLUTION_MS = 60_000;

export const REVOKE_API_KEY = `UPDATE api_keys SET revoked_at = @now WHERE id = @id AND revoked_at IS NULL RETURNING id`;

export interface ApiKeyRow {
  id: number | string;
  description: string;
  permissions: ApiKeyPermissions;
  truncated_key: string;
  created_at: number | string;
  last_access: number | string | null;
  revoked_at: number | string | null;
  secret_hash?: string;
}

const time = (value: number | string | null) => (value === null ? null : Number(value));

export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: Number(row.id),
    description: row.description,
    permissions: row.permissions,
    truncatedKey: row.truncated_key,
    createdAt: Number(row.created_at),
    lastAccess: time(row.last_access),
    revokedAt: time(row.revoked_at),
  };
}
