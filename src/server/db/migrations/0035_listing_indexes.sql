-- Indexes for the storefront's listings (shop, home, category, tag, brand and vendor pages, search results), so a
-- page of twelve cards reads a few dozen index entries instead of sorting or scanning the whole catalog
-- (docs/postgresql.md "Indexes behind the pages"). All three are partial: variations and drafts never appear in
-- a listing, so they cost no index entry.

-- The default order (menu order, then name without regard to case, then id) as an index: a listing walks it and
-- stops after one page, rather than sorting every listed product. The engines spell the name order differently
-- (the same spellings as the listing's ORDER BY: SQLite's NOCASE collation, PostgreSQL's lower()).
-- The featured products (the home page) in the same order, with their visibility: the home page's cards and
-- their count read this small index, not the catalog.
-- engine: sqlite
CREATE INDEX products_shop_order ON products (menu_order, name COLLATE NOCASE, id)
  WHERE type <> 'variation' AND status = 'publish';
CREATE INDEX products_featured ON products (menu_order, name COLLATE NOCASE, id, visibility)
  WHERE featured = 1 AND type <> 'variation' AND status = 'publish';
-- engine: end
-- engine: postgres
CREATE INDEX products_shop_order ON products (menu_order, lower(name), id)
  WHERE type <> 'variation' AND status = 'publish';
CREATE INDEX products_featured ON products (menu_order, lower(name), id, visibility)
  WHERE featured = 1 AND type <> 'variation' AND status = 'publish';
-- engine: end

-- The listed products with their visibility: a listing's count reads this index alone, not the product rows.
CREATE INDEX products_listed ON products (id, visibility) WHERE type <> 'variation' AND status = 'publish';
