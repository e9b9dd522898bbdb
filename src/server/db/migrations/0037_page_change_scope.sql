-- What a change shows beyond the object's own page, so each process's render cache drops exactly the pages a change
-- affects (src/server/render/pageCache, docs/scale-out.md "Exact invalidation"). The change log keeps one row per
-- object with the seq of its latest change; `wide_seq` is the seq of its latest change that shows *elsewhere*:
--   product: on listings, cards and counts (name, price, stock status, rating, visibility, …). A change of only its
--            stock count or its sales count (what each order writes) shows on the product's own page alone and keeps
--            the older wide_seq, so an order that does not sell out drops no listing. A save in the back office sets
--            the modification time, so it is wide even when what changed lives in another table (the image).
--   term:    its own name, slug, parent or description (menus, breadcrumbs, filters show them). A product joining or
--            leaving the term changes only the term's archive and keeps the older wide_seq.
--   vendor, post: every change is wide.
-- A reader at position P drops an object's own pages when seq > P and what shows it elsewhere when wide_seq > P.
-- A writer that does not say (wide_seq left NULL, or an UPDATE that moves seq alone) is counted wide: a forgotten
-- writer drops too much, never too little.
ALTER TABLE search_changes ADD COLUMN wide_seq INTEGER;
UPDATE search_changes SET wide_seq = seq;

-- SQLite moves a row to a new seq by delete + insert; a narrow change carries the old wide_seq across here (a row
-- lives only inside the trigger that writes it). PostgreSQL keeps it in the row it updates and leaves this empty.
CREATE TABLE search_change_carry (
  kind     TEXT NOT NULL,
  ref_id   INTEGER NOT NULL,
  wide_seq INTEGER NOT NULL
);

-- engine: sqlite
CREATE TRIGGER search_changes_wide AFTER INSERT ON search_changes WHEN NEW.wide_seq IS NULL BEGIN
  UPDATE search_changes SET wide_seq = NEW.seq WHERE seq = NEW.seq;
END;

DROP TRIGGER search_products_update;
-- Every column but stock_quantity and total_sales is compared (a test holds this list to the table's columns): any
-- other difference is a wide change.
CREATE TRIGGER search_products_update AFTER UPDATE ON products
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  INSERT INTO search_change_carry (kind, ref_id, wide_seq)
    SELECT 'product', coalesce(NEW.parent_id, NEW.id),
      coalesce((SELECT wide_seq FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id)), 0)
    WHERE OLD.id IS NEW.id AND OLD.type IS NEW.type AND OLD.parent_id IS NEW.parent_id AND OLD.sku IS NEW.sku
      AND OLD.slug IS NEW.slug AND OLD.name IS NEW.name AND OLD.status IS NEW.status AND OLD.featured IS NEW.featured
      AND OLD.visibility IS NEW.visibility AND OLD.short_description IS NEW.short_description
      AND OLD.description IS NEW.description AND OLD.regular_price IS NEW.regular_price
      AND OLD.sale_price IS NEW.sale_price AND OLD.stock_status IS NEW.stock_status
      AND OLD.sold_individually IS NEW.sold_individually AND OLD.is_virtual IS NEW.is_virtual
      AND OLD.is_downloadable IS NEW.is_downloadable AND OLD.external_url IS NEW.external_url
      AND OLD.button_text IS NEW.button_text AND OLD.menu_order IS NEW.menu_order
      AND OLD.rating_average IS NEW.rating_average AND OLD.rating_count IS NEW.rating_count
      AND OLD.vendor_id IS NEW.vendor_id AND OLD.price_min IS NEW.price_min AND OLD.price_max IS NEW.price_max
      AND OLD.created_at IS NEW.created_at AND OLD.is_private IS NEW.is_private AND OLD.backorders IS NEW.backorders
      AND OLD.trashed_at IS NEW.trashed_at AND OLD.rating_imported_average IS NEW.rating_imported_average
      AND OLD.rating_imported_count IS NEW.rating_imported_count AND OLD.updated_at IS NEW.updated_at;
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id, wide_seq) VALUES ('product', coalesce(NEW.parent_id, NEW.id),
    (SELECT wide_seq FROM search_change_carry WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id)));
  DELETE FROM search_change_carry WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id);
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(OLD.parent_id, OLD.id)
    AND coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id)
    SELECT 'product', coalesce(OLD.parent_id, OLD.id) WHERE coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id);
