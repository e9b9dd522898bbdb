import { generateBenchCatalog } from '../../src/server/catalog/bench/generateBenchCatalog';
import type { CatalogImport, ImportProduct } from '../../src/server/catalog/import/catalogImport';
import { shopStorageFromEnv } from '../../src/server/cli/cliEnvironment';
import { openRepositories } from '../../src/server/db/openRepositories';

/*
 * What bench/live-import.bench.mjs runs in its import process (built as dist/server/live-import-bench.js): the
 * synthetic catalog (seed:bench's generator), and two files made from it — the same catalog with 20% of its prices
 * changed and 5% of its products renamed, and a catalog of as many new products — each imported into the shop
 * DATA_DIR / DATABASE_URL name, as `npm run import` does, in its own process.
 */

export type LiveImportVariant = 'base' | 'reimport' | 'new';

/** A word of letters only, unique per index, that no generated name holds: a renamed product is found by it. */
export function renameToken(index: number): string {
  return `zq${index.toString(26).replace(/[0-9]/g, (digit) => String.fromCharCode(113 + Number(digit)))}x`;
}

export function liveImportCatalog(variant: LiveImportVariant, products: number): CatalogImport {
  if (variant === 'new') {
    const fresh = generateBenchCatalog({ products, seed: 7 });
    // The same shop's vendors and brands, as an owner adding products has them: the first import's (another seed
    // names them otherwise, and importing its sidecar would rename every vendor and brand).
    const shop = generateBenchCatalog({ products, seed: 42 }).site;
    const brandNames = new Map(
      fresh.site.brands.map((brand, index) => [brand.name, shop.brands[index]?.name ?? brand.name]),
    );
    const sku = (value: string | null) => (value === null ? null : value.replace(/^BN-/, 'NW-'));
    return {
      ...fresh,
      // Its per-product figures under the new SKUs (vendors are named by slug, the same in both).
      site: {
        ...fresh.site,
        brands: shop.brands,
        vendors: shop.vendors,
        products: Object.fromEntries(
          Object.entries(fresh.site.products).map(([key, meta]) => [sku(key) as string, meta]),
        ),
      },
      products: fresh.products.map((product) => ({
        ...product,
        sku: sku(product.sku),
        brands: product.brands.map((name) => brandNames.get(name) ?? name),
        parent: product.parent && 'sku' in product.parent ? { sku: sku(product.parent.sku) as string } : null,
      })),
    };
  }
  const catalog = generateBenchCatalog({ products, seed: 42 });
  if (variant === 'base') return catalog;
  const parents = catalog.products.filter((product) => product.type !== 'variation');
  const variations = new Map<string, ImportProduct[]>();
  for (const product of catalog.products) {
    if (product.parent && 'sku' in product.parent) {
      variations.set(product.parent.sku, [...(variations.get(product.parent.sku) ?? []), product]);
    }
  }
  parents.forEach((product, index) => {
    if (index % 5 === 0) {
      // 20% repriced: a simple product's price, a variable product's variations' prices.
      for (const priced of product.type === 'variable'
        ? (variations.get(product.sku ?? '') ?? [])
        : [product]) {
        priced.regularPrice = (priced.regularPrice ?? 0) + 100;
      }
    }
    if (index % 20 === 1) product.name = `${product.name} ${renameToken(index)}`;
  });
  return catalog;
}

/** The renamed products of the re-import: their SKU and the word only their new name holds. */
export function renamedProducts(products: number): { sku: string; token: string }[] {
  const catalog = generateBenchCatalog({ products, seed: 42 });
  return catalog.products
    .filter((product) => product.type !== 'variation')
    .flatMap((product, index) =>
      index % 20 === 1 ? [{ sku: product.sku as string, token: renameToken(index) }] : [],
    );
}

/** Imports one variant into the shop the environment names; prints the summary as JSON on stdout. */
export async function importLiveVariant(variant: LiveImportVariant, products: number) {
  const catalog = liveImportCatalog(variant, products);
  const repositories = await openRepositories(shopStorageFromEnv());
  try {
    const started = performance.now();
    const summary = await repositories.catalog.importCatalog(catalog, undefined, { ownConnection: true });
    process.stdout.write(`${JSON.stringify({ ...summary, ms: performance.now() - started })}\n`);
  } finally {
    await repositories.close();
  }
}
