import type { ProductPageListIds } from '../ports';
import type { SqlRead } from './adminProductSql';

/*
 * The product lists that sell more (docs/catalog-and-import.md "Related products, upsells and cross-sells"),
 * written once for both engines with `@name` placeholders. Each answers product ids in display order; the catalog's
 * listProducts (with `relevance`) turns them into cards, so a card looks the same everywhere.
 *
 * Every list shows only what a shopper can open and buy now: a published parent product (never a variation) in the
 * shop's catalog visibility, and available (the purchasable rule: not out of stock, and a managed stock above zero
 * unless on backorder).
 */

/** `p` can be bought now (the purchasable rule). */
export const PURCHASABLE = `p.stock_status <> 'outofstock'
  AND (p.stock_status = 'onbackorder' OR p.stock_quantity IS NULL OR p.stock_quantity > 0)`;

/** `p` is a product a shopper may be shown in these lists. */
export const SHOWABLE = `p.status = 'publish' AND p.type <> 'variation' AND p.visibility IN ('visible', 'catalog')
  AND ${PURCHASABLE}`;

/**
 * A list length written into the statement, not bound: a bound LIMIT left SQLite planning the related products'
 * levels for any length (on the demo catalog 140 µs a product page, against 20 µs with the number written in). The
 * lengths are the shop's own constants, a handful of statement texts; anything but a small whole number is refused.
 */
function literalCount(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0 || count > 1_000)
    throw new RangeError(`A list length must be a whole number up to 1000, not ${count}`);
  return String(count);
}

const idList = (ids: readonly number[], prefix: string) =>
  ids.length === 0 ? 'NULL' : ids.map((_, index) => `@${prefix}${index}`).join(', ');
const idParams = (ids: readonly number[], prefix: string) =>
  Object.fromEntries(ids.map((id, index) => [`${prefix}${index}`, id]));

/**
 * The common-clause tables of a related-products statement (relatedProductIds): `candidates`, every product sharing a
 * category or tag with @productId and how many it shares, from the (term, product) index alone; `levels`, the share
 * counts from the highest down, until `limit` showable products not left out by `excluded` are found.
 */
function relatedLevels(excluded: string, limit: string): string {
  const nextLevel = '(SELECT MAX(c.shared) FROM candidates c WHERE c.shared < levels.shared)';
  const foundAt = (level: string) =>
    `(SELECT COUNT(*) FROM (SELECT 1 FROM candidates c JOIN products p ON p.id = c.id
        WHERE c.shared = ${level} ${excluded} AND ${SHOWABLE} LIMIT ${limit}) AS level)`;
  return `candidates AS MATERIALIZED (
         SELECT pt.product_id AS id, COUNT(*) AS shared FROM product_terms pt
          WHERE pt.term_id IN (SELECT mine.term_id FROM product_terms mine
              JOIN terms t ON t.id = mine.term_id AND t.taxonomy IN ('product_cat', 'product_tag')
              WHERE mine.product_id = @productId)
            AND pt.product_id <> @productId
          GROUP BY pt.product_id),
       levels(shared, found) AS (
         SELECT top.shared, ${foundAt('top.shared')} FROM (SELECT MAX(shared) AS shared FROM candidates) AS top
         UNION ALL
         SELECT ${nextLevel}, levels.found + ${foundAt(nextLevel)}
           FROM levels WHERE levels.found < ${limit} AND ${nextLevel} IS NOT NULL)`;
}

/**
 * Related products: those sharing at least one category or tag with the product, ranked by how many they share
 * (each shared category or tag counts one), then by sales, then by id, so the order never changes between two
 * loads. The product itself and the ids in `exclude` (its upsells, shown on their own) are left out.
 *
 * A product in a large category shares something with thousands of others; ranking them all read every one of
 * their rows (at 20,000 products, 2,000 rows for every product page). Only the share counts need all of them, and
 * those come from the (term, product) index alone (`candidates`). The rows are then read level by level, the
 * most shared first (`levels`, at most `limit` rows a level), until `limit` showable products are found: every
 * product below that level ranks after them, so only the products at or above it are read and ranked. The result is
 * the same as ranking every candidate (merchandisingSql.test.ts compares the two).
 */
export async function relatedProductIds(
  read: SqlRead,
  productId: number,
  limit: number,
  exclude: readonly number[] = [],
): Promise<number[]> {
  const excluded = exclude.length > 0 ? `AND p.id NOT IN (${idList(exclude, 'x')})` : '';
  const count = literalCount(limit);
  const rows = await read<{ id: number }>(
    `WITH RECURSIVE
       ${relatedLevels(excluded, count)}
     SELECT p.id AS id FROM candidates c JOIN products p ON p.id = c.id
      WHERE c.shared >= (SELECT MIN(shared) FROM levels) ${excluded} AND ${SHOWABLE}
      ORDER BY c.shared DESC, p.total_sales DESC, p.id
      LIMIT ${count}`,
    { productId, ...idParams(exclude, 'x') },
  );
  return rows.map((row) => Number(row.id));
}

/** Products bought in the same orders as this one, the most shared orders first, then by id. */
export async function alsoBoughtIds(read: SqlRead, productId: number, limit: number): Promise<number[]> {
  const rows = await read<{ id: number }>(
    `SELECT p.id AS id FROM product_co_purchases c JOIN products p ON p.id = c.other_id
      WHERE c.product_id = @productId AND ${SHOWABLE}
      ORDER BY c.order_count DESC, p.id
      LIMIT ${literalCount(limit)}`,
    { productId },
  );
  return rows.map((row) => Number(row.id));
}

