/* The WooCommerce REST API's keys as the back office shows them (never their consumer key or secret). */

export const API_KEY_PERMISSIONS = ['read', 'write', 'read_write'] as const;
export type ApiKeyPermissions = (typeof API_KEY_PERMISSIONS)[number];

/** A key as the back office lists it: never its consumer key or secret, which are not stored. */
export interface ApiKey {
  id: number;
  description: string;
  permissions: ApiKeyPermissions;
  /** The consumer key's last 7 characters, to tell keys apart. */
  truncatedKey: string;
  /** Unix milliseconds. */
  createdAt: number;
  /** The last authenticated call (to the minute); null before the first. */
  lastAccess: number | null;
  revokedAt: number | null;
}

/** How the back office names each permission. */
export const API_KEY_PERMISSION_LABELS: Record<ApiKeyPermissions, string> = {
  read: 'Read',
  write: 'Write',
  read_write: 'Read/Write',
};
