import type Database from 'better-sqlite3';

/**
 * Recomputes a product's listing price range and stock status from what it is made of: a variable product from
 * its published variations, a grouped one from its children, any other from its own prices.
 * Called after every catalog write and order that changes prices or stock.
 */
export function refreshDerivedFields(db: Database.Database, productId: number) {
  const product = db.prepare('SELECT type FROM products WHERE id = ?').get(productId) as
    | { type: string }
    | undefined;
  if (!product) return;
  const current = 'COALESCE(sale_price, regular_price)';
  if (product.type === 'variable' || product.type === 'grouped') {
    const members =
      product.type === 'variable'
        ? "SELECT * FROM products WHERE parent_id = @id AND status = 'publish'"
        : "SELECT p.* FROM products p JOIN grouped_children g ON g.child_id = p.id WHERE g.parent_id = @id AND p.status = 'publish'";
    db.prepare(
      `UPDATE products SET
         price_min = (SELECT MIN(${current}) FROM (${members})),
         price_max = (SELECT MAX(${current}) FROM (${members})),
         stock_status = CASE
           WHEN EXISTS (SELECT 1 FROM (${members}) WHERE stock_status = 'instock') THEN 'instock'
           WHEN EXISTS (SELECT 1 FROM (${members}) WHERE stock_status = 'onbackorder') THEN 'onbackorder'
           ELSE 'outofstock' END
       WHERE id = @id`,
    ).run({ id: productId });
  } else {
    db.prepare(`UPDATE products SET price_min = ${current}, price_max = ${current} WHERE id = ?`).run(
      productId,
    );
  }
}
