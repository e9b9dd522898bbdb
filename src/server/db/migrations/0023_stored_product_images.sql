-- A product image fetched at import and stored resized in the data dir: the key of its files
-- (catalog-images/{key}-{width}.webp), or NULL when only the placeholder can be drawn.
ALTER TABLE product_images ADD COLUMN stored_key TEXT;
