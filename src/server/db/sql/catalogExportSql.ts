import type { ImportAttribute, ImportProduct } from '../../catalog/import/catalogImport';
import type { SqlRead } from './adminProductSql';

/*
 * The whole catalog as the import reads it (one ImportProduct per products row, variations after their parent),
 * so the CSV export writes exactly what an import of it would store again. Written once for both engines.
 */

interface ExportRow {
  id: number;
  type: ImportProduct['type'];
  parent_id: number | null;
  sku: string | null;
  name: string;
  status: string;
  is_private: number;
  featured: number;
  visibility: ImportProduct['visibility'];
  short_description: string;
  description: string;
  regular_price: number | null;
  sale_price: number | null;
  stock_status: ImportProduct['stockStatus'];
  stock_quantity: number | null;
  sold_individually: number;
  is_virtual: number;
  is_downloadable: number;
  external_url: string | null;
  button_text: string | null;
  menu_order: number;
}

export interface ExportProduct extends ImportProduct {
  /** 1 published, 0 draft, -1 private: WooCommerce's Published column. */
  publishedFlag: '1' | '0' | '-1';
}

function groupBy<T>(rows: T[], key: (row: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const id = key(row);
    const group = groups.get(id);
    if (group) group.push(row);
    else groups.set(id, [row]);
  }
  return groups;
}

