import { generateBenchCatalog } from '../src/server/catalog/bench/generateBenchCatalog';

/** The bench catalog of `seed` (1,600 products) under SKUs starting `prefix` instead of BN-: new products for a shop. */
export function newBenchProducts(prefix: string, seed: number) {
  const catalog = generateBenchCatalog({ products: 1600, seed });
  const renumbered = (sku: string) => sku.replace(/^BN-/, `${prefix}-`);
  catalog.products = catalog.products.map((row) => ({
    ...row,
    sku: row.sku && renumbered(row.sku),
    parent: row.parent && 'sku' in row.parent ? { sku: renumbered(row.parent.sku) } : row.parent,
  }));
  catalog.site.products = Object.fromEntries(
    Object.entries(catalog.site.products).map(([sku, sidecar]) => [renumbered(sku), sidecar]),
  );
  return catalog;
}
