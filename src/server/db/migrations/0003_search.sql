-- Search: the change log that keeps each server process's in-memory index current, the owner's
-- relevance rules, and search analytics.

-- One row per changed catalog entity, moved to a new seq on every change (delete, then insert: a trigger's
-- OR REPLACE would give way to the conflict clause of the import's own upserts), so the table never holds more
-- rows than the catalog has entities and a process asks only "what changed after seq N?".
-- engine: sqlite
CREATE TABLE search_changes (
  seq    INTEGER PRIMARY KEY AUTOINCREMENT,
  kind   TEXT NOT NULL CHECK (kind IN ('product', 'term', 'vendor', 'post')),
  ref_id INTEGER NOT NULL,
  UNIQUE (kind, ref_id)
);

CREATE TRIGGER search_products_insert AFTER INSERT ON products BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', coalesce(NEW.parent_id, NEW.id));
END;
CREATE TRIGGER search_products_update AFTER UPDATE ON products BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', coalesce(NEW.parent_id, NEW.id));
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(OLD.parent_id, OLD.id)
    AND coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id);
  INSERT INTO search_changes (kind, ref_id)
    SELECT 'product', coalesce(OLD.parent_id, OLD.id) WHERE coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id);
END;
CREATE TRIGGER search_products_delete AFTER DELETE ON products BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = coalesce(OLD.parent_id, OLD.id);
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', coalesce(OLD.parent_id, OLD.id));
END;
CREATE TRIGGER search_product_terms_insert AFTER INSERT ON product_terms BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = NEW.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', NEW.product_id);
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = NEW.term_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('term', NEW.term_id);
END;
CREATE TRIGGER search_product_terms_delete AFTER DELETE ON product_terms BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = OLD.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', OLD.product_id);
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = OLD.term_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('term', OLD.term_id);
END;
CREATE TRIGGER search_product_attribute_terms_insert AFTER INSERT ON product_attribute_terms BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = NEW.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', NEW.product_id);
END;
CREATE TRIGGER search_product_attribute_terms_delete AFTER DELETE ON product_attribute_terms BEGIN
  DELETE FROM search_changes WHERE kind = 'product' AND ref_id = OLD.product_id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('product', OLD.product_id);
END;
CREATE TRIGGER search_terms_insert AFTER INSERT ON terms BEGIN
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = NEW.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('term', NEW.id);
END;
CREATE TRIGGER search_terms_update AFTER UPDATE ON terms BEGIN
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = NEW.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('term', NEW.id);
END;
CREATE TRIGGER search_terms_delete AFTER DELETE ON terms BEGIN
  DELETE FROM search_changes WHERE kind = 'term' AND ref_id = OLD.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('term', OLD.id);
END;
CREATE TRIGGER search_vendors_insert AFTER INSERT ON vendors BEGIN
  DELETE FROM search_changes WHERE kind = 'vendor' AND ref_id = NEW.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('vendor', NEW.id);
END;
CREATE TRIGGER search_vendors_update AFTER UPDATE ON vendors BEGIN
  DELETE FROM search_changes WHERE kind = 'vendor' AND ref_id = NEW.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('vendor', NEW.id);
END;
CREATE TRIGGER search_vendors_delete AFTER DELETE ON vendors BEGIN
  DELETE FROM search_changes WHERE kind = 'vendor' AND ref_id = OLD.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('vendor', OLD.id);
END;
CREATE TRIGGER search_posts_insert AFTER INSERT ON posts BEGIN
  DELETE FROM search_changes WHERE kind = 'post' AND ref_id = NEW.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('post', NEW.id);
END;
CREATE TRIGGER search_posts_update AFTER UPDATE ON posts BEGIN
  DELETE FROM search_changes WHERE kind = 'post' AND ref_id = NEW.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('post', NEW.id);
END;
CREATE TRIGGER search_posts_delete AFTER DELETE ON posts BEGIN
  DELETE FROM search_changes WHERE kind = 'post' AND ref_id = OLD.id;
  INSERT INTO search_changes (kind, ref_id) VALUES ('post', OLD.id);
END;
-- engine: end

