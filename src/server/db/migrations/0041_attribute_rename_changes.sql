-- Renaming an attribute or one of its terms (its name or slug) records a change of every product that carries it,
-- so whatever follows the change log follows the rename: the facet filters' labels and legends (the facet index
-- re-reads the attributes with every batch of changes), the search documents (a product's attribute values are
-- searched by name), and every process's copies of the product pages. Before this, nothing was recorded and the
-- new name showed only at the next change of any product or the next rebuild.
--
-- The changes are the products' own ('product' rows, as a product's attribute links already write), not a new
-- kind: a reader of the log needs nothing new. A rename of an attribute many products carry writes that many rows;
-- past the incremental limit the search service rebuilds beside the answering index, as after a large import.
-- Not paused during an import (search_capture_paused, shop.search_capture): an import finds attributes and terms
-- by slug and keeps their stored names, so it never fires these, and a rename must not go unrecorded.
-- engine: sqlite
CREATE TRIGGER search_attribute_terms_rename AFTER UPDATE OF name, slug ON attribute_terms
WHEN OLD.name IS NOT NEW.name OR OLD.slug IS NOT NEW.slug BEGIN
  DELETE FROM search_changes WHERE kind = 'product'
    AND ref_id IN (SELECT product_id FROM product_attribute_terms WHERE term_id = NEW.id);
  INSERT INTO search_changes (kind, ref_id)
    SELECT DISTINCT 'product', product_id FROM product_attribute_terms WHERE term_id = NEW.id ORDER BY product_id;
END;
CREATE TRIGGER search_attributes_rename AFTER UPDATE OF name, slug ON attributes
WHEN OLD.name IS NOT NEW.name OR OLD.slug IS NOT NEW.slug BEGIN
  DELETE FROM search_changes WHERE kind = 'product'
    AND ref_id IN (SELECT product_id FROM product_attributes WHERE attribute_id = NEW.id);
  INSERT INTO search_changes (kind, ref_id)
    SELECT DISTINCT 'product', product_id FROM product_attributes WHERE attribute_id = NEW.id ORDER BY product_id;
END;
-- engine: end

-- engine: postgres
-- One change per product through search_change (a new seq in place), in product order so two renames at once that
-- share products take the log's rows in the same order and do not deadlock.
CREATE FUNCTION search_attribute_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE carrier BIGINT;
BEGIN
  IF TG_TABLE_NAME = 'attribute_terms' THEN
    FOR carrier IN SELECT DISTINCT product_id FROM product_attribute_terms WHERE term_id = NEW.id ORDER BY product_id
    LOOP PERFORM search_change('product', carrier); END LOOP;
  ELSE
    FOR carrier IN SELECT DISTINCT product_id FROM product_attributes WHERE attribute_id = NEW.id ORDER BY product_id
    LOOP PERFORM search_change('product', carrier); END LOOP;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER search_attribute_terms_rename AFTER UPDATE OF name, slug ON attribute_terms
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug)
  EXECUTE FUNCTION search_attribute_renamed();
CREATE TRIGGER search_attributes_rename AFTER UPDATE OF name, slug ON attributes
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug)
  EXECUTE FUNCTION search_attribute_renamed();
-- engine: end
