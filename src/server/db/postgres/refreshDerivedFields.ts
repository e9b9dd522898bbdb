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
