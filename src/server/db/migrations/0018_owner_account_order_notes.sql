-- The back office: the owner's account (password set by `npm run owner -- set-password`), order notes, the
-- statuses WooCommerce has that the first schema lacked, and whether an order's items still hold stock.

-- One row at most: the shop has one owner. `password_hash` is `scrypt$salt$key` (owner/ownerCredentials.ts); a
-- hash in the settings file (server.ownerPasswordHash) wins over this one.
CREATE TABLE owner_account (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  password_hash TEXT NOT NULL,
  email         TEXT,
  updated_at    INTEGER NOT NULL
);

-- The order's history: the owner's private notes and the automatic ones ("Status changed from … to …", mail sent).
CREATE TABLE order_notes (
  id         INTEGER PRIMARY KEY,
  order_id   INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  author     TEXT NOT NULL CHECK (author IN ('system', 'owner')),
  body       TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX order_notes_order ON order_notes (order_id, id);

-- 1 while the order's items are taken from stock (placing an order takes them); cancelling or refunding gives them
-- back once and sets 0, under the order's row lock, so a second click finds 0 and gives nothing.
ALTER TABLE orders ADD COLUMN stock_reduced INTEGER NOT NULL DEFAULT 1;
UPDATE orders SET stock_reduced = 0 WHERE status = 'cancelled';

-- The back office lists newest first, filtered by status.
CREATE INDEX orders_created ON orders (created_at, id);
CREATE INDEX orders_status_created ON orders (status, created_at, id);

-- Statuses as WooCommerce has them: 'refunded' and 'failed' join the first five. SQLite cannot alter a CHECK, and
-- rebuilding the table would drop the columns later migrations add to it, so its stored definition is edited in
-- place (SQLite's documented procedure for changing a CHECK; the migration runner allows it) and reloaded.
-- engine: sqlite
PRAGMA writable_schema = ON;
UPDATE sqlite_master
SET sql = replace(sql,
  'CHECK (status IN (''pending'', ''processing'', ''on-hold'', ''completed'', ''cancelled''))',
  'CHECK (status IN (''pending'', ''processing'', ''on-hold'', ''completed'', ''cancelled'', ''refunded'', ''failed''))')
WHERE type = 'table' AND name = 'orders';
PRAGMA writable_schema = RESET;
-- engine: end
-- engine: postgres
ALTER TABLE orders DROP CONSTRAINT orders_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_status_check
  CHECK (status IN ('pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed'));
-- engine: end