export async function readCatalogForExport(read: SqlRead): Promise<ExportProduct[]> {
  const [products, terms, links, images, downloads, grouped, attributes, variationAttributes, productLinks] =
    await Promise.all([
      read<ExportRow>(
        `SELECT id, type, parent_id, sku, name, status, is_private, featured, visibility, short_description,
                description, regular_price, sale_price, stock_status, stock_quantity, sold_individually, is_virtual,
                is_downloadable, external_url, button_text, menu_order
           FROM products ORDER BY coalesce(parent_id, id), id`,
      ),
      read<{ id: number; taxonomy: string; name: string; parent_id: number | null }>(
        'SELECT id, taxonomy, name, parent_id FROM terms',
      ),
      read<{ product_id: number; term_id: number }>(
        'SELECT product_id, term_id FROM product_terms ORDER BY product_id, term_id',
      ),
      read<{ product_id: number; source_url: string }>(
        'SELECT product_id, source_url FROM product_images ORDER BY product_id, position',
      ),
      read<{ product_id: number; name: string; url: string }>(
        'SELECT product_id, name, url FROM product_downloads ORDER BY product_id, position',
      ),
      read<{ parent_id: number; child_id: number }>(
        'SELECT parent_id, child_id FROM grouped_children ORDER BY parent_id, position',
      ),
      read<{ product_id: number; attribute_id: number; name: string; visible: number; value: string | null }>(
        `SELECT pa.product_id, pa.attribute_id, a.name, pa.visible, at.name AS value
           FROM product_attributes pa JOIN attributes a ON a.id = pa.attribute_id
           LEFT JOIN product_attribute_terms pat
             ON pat.product_id = pa.product_id AND pat.attribute_id = pa.attribute_id
           LEFT JOIN attribute_terms at ON at.id = pat.term_id
          ORDER BY pa.product_id, pa.position, pat.position`,
      ),
      read<{ variation_id: number; name: string; value: string | null }>(
        `SELECT va.variation_id, a.name, at.name AS value
           FROM variation_attributes va
           JOIN products v ON v.id = va.variation_id
           JOIN attributes a ON a.id = va.attribute_id
           LEFT JOIN product_attributes pa ON pa.product_id = v.parent_id AND pa.attribute_id = va.attribute_id
           LEFT JOIN attribute_terms at ON at.id = va.term_id
          ORDER BY va.variation_id, pa.position`,
      ),
      read<{ product_id: number; kind: string; linked_id: number }>(
        'SELECT product_id, kind, linked_id FROM product_links ORDER BY product_id, kind, position',
      ),
    ]);
  const termById = new Map(terms.map((term) => [Number(term.id), term]));
  const termPath = (id: number): string[] => {
    const path: string[] = [];
    for (let term = termById.get(id); term; term = termById.get(Number(term.parent_id))) {
      path.unshift(term.name);
      if (term.parent_id === null || path.length > 50) break;
    }
    return path;
  };
  const linksOf = groupBy(links, (link) => Number(link.product_id));
  const imagesOf = groupBy(images, (image) => Number(image.product_id));
  const downloadsOf = groupBy(downloads, (download) => Number(download.product_id));
  const childrenOf = groupBy(grouped, (row) => Number(row.parent_id));
  const productLinksOf = groupBy(productLinks, (row) => Number(row.product_id));
  const linked = (id: number, kind: string) =>
    (productLinksOf.get(id) ?? [])
      .filter((link) => link.kind === kind)
      .map((link) => reference(Number(link.linked_id)));
  const attributesOf = groupBy(attributes, (row) => Number(row.product_id));
  const valuesOf = groupBy(variationAttributes, (row) => Number(row.variation_id));
  const byId = new Map(products.map((product) => [Number(product.id), product]));
  const reference = (id: number) => {
    const target = byId.get(id);
    return target?.sku ? { sku: target.sku } : { csvId: id };
  };

  return products.map((row) => {
    const id = Number(row.id);
    const termsOf = (taxonomy: string) =>
      (linksOf.get(id) ?? [])
        .map((link) => termById.get(Number(link.term_id)))
        .filter((term) => term?.taxonomy === taxonomy) as { id: number; name: string }[];
    const productAttributes: ImportAttribute[] = [];
    if (row.type === 'variation') {
      for (const value of valuesOf.get(id) ?? [])
        productAttributes.push({ name: value.name, values: value.value ? [value.value] : [], visible: true });
    } else {
      let lastAttributeId: number | null = null;
      for (const attribute of attributesOf.get(id) ?? []) {
        const last = productAttributes.at(-1);
        if (last && Number(attribute.attribute_id) === lastAttributeId) {
          if (attribute.value !== null) last.values.push(attribute.value);
          continue;
        }
        lastAttributeId = Number(attribute.attribute_id);
        productAttributes.push({
          name: attribute.name,
          values: attribute.value === null ? [] : [attribute.value],
          visible: Number(attribute.visible) === 1,
        });
      }
    }
    const publishedFlag = Number(row.is_private) === 1 ? '-1' : row.status === 'publish' ? '1' : '0';
    return {
      line: 0,
      csvId: id,
      type: row.type,
      virtual: Number(row.is_virtual) === 1,
      downloadable: Number(row.is_downloadable) === 1,
      sku: row.sku,
      name: row.name,
      published: publishedFlag === '1',
      private: publishedFlag === '-1',
      publishedFlag,
      featured: Number(row.featured) === 1,
      visibility: row.visibility,
      shortDescription: row.short_description,
      description: row.description,
      regularPrice: row.regular_price === null ? null : Number(row.regular_price),
      salePrice: row.sale_price === null ? null : Number(row.sale_price),
      stockStatus: row.stock_status,
      stockQuantity: row.stock_quantity === null ? null : Number(row.stock_quantity),
      soldIndividually: Number(row.sold_individually) === 1,
      categories: termsOf('product_cat').map((term) => termPath(Number(term.id))),
      tags: termsOf('product_tag').map((term) => term.name),
      brands: termsOf('product_brand').map((term) => term.name),
      images: (imagesOf.get(id) ?? []).map((image) => image.source_url),
      parent: row.parent_id === null ? null : reference(Number(row.parent_id)),
      groupedChildren: (childrenOf.get(id) ?? []).map((child) => reference(Number(child.child_id))),
      upsells: row.type === 'variation' ? [] : linked(id, 'upsell'),
      crossSells: row.type === 'variation' ? [] : linked(id, 'cross_sell'),
      externalUrl: row.external_url,
      buttonText: row.button_text,
      position: Number(row.menu_order),
      attributes: productAttributes,
      downloads: (downloadsOf.get(id) ?? []).map((download) => ({ name: download.name, url: download.url })),
    };
  });
}
