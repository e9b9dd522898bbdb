import { generateBenchCatalog } from '../catalog/bench/generateBenchCatalog';
import { openRepositories } from '../db/openRepositories';
import { createProgressBar, shopStorageFromEnv } from './cliEnvironment';

/**
 * `npm run seed:bench -- --products 100000 [--seed N]`: fills an empty DATA_DIR with the deterministic synthetic
 * catalog the search benchmark uses (variations, brands, vendors, Zipf-like sales).
 */
async function main() {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const index = args.indexOf(`--${name}`);
    const value = index >= 0 ? Number(args[index + 1]) : fallback;
    if (!Number.isInteger(value) || value <= 0 || value > 2_000_000) {
      console.error(`--${name} must be a whole number between 1 and 2,000,000`);
      process.exit(2);
    }
    return value;
  };
  const products = option('products', 100_000);
  const seed = option('seed', 42);
  const storage = shopStorageFromEnv();
  const { dataDir } = storage;
  const repositories = await openRepositories(storage);
  try {
    if ((await repositories.catalog.countProducts()) > 0) {
      console.error(`${dataDir} already holds a catalog; point DATA_DIR at an empty directory.`);
      process.exitCode = 1;
      return;
    }
    const catalog = generateBenchCatalog({ products, seed });
    const bar = createProgressBar('Writing [{bar}] {value}/{total} rows');
    bar.start(catalog.products.length, 0);
    const summary = await repositories.catalog.importCatalog(catalog, (done) => bar.update(done), {
      ownConnection: true,
    });
    bar.stop();
    console.log(
      `Seeded ${dataDir}: ${summary.created} products (${summary.variations} variations), ` +
        `${catalog.site.brands.length} brands, ${catalog.site.vendors.length} vendors.`,
    );
  } finally {
    await repositories.close();
  }
}

void main();
