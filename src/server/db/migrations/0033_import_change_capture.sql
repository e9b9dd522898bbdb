-- Change capture for imports: an import writes one change per changed product to search_changes itself, in one
-- statement, instead of the per-row triggers upserting a change for every row of products, product_terms and
-- product_attribute_terms it writes (one product's category links alone fired one upsert per link, and on
-- PostgreSQL the same few category rows were updated tens of thousands of times in one transaction).
--
-- SQLite: while an import runs it holds one row here, inserted and deleted inside its own transaction: no other
-- connection ever sees the row, so every other writer (the back office, orders, reviews) is still recorded by the
-- triggers, and the import's own rows are not. (The table exists on PostgreSQL too, so both engines have the same
-- tables; PostgreSQL pauses with a transaction-local setting instead, below.)
CREATE TABLE search_capture_paused (
  paused INTEGER PRIMARY KEY
);

-- engine: sqlite
DROP TRIGGER search_products_insert;
DROP TRIGGER search_products_update;
DROP TRIGGER search_products_delete;
DROP TRIGGER search_product_terms_insert;
DROP TRIGGER search_product_terms_delete;
DROP TRIGGER search_product_attribute_terms_insert;
DROP TRIGGER search_product_attribute_terms_delete;

CREATE TRIGGER search_products_insert AFTER INSERT ON products
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', coalesce(NEW.parent_id, NEW.id));
END;
CREATE TRIGGER search_products_update AFTER UPDATE ON products
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', coalesce(NEW.parent_id, NEW.id));
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(OLD.parent_id, OLD.id)
    AND coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id)
    SELECT 'product', coalesce(OLD.parent_id, OLD.id) WHERE coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id);
END;
CREATE TRIGGER search_products_delete AFTER DELETE ON products
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(OLD.parent_id, OLD.id);
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', coalesce(OLD.parent_id, OLD.id));
END;
CREATE TRIGGER search_product_terms_insert AFTER INSERT ON product_terms
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = NEW.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', NEW.product_id);
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = NEW.term_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('term', NEW.term_id);
END;
CREATE TRIGGER search_product_terms_delete AFTER DELETE ON product_terms
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = OLD.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', OLD.product_id);
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = OLD.term_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('term', OLD.term_id);
END;
CREATE TRIGGER search_product_attribute_terms_insert AFTER INSERT ON product_attribute_terms
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = NEW.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', NEW.product_id);
END;
CREATE TRIGGER search_product_attribute_terms_delete AFTER DELETE ON product_attribute_terms
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = OLD.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', OLD.product_id);
END;
-- engine: end

-- engine: postgres
-- PostgreSQL: the import sets `shop.search_capture` to 'paused' for its own transaction (SET LOCAL), and the
-- triggers' WHEN clause reads it before any function is called, so a row the import writes costs no trigger call.
-- Every other transaction sees the setting unset and is recorded as before.
DROP TRIGGER search_products ON products;
DROP TRIGGER search_product_terms ON product_terms;
DROP TRIGGER search_product_attribute_terms ON product_attribute_terms;
CREATE TRIGGER search_products AFTER INSERT OR UPDATE OR DELETE ON products
  FOR EACH ROW WHEN (current_setting('shop.search_capture', true) IS DISTINCT FROM 'paused')
  EXECUTE FUNCTION search_products_changed();
CREATE TRIGGER search_product_terms AFTER INSERT OR DELETE ON product_terms
  FOR EACH ROW WHEN (current_setting('shop.search_capture', true) IS DISTINCT FROM 'paused')
  EXECUTE FUNCTION search_product_terms_changed();
CREATE TRIGGER search_product_attribute_terms AFTER INSERT OR DELETE ON product_attribute_terms
  FOR EACH ROW WHEN (current_setting('shop.search_capture', true) IS DISTINCT FROM 'paused')
  EXECUTE FUNCTION search_product_attribute_terms_changed();
-- engine: end