/** The product's upsells or cross-sells, in the order its CSV row lists them. */
export async function linkedProductIds(
  read: SqlRead,
  productIds: readonly number[],
  kind: 'upsell' | 'cross_sell',
  limit: number,
): Promise<number[]> {
  if (productIds.length === 0) return [];
  const rows = await read<{ id: number; product_id: number; position: number }>(
    `SELECT p.id AS id, l.product_id AS product_id, l.position AS position
       FROM product_links l JOIN products p ON p.id = l.linked_id
      WHERE l.kind = @kind AND l.product_id IN (${idList(productIds, 'p')}) AND ${SHOWABLE}`,
    { kind, ...idParams(productIds, 'p') },
  );
  // In the order of the given products, then each one's own order; a product listed twice shows once.
  const rank = new Map(productIds.map((id, index) => [id, index]));
  const sorted = rows
    .map((row) => ({
      id: Number(row.id),
      from: rank.get(Number(row.product_id)) ?? 0,
      position: Number(row.position),
    }))
    .sort((a, b) => a.from - b.from || a.position - b.position);
  const ids: number[] = [];
  for (const { id } of sorted) {
    if (!ids.includes(id) && !productIds.includes(id)) ids.push(id);
  }
  return ids.slice(0, limit);
}

/**
 * A product page's lists in one statement: its upsells, the products also bought with it (only when at least
 * `alsoBoughtMinimum` are, else none), and its related products leaving out those two lists and the product. The
 * same choices as linkedProductIds, alsoBoughtIds and relatedProductIds run one after the other (the related list
 * needs the other two first, so that was two round trips in a row, three statements); relatedProducts.test.ts
 * compares the two for every demo product. Without `related` (an in-memory index ranks them) the related list is
 * left empty and its part of the statement out.
 */
export async function productPageListIds(
  read: SqlRead,
  productId: number,
  limit: number,
  alsoBoughtMinimum: number,
  { related = true }: { related?: boolean } = {},
): Promise<ProductPageListIds> {
  const excluded = 'AND p.id NOT IN (SELECT shown.id FROM shown)';
  const count = literalCount(limit);
  const relatedTables = `,
       shown AS (SELECT id FROM upsells UNION SELECT id FROM bought),
       ${relatedLevels(excluded, count)},
       related AS (
         SELECT p.id AS id, c.shared AS shared, p.total_sales AS total_sales FROM candidates c
           JOIN products p ON p.id = c.id
          WHERE c.shared >= (SELECT MIN(shared) FROM levels) ${excluded} AND ${SHOWABLE}
          ORDER BY c.shared DESC, p.total_sales DESC, p.id
          LIMIT ${count})`;
  const relatedRows = `
     UNION ALL
     SELECT 'related', id, ROW_NUMBER() OVER (ORDER BY shared DESC, total_sales DESC, id) FROM related`;
  const rows = await read<{ list: string; id: number; rank: number }>(
    `WITH RECURSIVE
       upsells AS (
         SELECT p.id AS id, l.position AS position FROM product_links l JOIN products p ON p.id = l.linked_id
          WHERE l.kind = 'upsell' AND l.product_id = @productId AND p.id <> @productId AND ${SHOWABLE}
          ORDER BY l.position LIMIT ${count}),
       bought_most AS (
         SELECT p.id AS id, c.order_count AS order_count FROM product_co_purchases c JOIN products p ON p.id = c.other_id
          WHERE c.product_id = @productId AND ${SHOWABLE}
          ORDER BY c.order_count DESC, p.id LIMIT ${count}),
       bought AS (SELECT * FROM bought_most WHERE (SELECT COUNT(*) FROM bought_most) >= ${literalCount(alsoBoughtMinimum)})${related ? relatedTables : ''}
     SELECT 'upsells' AS list, id, ROW_NUMBER() OVER (ORDER BY position) AS rank FROM upsells
     UNION ALL
     SELECT 'alsoBought', id, ROW_NUMBER() OVER (ORDER BY order_count DESC, id) FROM bought${related ? relatedRows : ''}`,
    { productId },
  );
  const lists: ProductPageListIds = { upsells: [], alsoBought: [], related: [] };
  for (const row of [...rows].sort((a, b) => Number(a.rank) - Number(b.rank)))
    lists[row.list as keyof ProductPageListIds].push(Number(row.id));
  return lists;
}

/**
 * The pairs an order adds to the co-purchase counts: each two distinct products (parents) of the order, both ways,
 * sorted, so concurrent orders upsert their rows in one order and cannot deadlock on each other.
 */
export function coPurchasePairs(productIds: readonly number[]): [number, number][] {
  const distinct = [...new Set(productIds)].sort((a, b) => a - b);
  const pairs: [number, number][] = [];
  for (const a of distinct) for (const b of distinct) if (a !== b) pairs.push([a, b]);
  return pairs;
}

/** One more order holding both products: an atomic upsert, so concurrent orders never lose a count. */
export const COUNT_CO_PURCHASE = `INSERT INTO product_co_purchases (product_id, other_id, order_count)
  VALUES (@productId, @otherId, 1)
  ON CONFLICT (product_id, other_id) DO UPDATE SET order_count = product_co_purchases.order_count + 1`;
