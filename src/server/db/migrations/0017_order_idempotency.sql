-- Orders exactly once: each checkout form carries a key minted with the page, stored on the order it made. A
-- replayed submit (double click, refresh, a retry after a dropped connection) finds its order by the key instead
-- of making another; the unique index is the rule that holds even when two submits race in two processes.
ALTER TABLE orders ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX orders_idempotency_key ON orders (idempotency_key);
