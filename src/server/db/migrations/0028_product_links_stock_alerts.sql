-- Merchandising and back-in-stock alerts.

-- Upsells and cross-sells, as WooCommerce's CSV lists them (its `Upsells` and `Cross-sells` columns), in the order
-- the row lists them. Upsells show on the product page, cross-sells on the cart page.
CREATE TABLE product_links (
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  kind       TEXT NOT NULL CHECK (kind IN ('upsell', 'cross_sell')),
  linked_id  INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  position   INTEGER NOT NULL,
  PRIMARY KEY (product_id, kind, linked_id)
);
CREATE INDEX product_links_linked ON product_links (linked_id);

-- "Customers also bought": how many orders held both products (parents, not variations). Both directions are
-- stored, so a product's list is one index range. Counted in the order's own transaction, by an atomic upsert.
CREATE TABLE product_co_purchases (
  product_id  INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  other_id    INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  order_count INTEGER NOT NULL,
  PRIMARY KEY (product_id, other_id)
);
CREATE INDEX product_co_purchases_other ON product_co_purchases (other_id);
-- Orders placed before this migration count too (order lines name the parent product; one naming a product
-- deleted since is left out).
INSERT INTO product_co_purchases (product_id, other_id, order_count)
SELECT a.product_id, b.product_id, COUNT(DISTINCT a.order_id)
  FROM order_items a
  JOIN order_items b ON b.order_id = a.order_id AND b.product_id <> a.product_id
 WHERE a.product_id IN (SELECT id FROM products) AND b.product_id IN (SELECT id FROM products)
 GROUP BY a.product_id, b.product_id;

-- "Notify me when available": one row per address and product (or variation) until its mail is queued. The
-- address is kept to mail it; `email_key` (an HMAC of the lower-cased address with the shop's secret) finds an
-- address's alerts for the unsubscribe link without putting the address in a URL. `due` is set by the trigger
-- below in the same transaction as the stock change that brings the product back; a sender turns due rows into
-- outbox mail and deletes them in one transaction.
CREATE TABLE stock_alerts (
  id         INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  email      TEXT NOT NULL,
  email_key  TEXT NOT NULL,
  due        INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  UNIQUE (product_id, email_key)
);
CREATE INDEX stock_alerts_due ON stock_alerts (due, id);
CREATE INDEX stock_alerts_email ON stock_alerts (email_key);

-- The one place that sees a product come back: every path that writes stock (an import, the owner's edit, a
-- cancelled or refunded order giving stock back, a variable product's status derived from its variations) updates
-- these columns, so the trigger marks the product's alerts due whichever of them did it. Available means what
-- purchasableQuantity says: not out of stock, and a managed stock above zero unless on backorder.
-- engine: sqlite
CREATE TRIGGER products_back_in_stock AFTER UPDATE OF stock_status, stock_quantity ON products
WHEN NOT (OLD.stock_status <> 'outofstock'
          AND (OLD.stock_status = 'onbackorder' OR OLD.stock_quantity IS NULL OR OLD.stock_quantity > 0))
 AND (NEW.stock_status <> 'outofstock'
      AND (NEW.stock_status = 'onbackorder' OR NEW.stock_quantity IS NULL OR NEW.stock_quantity > 0))
BEGIN
  UPDATE stock_alerts SET due = 1 WHERE product_id = NEW.id AND due = 0;
END;
-- engine: end
-- engine: postgres
CREATE FUNCTION products_back_in_stock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (OLD.stock_status <> 'outofstock'
          AND (OLD.stock_status = 'onbackorder' OR OLD.stock_quantity IS NULL OR OLD.stock_quantity > 0))
     AND (NEW.stock_status <> 'outofstock'
          AND (NEW.stock_status = 'onbackorder' OR NEW.stock_quantity IS NULL OR NEW.stock_quantity > 0)) THEN
    UPDATE stock_alerts SET due = 1 WHERE product_id = NEW.id AND due = 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER products_back_in_stock AFTER UPDATE OF stock_status, stock_quantity ON products
  FOR EACH ROW EXECUTE FUNCTION products_back_in_stock();
-- engine: end

-- The outbox carries mail that belongs to no order (back-in-stock alerts): order_id may be null. SQLite cannot
-- drop a NOT NULL; removing it from the stored definition is one of the edits its documentation allows in place.
-- engine: sqlite
PRAGMA writable_schema = ON;
UPDATE sqlite_master
SET sql = replace(sql, 'order_id        INTEGER NOT NULL REFERENCES orders(id)', 'order_id        INTEGER REFERENCES orders(id)')
WHERE type = 'table' AND name = 'mail_outbox';
PRAGMA writable_schema = RESET;
-- engine: end
-- engine: postgres
ALTER TABLE mail_outbox ALTER COLUMN order_id DROP NOT NULL;
-- engine: end
