-- A term's products as (term, product) pairs in one index: a product page's related products count, for each
-- product sharing a category or tag, how many it shares, from this index alone (PostgreSQL: an index-only scan;
-- SQLite: a covering index), instead of one table row per pair. A category page's filter reads it the same way.
-- The old single-column index is a prefix of it, so it goes.
DROP INDEX product_terms_term;
CREATE INDEX product_terms_term ON product_terms (term_id, product_id);
