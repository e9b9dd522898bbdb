import type { CatalogVisibility, ProductOrdering } from '../../../shared/catalog/types';
import type { ProductListQuery } from '../ports';
import type { SqlDialect } from './dialect';

interface ProductListSql {
  /** Conditions on `products p`, with `@name` placeholders (better-sqlite3 binds them; queryNamed on PostgreSQL). */
  where: string;
  orderBy: string;
  params: Record<string, unknown>;
}

const VISIBLE_IN: Record<ProductListQuery['context'], CatalogVisibility[]> = {
  shop: ['visible', 'catalog'],
  search: ['visible', 'search'],
};

// Each ordering ends with the id so pages never repeat or skip a product. PostgreSQL's `lower()` stands in for
// SQLite's COLLATE NOCASE, so both engines sort names alike.
function orderBy(ordering: ProductOrdering, dialect: SqlDialect): string {
  const byName = dialect === 'sqlite' ? 'p.name COLLATE NOCASE ASC' : 'lower(p.name) ASC';
  const orders: Record<ProductOrdering, string> = {
    menu_order: `p.menu_order ASC, ${byName}, p.id ASC`,
    popularity: 'p.total_sales DESC, p.id DESC',
    rating: 'p.rating_average DESC, p.rating_count DESC, p.id DESC',
    date: 'p.created_at DESC, p.id DESC',
    price: 'p.price_min IS NULL, p.price_min ASC, p.id ASC',
    'price-desc': 'p.price_max IS NULL, p.price_max DESC, p.id DESC',
  };
  return orders[ordering];
}

/**
 * The filter and order of a product listing (shop archives, term and vendor pages, search results), built once for
 * both engines so their listings cannot drift apart; only the few spellings the engines disagree on differ.
 */
export function productListSql(
  query: ProductListQuery,
  dialect: SqlDialect,
  options: { fewInTerm?: boolean } = {},
): ProductListSql {
  const where = [
    "p.type <> 'variation'",
    "p.status = 'publish'",
    `p.visibility IN (${VISIBLE_IN[query.context].map((v) => `'${v}'`).join(', ')})`,
  ];
  const params: Record<string, unknown> = {};
  if (query.featured) where.push('p.featured = 1');
  if (query.vendorId !== undefined) {
    where.push('p.vendor_id = @vendorId');
    params.vendorId = query.vendorId;
  }
  if (query.term) {
    // Categories include their descendants, as WooCommerce's archives do.
    const termId = dialect === 'sqlite' ? '@termId' : '@termId::bigint';
    const tree = `WITH RECURSIVE tree(id) AS (SELECT ${termId} UNION ALL SELECT t.id FROM terms t JOIN tree ON t.parent_id = tree.id)
        SELECT id FROM tree`;
    // PostgreSQL cannot estimate a recursive query's rows (it guesses hundreds of terms, hence every product) and
    // then scans product_terms and products whole; as an array computed first (`ANY(ARRAY(…))`) the term ids
    // meet the term index and the planner estimates from its statistics.
    // The planner cannot know how many products the terms hold either: it walks the listing's order and keeps the
    // term's products, which finds a dozen at once in a big category and reads the whole catalog for a small one
    // (2 products among 20,000: 90–170 ms). For a term the caller knows to be small (`fewInTerm`, from its count),
    // its products are collected first, as an array, and only those are read and sorted.
    const members = `SELECT product_id FROM product_terms WHERE term_id = ANY(ARRAY(${tree}))`;
    where.push(
      dialect === 'sqlite'
        ? `p.id IN (SELECT product_id FROM product_terms WHERE term_id IN (${tree}))`
        : options.fewInTerm
          ? `p.id = ANY(ARRAY(${members}))`
          : `p.id IN (${members})`,
    );
    params.termId = query.term.id;
  }
  let order = orderBy(query.orderby, dialect);
  if (query.ids) {
    // Search results: the index already applied search visibility and ranked them.
    if (dialect === 'sqlite') {
      where.push('p.id IN (SELECT value FROM json_each(@ids))');
      params.ids = JSON.stringify(query.ids);
      if (query.relevance) order = `(SELECT key FROM json_each(@ids) WHERE value = p.id), ${order}`;
    } else {
      where.push('p.id = ANY(@ids::bigint[])');
      params.ids = [...query.ids];
      if (query.relevance) order = `array_position(@ids::bigint[], p.id), ${order}`;
    }
  }
  return { where: where.join(' AND '), orderBy: order, params };
}
