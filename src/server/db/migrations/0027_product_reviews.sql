-- Product reviews and the rating figures kept with the product.
--
-- products.rating_average and products.rating_count stay what every listing, suggestion and page reads. They are
-- the imported rating (the sidecar's `rating`, kept in rating_imported_*) until the product has an approved
-- review; from the first approved review on they are the approved reviews' own average and count, recomputed from
-- this table in the same transaction as every approval, unapproval and deletion (docs/reviews.md).
ALTER TABLE products ADD COLUMN rating_imported_average REAL NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN rating_imported_count INTEGER NOT NULL DEFAULT 0;
UPDATE products SET rating_imported_average = rating_average, rating_imported_count = rating_count;

-- One row per review. `email` is private: only the owner's moderation page shows it. `verified` is decided when
-- the review is written (the email had a processing or completed order holding the product), as WooCommerce does.
CREATE TABLE product_reviews (
  id          INTEGER PRIMARY KEY,
  product_id  INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  status      TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'spam')),
  rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  reviewer    TEXT NOT NULL,
  email       TEXT NOT NULL,
  content     TEXT NOT NULL,
  verified    INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX product_reviews_product ON product_reviews (product_id, status, created_at);
CREATE INDEX product_reviews_status ON product_reviews (status, created_at);
