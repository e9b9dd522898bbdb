-- Keys for the WooCommerce REST API (/wp-json/wc/v3/) and WooCommerce's product trash.

-- One row per key the owner made. The consumer key and secret are never stored: `key_hash` is the SHA-256 of
-- the consumer key (hex; looked up), `secret_hash` the SHA-256 of the secret (hex; compared in constant time),
-- both 256-bit random values, so a fast hash is enough. `truncated_key` is the key's last 7 characters, which
-- the back office shows to tell keys apart. A revoked key keeps its row (`revoked_at`), so the list shows it.
CREATE TABLE api_keys (
  id            INTEGER PRIMARY KEY,
  description   TEXT NOT NULL,
  permissions   TEXT NOT NULL CHECK (permissions IN ('read', 'write', 'read_write')),
  key_hash      TEXT NOT NULL UNIQUE,
  secret_hash   TEXT NOT NULL,
  truncated_key TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  last_access   INTEGER,
  revoked_at    INTEGER
);

-- When a product went to WooCommerce's trash (Unix milliseconds); null when it is not there. A trashed product is
-- also stored as a draft, so every shopper query (which asks for status = 'publish') hides it.
ALTER TABLE products ADD COLUMN trashed_at INTEGER;