END;

-- A product joining or leaving a term: the product's row is wide (its listings move), the term's is narrow.
DROP TRIGGER search_product_terms_insert;
DROP TRIGGER search_product_terms_delete;
CREATE TRIGGER search_product_terms_insert AFTER INSERT ON product_terms
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = NEW.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', NEW.product_id);
  INSERT INTO search_change_carry (kind, ref_id, wide_seq)
    VALUES ('term', NEW.term_id, coalesce((SELECT wide_seq FROM search_changes WHERE kind = 'term' AND ref_id = NEW.term_id), 0));
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = NEW.term_id;
  INSERT INTO search_changes (kind, ref_id, wide_seq)
    SELECT 'term', NEW.term_id, wide_seq FROM search_change_carry WHERE kind = 'term' AND ref_id = NEW.term_id;
  DELETE FROM search_change_carry WHERE kind = 'term' AND ref_id = NEW.term_id;
END;
CREATE TRIGGER search_product_terms_delete AFTER DELETE ON product_terms
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = OLD.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', OLD.product_id);
  INSERT INTO search_change_carry (kind, ref_id, wide_seq)
    VALUES ('term', OLD.term_id, coalesce((SELECT wide_seq FROM search_changes WHERE kind = 'term' AND ref_id = OLD.term_id), 0));
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = OLD.term_id;
  INSERT INTO search_changes (kind, ref_id, wide_seq)
    SELECT 'term', OLD.term_id, wide_seq FROM search_change_carry WHERE kind = 'term' AND ref_id = OLD.term_id;
  DELETE FROM search_change_carry WHERE kind = 'term' AND ref_id = OLD.term_id;
END;
-- engine: end

-- engine: postgres
-- The row is updated in place (ON CONFLICT … DO UPDATE): a narrow writer sets wide_seq to -1, meaning "keep what the
-- row had" (0 for a new row); anything else that moves seq is wide.
CREATE FUNCTION search_changes_wide() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.wide_seq = -1 THEN
    IF TG_OP = 'UPDATE' THEN NEW.wide_seq := OLD.wide_seq; ELSE NEW.wide_seq := 0; END IF;
  ELSIF NEW.wide_seq IS NULL THEN
    NEW.wide_seq := NEW.seq;
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW.seq <> OLD.seq AND NEW.wide_seq = OLD.wide_seq THEN NEW.wide_seq := NEW.seq; END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER search_changes_wide BEFORE INSERT OR UPDATE ON search_changes
  FOR EACH ROW EXECUTE FUNCTION search_changes_wide();

CREATE FUNCTION search_change(change_kind TEXT, change_ref BIGINT, wide BOOLEAN) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_changes (kind, ref_id, wide_seq) VALUES (change_kind, change_ref, CASE WHEN wide THEN NULL ELSE -1 END)
  ON CONFLICT (kind, ref_id) DO UPDATE SET seq = nextval(pg_get_serial_sequence('search_changes', 'seq')),
    wide_seq = CASE WHEN wide THEN NULL ELSE -1 END
$$;

-- Every column but stock_quantity and total_sales is compared: any other difference is a wide change.
CREATE OR REPLACE FUNCTION search_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE wide BOOLEAN := true;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    wide := (to_jsonb(OLD) - ARRAY['stock_quantity', 'total_sales'])
      IS DISTINCT FROM (to_jsonb(NEW) - ARRAY['stock_quantity', 'total_sales']);
  END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM search_change('product', coalesce(NEW.parent_id, NEW.id), wide); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id))
  THEN PERFORM search_change('product', coalesce(OLD.parent_id, OLD.id), true); END IF;
  RETURN NULL;
END $$;

-- A product joining or leaving a term: the product's row is wide (its listings move), the term's is narrow.
CREATE OR REPLACE FUNCTION search_product_terms_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE link product_terms;
BEGIN
  IF TG_OP = 'DELETE' THEN link := OLD; ELSE link := NEW; END IF;
  PERFORM search_change('product', link.product_id, true);
  PERFORM search_change('term', link.term_id, false);
  RETURN NULL;
END $$;
-- engine: end
