import type { FacetProduct, FacetVocabulary, StockStatus } from '../../search/facets/facetTypes';
import type { SqlDialect } from './dialect';
import { PURCHASABLE } from './merchandisingSql';

/*
 * The facet index's reads, written once for both engines (`@name` placeholders; only the "these ids" condition is
 * spelled per engine), and the one mapping from their rows to facet records.
 */

const PRODUCT_COLUMNS = `p.id, p.visibility, p.price_min, p.price_max, p.stock_status, p.rating_average, p.rating_count,
  p.total_sales, CASE WHEN ${PURCHASABLE} THEN 1 ELSE 0 END AS purchasable`;

function idCondition(column: string, dialect: SqlDialect): string {
  return dialect === 'sqlite'
    ? `${column} IN (SELECT value FROM json_each(@ids))`
    : `${column} = ANY(@ids::bigint[])`;
}

export function idsParam(ids: readonly number[], dialect: SqlDialect): unknown {
  return dialect === 'sqlite' ? JSON.stringify(ids) : [...ids];
}

/** The statements that load facet records: all products, or those of `@ids`. */
export function facetProductSql(scoped: boolean, dialect: SqlDialect) {
  const only = (column: string) => (scoped ? `AND ${idCondition(column, dialect)}` : '');
  return {
    products: `SELECT ${PRODUCT_COLUMNS} FROM products p
      WHERE p.type <> 'variation' AND p.status = 'publish' AND p.visibility <> 'hidden' ${only('p.id')}`,
    // EXISTS rather than a join, as in the pages below: joined, SQLite's planner starts from the taxonomy's terms and
    // probes each of them for every listed id (8 ms for 250 ids among 91 tags, against 1 ms from the ids).
    categories: `SELECT x.product_id, x.term_id FROM product_terms x
      WHERE EXISTS (SELECT 1 FROM terms t WHERE t.id = x.term_id AND t.taxonomy = 'product_cat') ${only('x.product_id')}`,
    tags: `SELECT x.product_id, x.term_id FROM product_terms x
      WHERE EXISTS (SELECT 1 FROM terms t WHERE t.id = x.term_id AND t.taxonomy = 'product_tag') ${only('x.product_id')}`,
    attributeTerms: `SELECT x.product_id, x.term_id FROM product_attribute_terms x WHERE 1 = 1 ${only('x.product_id')}`,
  };
}

/**
 * One page of every product, by id (`@after`, `@limit`), for a rebuild in slices; the side tables are read for the
 * page's id range (`@after` < product_id <= `@last`, the page's last id), an index range each.
 */
export const FACET_PRODUCT_PAGE_SQL = {
  products: `SELECT ${PRODUCT_COLUMNS} FROM products p
    WHERE p.type <> 'variation' AND p.status = 'publish' AND p.visibility <> 'hidden' AND p.id > @after
    ORDER BY p.id LIMIT @limit`,
  // EXISTS rather than a join: a join lets SQLite's planner start from the category terms and walk every product of
  // each (~100 ms a page at 20,000 products), where the page's id range of the primary key is a few hundred rows.
  categories: `SELECT x.product_id, x.term_id FROM product_terms x
    WHERE x.product_id > @after AND x.product_id <= @last
      AND EXISTS (SELECT 1 FROM terms t WHERE t.id = x.term_id AND t.taxonomy = 'product_cat')`,
  tags: `SELECT x.product_id, x.term_id FROM product_terms x
    WHERE x.product_id > @after AND x.product_id <= @last
      AND EXISTS (SELECT 1 FROM terms t WHERE t.id = x.term_id AND t.taxonomy = 'product_tag')`,
  attributeTerms: `SELECT x.product_id, x.term_id FROM product_attribute_terms x
    WHERE x.product_id > @after AND x.product_id <= @last`,
};

export const FACET_VOCABULARY_SQL = {
  categories: "SELECT id, slug, name, parent_id FROM terms WHERE taxonomy = 'product_cat' ORDER BY id",
  attributes: 'SELECT id, slug, name FROM attributes ORDER BY id',
  attributeTerms: 'SELECT id, attribute_id, slug, name FROM attribute_terms ORDER BY attribute_id, id',
};

export interface FacetProductRow {
  id: number;
  visibility: FacetProduct['visibility'];
  price_min: number | null;
  price_max: number | null;
  stock_status: StockStatus;
  rating_average: number;
  rating_count: number;
  total_sales: number;
  purchasable: number | boolean;
}

export type FacetLink = { product_id: number; term_id: number };

/** One read of facet records (a rebuild's page of products, or the products of an id list) and their links. */
export interface FacetRead {
  rows: readonly FacetProductRow[];
  categories: readonly FacetLink[];
  attributeTerms: readonly FacetLink[];
  tags: readonly FacetLink[];
}

export function toFacetProducts({ rows, categories, attributeTerms, tags }: FacetRead): FacetProduct[] {
  const byProduct = (links: readonly FacetLink[]) => {
    const map = new Map<number, number[]>();
    for (const link of links) {
      const id = Number(link.product_id);
      const list = map.get(id);
      if (list) list.push(Number(link.term_id));
      else map.set(id, [Number(link.term_id)]);
    }
    return map;
  };
  const categoryMap = byProduct(categories);
  const attributeMap = byProduct(attributeTerms);
  const tagMap = byProduct(tags);
  return rows.map((row) => ({
    id: Number(row.id),
    visibility: row.visibility,
    categories: categoryMap.get(Number(row.id)) ?? [],
    attributeTerms: attributeMap.get(Number(row.id)) ?? [],
    priceMin: row.price_min === null ? null : Number(row.price_min),
    priceMax: row.price_max === null ? null : Number(row.price_max),
    stockStatus: row.stock_status,
    ratingAverage: Number(row.rating_average),
    ratingCount: Number(row.rating_count),
    tags: tagMap.get(Number(row.id)) ?? [],
    totalSales: Number(row.total_sales),
    purchasable: Boolean(Number(row.purchasable)),
  }));
}

export function toFacetVocabulary(
  categories: readonly { id: number; slug: string; name: string; parent_id: number | null }[],
  attributes: readonly { id: number; slug: string; name: string }[],
  terms: readonly { id: number; attribute_id: number; slug: string; name: string }[],
): FacetVocabulary {
  return {
    categories: categories.map((row) => ({
      id: Number(row.id),
      slug: row.slug,
      name: row.name,
      parentId: row.parent_id === null ? null : Number(row.parent_id),
    })),
    attributes: attributes.map((row) => ({
      id: Number(row.id),
      // Global attributes are stored without WooCommerce's `pa_` prefix; strip it if an import kept it.
      slug: row.slug.replace(/^pa_/, ''),
      name: row.name,
      terms: terms
        .filter((term) => Number(term.attribute_id) === Number(row.id))
        .map((term) => ({ id: Number(term.id), slug: term.slug, name: term.name })),
    })),
  };
}

/** The asked ids no listing row came back for: they left the listings. */
export function removedIds(asked: readonly number[] | undefined, found: readonly FacetProduct[]): number[] {
  if (!asked) return [];
  const present = new Set(found.map((product) => product.id));
  return asked.filter((id) => !present.has(id));
}
