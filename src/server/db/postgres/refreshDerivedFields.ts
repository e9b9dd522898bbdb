import type { Queryable } from './openPostgres';

/** PostgreSQL's refreshDerivedFields (sqlite/refreshDerivedFields.ts): the same rules, subqueries aliased. */
export async function refreshDerivedFieldsPg(db: Queryable, productId: number) {
  const { rows } = await db.query('SELECT type FROM products WHERE id = $1', [productId]);
  const type = rows[0]?.type as string | undefined;
  if (!type) return;
  const current = 'COALESCE(sale_price, regular_price)';
  if (type === 'variable' || type === 'grouped') {
    const members =
      type === 'variable'
        ? "SELECT * FROM products WHERE parent_id = $1 AND status = 'publish'"
        : "SELECT p.* FROM products p JOIN grouped_children g ON g.child_id = p.id WHERE g.parent_id = $1 AND p.status = 'publish'";
    await db.query(
      `UPDATE products SET
         price_min = (SELECT MIN(${current}) FROM (${members}) m),
         price_max = (SELECT MAX(${current}) FROM (${members}) m),
         stock_status = CASE
           WHEN EXISTS (SELECT 1 FROM (${members}) m WHERE stock_status = 'instock') THEN 'instock'
           WHEN EXISTS (SELECT 1 FROM (${members}) m WHERE stock_status = 'onbackorder') THEN 'onbackorder'
           ELSE 'outofstock' END
       WHERE id = $1`,
      [productId],
    );
  } else {
    await db.query(`UPDATE products SET price_min = ${current}, price_max = ${current} WHERE id = $1`, [
      productId,
    ]);
  }
}

/**
 * refreshDerivedFieldsPg for many products in a few statements (an import refreshes thousands): which attributes
 * their variations use, then the listing price range and stock status by the same rules.
 */
export async function refreshProductsPg(db: Queryable, productIds: readonly number[]) {
  const ids = [...new Set(productIds)];
  const current = 'COALESCE(m.sale_price, m.regular_price)';
  const derived = `MIN(${current}) AS price_min, MAX(${current}) AS price_max,
    CASE WHEN bool_or(m.stock_status = 'instock') THEN 'instock'
      WHEN bool_or(m.stock_status = 'onbackorder') THEN 'onbackorder' ELSE 'outofstock' END AS stock_status`;
  await db.query(
    `UPDATE product_attributes SET for_variations = (EXISTS (
       SELECT 1 FROM products v JOIN variation_attributes va ON va.variation_id = v.id
       WHERE v.parent_id = product_attributes.product_id AND va.attribute_id = product_attributes.attribute_id
     ))::int
     WHERE product_id = ANY($1::bigint[])`,
    [ids],
  );
  await db.query(
    `UPDATE products SET price_min = COALESCE(sale_price, regular_price),
       price_max = COALESCE(sale_price, regular_price)
     WHERE id = ANY($1::bigint[]) AND type NOT IN ('variable', 'grouped')`,
    [ids],
  );
  await db.query(
    `UPDATE products p SET price_min = d.price_min, price_max = d.price_max, stock_status = d.stock_status
     FROM (
       SELECT p2.id, ${derived} FROM products p2
       LEFT JOIN products m ON m.parent_id = p2.id AND m.status = 'publish'
       WHERE p2.id = ANY($1::bigint[]) AND p2.type = 'variable' GROUP BY p2.id
     ) d
     WHERE p.id = d.id`,
    [ids],
  );
  await db.query(
    `UPDATE products p SET price_min = d.price_min, price_max = d.price_max, stock_status = d.stock_status
     FROM (
       SELECT p2.id, ${derived} FROM products p2
       LEFT JOIN grouped_children g ON g.parent_id = p2.id
       LEFT JOIN products m ON m.id = g.child_id AND m.status = 'publish'
       WHERE p2.id = ANY($1::bigint[]) AND p2.type = 'grouped' GROUP BY p2.id
     ) d
     WHERE p.id = d.id`,
    [ids],
  );
}
