import { generateBenchCatalog } from '../src/server/catalog/bench/generateBenchCatalog';
import { shopStorageFromEnv } from '../src/server/cli/cliEnvironment';
import { openRepositories } from '../src/server/db/openRepositories';

/*
 * A catalog import in its own process, as `npm run import` runs beside a live shop (DATA_DIR / DATABASE_URL name
 * the shop): the synthetic catalog of IMPORT_PRODUCTS products. Prints "writing" once the import has begun writing,
 * "done" when it has committed. Run with `node --import tsx test-support/importInChild.ts`.
 */
const products = Number(process.env.IMPORT_PRODUCTS ?? 2000);
const repositories = await openRepositories(shopStorageFromEnv());
let told = false;
await repositories.catalog.importCatalog(generateBenchCatalog({ products }), () => {
  if (told) return;
  told = true;
  process.stdout.write('writing\n');
});
await repositories.close();
process.stdout.write('done\n');
