-- The owner's product editing and back-office CSV imports.

-- WooCommerce's "private" status: only the owner sees the product. A private product is stored with status
-- 'draft' as well, so every shopper query (which asks for status = 'publish') hides it without knowing this flag.
ALTER TABLE products ADD COLUMN is_private INTEGER NOT NULL DEFAULT 0;
-- Whether a product whose stock is managed may be ordered past zero (WooCommerce's "Allow backorders?").
ALTER TABLE products ADD COLUMN backorders TEXT NOT NULL DEFAULT 'no' CHECK (backorders IN ('no', 'notify', 'yes'));

-- One row per CSV uploaded from the back office. The row is the job's whole state (the file, its progress and
-- its summary), so any server process can show the progress of an import another process runs.
CREATE TABLE product_import_jobs (
  id         TEXT PRIMARY KEY,
  status     TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
  file_name  TEXT NOT NULL,
  csv        TEXT NOT NULL,
  done       INTEGER NOT NULL DEFAULT 0,
  total      INTEGER NOT NULL DEFAULT 0,
  summary    TEXT,
  error      TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
