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

/** `p` is a product a shopper may be shown in these lists. */
export const SHOWABLE = `p.status = 'publish' AND p.type <> 'variation' AND p.visibility IN ('visible', 'catalog')
  AND p.stock_status <> 'outofstock'
  AND (p.stock_status = 'onbackorder' OR p.stock_quantity IS NULL OR p.stock_quantity > 0)`;

const idList = (ids: readonly number[], prefix: string) =>
  ids.length === 0 ? 'NULL' : ids.map((_, index) => `@${prefix}${index}`).join(', ');
const idParams = (ids: readonly number[], prefix: string) =>
  Object.fromEntries(ids.map((id, index) => [`${prefix}${index}`, id]));

/**
 * Related products: those sharing at least one category or tag with the product, ranked by how many they share
 * (each shared category or tag counts one), then by sales, then by id, so the order never changes between two
 * loads. The product itself and the ids in `exclude` (its upsells, shown on their own) are left out.
 */
export async function relatedProductIds(
  read: SqlRead,
  productId: number,
  limit: number,
  exclude: readonly number[] = [],
): Promise<number[]> {
  const rows = await read<{ id: number }>(
    `SELECT p.id AS id FROM products p
       JOIN product_terms pt ON pt.product_id = p.id
       JOIN terms t ON t.id = pt.term_id AND t.taxonomy IN ('product_cat', 'product_tag')
       JOIN product_terms mine ON mine.term_id = pt.term_id AND mine.product_id = @productId
      WHERE p.id <> @productId ${exclude.length > 0 ? `AND p.id NOT IN (${idList(exclude, 'x')})` : ''} AND ${SHOWABLE}
      GROUP BY p.id, p.total_sales
      ORDER BY COUNT(*) DESC, p.total_sales DESC, p.id
      LIMIT @limit`,
    { productId, limit, ...idParams(exclude, 'x') },
  );
  return rows.map((row) => Number(row.id));
}

/** Products bought in the same orders as this one, the most shared orders first, then by id. */
export async function alsoBoughtIds(read: SqlRead, productId: number, limit: number): Promise<number[]> {
  const rows = await read<{ id: number }>(
    `SELECT p.id AS id FROM product_co_purchases c JOIN products p ON p.id = c.other_id
      WHERE c.product_id = @productId AND ${SHOWABLE}
      ORDER BY c.order_count DESC, p.id
      LIMIT @limit`,
    { productId, limit },
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
