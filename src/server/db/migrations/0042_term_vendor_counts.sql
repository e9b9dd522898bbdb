-- The search documents of terms and vendors count their searchable products (searchDocumentRows.ts: published,
-- visible or search-only, not a variation); a term or vendor holding none is not suggested. Before this, only a
-- product joining or leaving a term reloaded that term's count: a product whose own row became searchable or
-- stopped being so (published, made private or draft, hidden, trashed) logged the product alone, and a product
-- moving to another vendor reloaded neither vendor, so counts went stale and a category whose first product was
-- just published was not suggested (one whose last product went private still was).
--
-- Now the products' own triggers log the terms and vendors whose count a row change moves:
--   searchability changes (update):  every term the product links to, and its vendor;
--   vendor_id changes (update):      the old vendor if the product counted there, the new one if it counts there;
--   insert, delete:                   its vendor, when it counts (its term links are logged by their own triggers,
--                                     a deletion's through the cascade).
-- Variations never count. These rows are narrow (migration 0037): the term or vendor itself did not change, only how
-- many products it holds, and the product's own row (wide) already drops the pages that list it. A vendor's row is
-- therefore narrow or wide like a term's: wide when the vendor itself changed (its own triggers, every change), narrow
-- when it only gained or lost products. The render cache ignores a narrow vendor row (pageChangeSql.ts); the search
-- reads a narrow vendor's document again (its count) but not its products.
--
-- The import pauses these triggers like the others and records the same terms and vendors itself
-- (planCatalogImport: changedTerms, changedVendors; the writers add the vendors the sidecar moved products between).

-- A vendor's count, per vendor, from this index alone (SQLite: a covering index; PostgreSQL: an index-only scan once
-- the table is vacuumed), instead of a grouped scan of every product for each scoped read; the scoped read of a
-- renamed vendor's products (vendor_id = …) uses its prefix, and so does ON DELETE SET NULL of a deleted vendor.
CREATE INDEX products_vendor ON products (vendor_id, type, status, visibility);

-- engine: sqlite
CREATE TRIGGER search_products_counts_update AFTER UPDATE OF type, status, visibility, vendor_id ON products
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused)
  AND ((OLD.type <> 'variation' AND OLD.status = 'publish' AND OLD.visibility IN ('visible', 'search'))
      IS NOT (NEW.type <> 'variation' AND NEW.status = 'publish' AND NEW.visibility IN ('visible', 'search'))
    OR OLD.vendor_id IS NOT NEW.vendor_id) BEGIN
  -- Its terms, when it became searchable or stopped being so; each keeps its older wide_seq.
  INSERT INTO search_change_carry (kind, ref_id, wide_seq)
    SELECT 'term', x.term_id, coalesce(c.wide_seq, 0) FROM product_terms x
    LEFT JOIN search_changes c ON c.kind = 'term' AND c.ref_id = x.term_id
    WHERE x.product_id = NEW.id
      AND (OLD.type <> 'variation' AND OLD.status = 'publish' AND OLD.visibility IN ('visible', 'search'))
        IS NOT (NEW.type <> 'variation' AND NEW.status = 'publish' AND NEW.visibility IN ('visible', 'search'));
  -- The vendor it counted in before and the one it counts in now (one row when they are the same).
  INSERT INTO search_change_carry (kind, ref_id, wide_seq)
    SELECT 'vendor', v.id, coalesce((SELECT wide_seq FROM search_changes WHERE kind = 'vendor' AND ref_id = v.id), 0)
    FROM (
      SELECT OLD.vendor_id AS id
      WHERE OLD.type <> 'variation' AND OLD.status = 'publish' AND OLD.visibility IN ('visible', 'search')
      UNION
      SELECT NEW.vendor_id AS id
      WHERE NEW.type <> 'variation' AND NEW.status = 'publish' AND NEW.visibility IN ('visible', 'search')
    ) v
    WHERE v.id IS NOT NULL;
  DELETE FROM search_changes WHERE (kind, ref_id) IN (SELECT kind, ref_id FROM search_change_carry);
  INSERT INTO search_changes (kind, ref_id, wide_seq)
    SELECT kind, ref_id, wide_seq FROM search_change_carry ORDER BY kind, ref_id;
  DELETE FROM search_change_carry;