-- engine: postgres
-- PostgreSQL: the same change log, one trigger function per table. A changed entity takes a new seq in place
-- (ON CONFLICT … DO UPDATE) rather than delete + insert, so two transactions touching one entity do not collide
-- on the unique key. Sequence values are taken before commit, so a reader takes the table's SHARE lock before
-- reading (PgSearchRepository.changesSince): no transaction that could still commit a lower seq is in flight.
CREATE TABLE search_changes (
  seq    INTEGER PRIMARY KEY,
  kind   TEXT NOT NULL CHECK (kind IN ('product', 'term', 'vendor', 'post')),
  ref_id INTEGER NOT NULL,
  UNIQUE (kind, ref_id)
);
CREATE FUNCTION search_change(change_kind TEXT, change_ref BIGINT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_changes (kind, ref_id) VALUES (change_kind, change_ref)
  ON CONFLICT (kind, ref_id) DO UPDATE SET seq = nextval(pg_get_serial_sequence('search_changes', 'seq'))
$$;
CREATE FUNCTION search_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM search_change('product', coalesce(NEW.parent_id, NEW.id)); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND coalesce(OLD.parent_id, OLD.id) <> coalesce(NEW.parent_id, NEW.id))
  THEN PERFORM search_change('product', coalesce(OLD.parent_id, OLD.id)); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER search_products AFTER INSERT OR UPDATE OR DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION search_products_changed();
CREATE FUNCTION search_product_terms_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE link product_terms;
BEGIN
  IF TG_OP = 'DELETE' THEN link := OLD; ELSE link := NEW; END IF;
  PERFORM search_change('product', link.product_id);
  PERFORM search_change('term', link.term_id);
  RETURN NULL;
END $$;
CREATE TRIGGER search_product_terms AFTER INSERT OR DELETE ON product_terms
  FOR EACH ROW EXECUTE FUNCTION search_product_terms_changed();
CREATE FUNCTION search_product_attribute_terms_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN PERFORM search_change('product', OLD.product_id);
  ELSE PERFORM search_change('product', NEW.product_id); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER search_product_attribute_terms AFTER INSERT OR DELETE ON product_attribute_terms
  FOR EACH ROW EXECUTE FUNCTION search_product_attribute_terms_changed();
-- terms, vendors and posts: the row's own id, under the kind given as the trigger's argument.
CREATE FUNCTION search_entity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN PERFORM search_change(TG_ARGV[0], OLD.id);
  ELSE PERFORM search_change(TG_ARGV[0], NEW.id); END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER search_terms AFTER INSERT OR UPDATE OR DELETE ON terms
  FOR EACH ROW EXECUTE FUNCTION search_entity_changed('term');
CREATE TRIGGER search_vendors AFTER INSERT OR UPDATE OR DELETE ON vendors
  FOR EACH ROW EXECUTE FUNCTION search_entity_changed('vendor');
CREATE TRIGGER search_posts AFTER INSERT OR UPDATE OR DELETE ON posts
  FOR EACH ROW EXECUTE FUNCTION search_entity_changed('post');
-- engine: end

-- The owner's relevance rules. `seeded` in search_settings marks that the settings file's rules were copied
-- in once; after that the database is the truth (the owner's insights page edits it).
CREATE TABLE search_settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE search_synonyms (
  id    INTEGER PRIMARY KEY,
  words TEXT NOT NULL -- JSON array of words that mean the same
);
CREATE TABLE search_stop_words (
  word TEXT PRIMARY KEY
);
CREATE TABLE search_boosts (
  field  TEXT PRIMARY KEY CHECK (field IN ('title', 'sku', 'taxonomy', 'attributes', 'content')),
  weight REAL NOT NULL CHECK (weight >= 0)
);
CREATE TABLE search_pins (
  query       TEXT PRIMARY KEY, -- normalized (folded, single-spaced)
  product_ids TEXT NOT NULL     -- JSON array, in display order
);

-- One row per typing burst or results page: the final query, how many products it found, and a keyed hash of
-- the visitor's session (never the raw id or an IP), so later orders can be joined to searches.
CREATE TABLE search_queries (
  id           INTEGER PRIMARY KEY,
  query        TEXT NOT NULL,
  results      INTEGER NOT NULL,
  source       TEXT NOT NULL CHECK (source IN ('suggestions', 'results')),
  session_hash TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX search_queries_query ON search_queries(query);
CREATE INDEX search_queries_session ON search_queries(session_hash, updated_at);
