/*
 * What an import reads of the stored catalog to plan with (catalog/import/catalogSnapshot.ts): the same SQL on both
 * engines, one statement per table, aliased to the snapshot's field names.
 */

export const SNAPSHOT_PRODUCTS = 'SELECT id, sku, slug, type FROM products';
export const SNAPSHOT_TERMS = 'SELECT id, taxonomy, slug, name, parent_id AS "parentId" FROM terms';
export const SNAPSHOT_POSTS = 'SELECT slug, password_hash AS "passwordHash" FROM posts';

/** Each stored-catalog list of StoredCatalogRows, by its field name. */
export const SNAPSHOT_STORED = {
  products: `SELECT id, type, parent_id AS "parentId", sku, name, status, is_private AS "isPrivate", featured,
      visibility, short_description AS "shortDescription", description, regular_price AS "regularPrice",
      sale_price AS "salePrice", stock_status AS "stockStatus", stock_quantity AS "stockQuantity",
      sold_individually AS "soldIndividually", is_virtual AS "virtual", is_downloadable AS "downloadable",
      external_url AS "externalUrl", button_text AS "buttonText", menu_order AS "menuOrder",
      total_sales AS "totalSales", vendor_id AS "vendorId"
    FROM products`,
  productTerms: 'SELECT product_id AS "productId", term_id AS "termId" FROM product_terms',
  images: `SELECT product_id AS "productId", position, source_url AS "sourceUrl", alt, color,
      stored_key AS "storedKey"
    FROM product_images`,
  downloads: 'SELECT product_id AS "productId", position, name, url FROM product_downloads',
  attributes: `SELECT pa.product_id AS "productId", a.slug AS attribute, pa.position, pa.visible
    FROM product_attributes pa JOIN attributes a ON a.id = pa.attribute_id`,
  attributeTerms: `SELECT pat.product_id AS "productId", a.slug AS attribute, t.slug AS term, pat.position
    FROM product_attribute_terms pat JOIN attributes a ON a.id = pat.attribute_id
    JOIN attribute_terms t ON t.id = pat.term_id`,
  variationAttributes: `SELECT va.variation_id AS "variationId", a.slug AS attribute, t.slug AS term
    FROM variation_attributes va JOIN attributes a ON a.id = va.attribute_id
    LEFT JOIN attribute_terms t ON t.id = va.term_id`,
  groupedChildren: 'SELECT parent_id AS "parentId", child_id AS "childId", position FROM grouped_children',
  links: 'SELECT product_id AS "productId", kind, linked_id AS "linkedId", position FROM product_links',
} as const;
