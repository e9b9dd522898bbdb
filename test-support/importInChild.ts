import { readSync } from 'node:fs';
import { generateBenchCatalog } from '../src/server/catalog/bench/generateBenchCatalog';
import { shopStorageFromEnv } from '../src/server/cli/cliEnvironment';
import { openRepositories } from '../src/server/db/openRepositories';

/*
 * A catalog import in its own process, as `npm run import` runs beside a live shop (DATA_DIR / DATABASE_URL name
 * the shop): the synthetic catalog of IMPORT_PRODUCTS products. Prints "writing" once the import has begun writing,
 * then holds its transaction open (blocked on reading stdin) until a line arrives, and prints "done" once it has
 * committed: a test sends its requests while the import is known to be mid-write, without timing anything.
 * Run with `node --import tsx test-support/importInChild.ts`.
 */
const products = Number(process.env.IMPORT_PRODUCTS ?? 2000);
// IMPORT_OWN_CONNECTION=1: as `npm run import` imports, a process of its own that may hand its documents to the
// shop before committing; otherwise in one synchronous transaction (the shop reads the products once it commits).
const ownConnection = process.env.IMPORT_OWN_CONNECTION === '1';
const repositories = await openRepositories(shopStorageFromEnv());
let told = false;
await repositories.catalog.importCatalog(
  generateBenchCatalog({ products }),
  () => {
    if (told) return;
    told = true;
    process.stdout.write('writing\n');
    // Synchronous on purpose: the import (and its transaction) stops here until the test says go.
    readSync(0, Buffer.alloc(16));
  },
  { ownConnection },
);
await repositories.close();
process.stdout.write('done\n');