END;
CREATE TRIGGER search_products_counts_insert AFTER INSERT ON products
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) AND NEW.vendor_id IS NOT NULL
  AND NEW.type <> 'variation' AND NEW.status = 'publish' AND NEW.visibility IN ('visible', 'search') BEGIN
  INSERT INTO search_change_carry (kind, ref_id, wide_seq)
    VALUES ('vendor', NEW.vendor_id,
      coalesce((SELECT wide_seq FROM search_changes WHERE kind = 'vendor' AND ref_id = NEW.vendor_id), 0));
  DELETE FROM search_changes WHERE kind = 'vendor' AND ref_id = NEW.vendor_id;
  INSERT INTO search_changes (kind, ref_id, wide_seq)
    SELECT kind, ref_id, wide_seq FROM search_change_carry WHERE kind = 'vendor' AND ref_id = NEW.vendor_id;
  DELETE FROM search_change_carry WHERE kind = 'vendor' AND ref_id = NEW.vendor_id;
END;
CREATE TRIGGER search_products_counts_delete AFTER DELETE ON products
WHEN NOT EXISTS (SELECT 1 FROM search_capture_paused) AND OLD.vendor_id IS NOT NULL
  AND OLD.type <> 'variation' AND OLD.status = 'publish' AND OLD.visibility IN ('visible', 'search') BEGIN
  INSERT INTO search_change_carry (kind, ref_id, wide_seq)
    VALUES ('vendor', OLD.vendor_id,
      coalesce((SELECT wide_seq FROM search_changes WHERE kind = 'vendor' AND ref_id = OLD.vendor_id), 0));
  DELETE FROM search_changes WHERE kind = 'vendor' AND ref_id = OLD.vendor_id;
  INSERT INTO search_changes (kind, ref_id, wide_seq)
    SELECT kind, ref_id, wide_seq FROM search_change_carry WHERE kind = 'vendor' AND ref_id = OLD.vendor_id;
  DELETE FROM search_change_carry WHERE kind = 'vendor' AND ref_id = OLD.vendor_id;
END;
-- engine: end

-- engine: postgres
-- One function for the three triggers; their WHEN clauses call it only for a row whose counts may move (an order's
-- stock update, the most common write, costs no call). Terms, then vendors, each in id order, so two writers take the
-- log's rows in the same order.
CREATE FUNCTION search_product_counts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted_before BOOLEAN := false;
  counted_now BOOLEAN := false;
  vendor_before BIGINT;
  vendor_now BIGINT;
  changed BIGINT;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    counted_before := OLD.type <> 'variation' AND OLD.status = 'publish' AND OLD.visibility IN ('visible', 'search');
    vendor_before := OLD.vendor_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    counted_now := NEW.type <> 'variation' AND NEW.status = 'publish' AND NEW.visibility IN ('visible', 'search');
    vendor_now := NEW.vendor_id;
  END IF;
  IF TG_OP = 'UPDATE' AND counted_before <> counted_now THEN
    FOR changed IN SELECT term_id FROM product_terms WHERE product_id = NEW.id ORDER BY term_id
    LOOP PERFORM search_change('term', changed, false); END LOOP;
  END IF;
  FOR changed IN
    SELECT DISTINCT id FROM unnest(ARRAY[
      CASE WHEN counted_before THEN vendor_before END,
      CASE WHEN counted_now THEN vendor_now END
    ]) AS id WHERE id IS NOT NULL ORDER BY id
  LOOP PERFORM search_change('vendor', changed, false); END LOOP;
  RETURN NULL;
END $$;
CREATE TRIGGER search_products_counts_update AFTER UPDATE OF type, status, visibility, vendor_id ON products
  FOR EACH ROW WHEN (current_setting('shop.search_capture', true) IS DISTINCT FROM 'paused'
    AND ((OLD.type <> 'variation' AND OLD.status = 'publish' AND OLD.visibility IN ('visible', 'search'))
        IS DISTINCT FROM (NEW.type <> 'variation' AND NEW.status = 'publish' AND NEW.visibility IN ('visible', 'search'))
      OR OLD.vendor_id IS DISTINCT FROM NEW.vendor_id))
  EXECUTE FUNCTION search_product_counts_changed();
CREATE TRIGGER search_products_counts_insert AFTER INSERT ON products
  FOR EACH ROW WHEN (current_setting('shop.search_capture', true) IS DISTINCT FROM 'paused'
    AND NEW.vendor_id IS NOT NULL
    AND NEW.type <> 'variation' AND NEW.status = 'publish' AND NEW.visibility IN ('visible', 'search'))
  EXECUTE FUNCTION search_product_counts_changed();
CREATE TRIGGER search_products_counts_delete AFTER DELETE ON products
  FOR EACH ROW WHEN (current_setting('shop.search_capture', true) IS DISTINCT FROM 'paused'
    AND OLD.vendor_id IS NOT NULL
    AND OLD.type <> 'variation' AND OLD.status = 'publish' AND OLD.visibility IN ('visible', 'search'))
  EXECUTE FUNCTION search_product_counts_changed();
-- engine: end
