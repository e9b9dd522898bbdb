-- Variation swatches: an attribute term may override its attribute's swatch type (one colour of a
-- colour attribute shown as an image, say); NULL keeps the attribute's type.

ALTER TABLE attribute_terms ADD COLUMN swatch_type TEXT
  CHECK (swatch_type IS NULL OR swatch_type IN ('color', 'image', 'label', 'radio', 'select'));
