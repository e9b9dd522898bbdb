import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { generateBenchCatalog } from '../src/server/catalog/bench/generateBenchCatalog';
import { writeWooCsv } from '../src/server/catalog/import/writeWooCsv';
import { openDatabase } from '../src/server/db/openDatabase';
import { TEST_DATABASE_URL } from '../src/server/db/postgres/testDatabase';
import { createSqliteRepositories } from '../src/server/db/sqlite/createSqliteRepositories';
import { type RunningShop, startShop } from './support/startShop';

/*
 * The built shop on SQLite starts its search read thread (dist/server/search-read-worker.js,
 * started by the server as main.ts names it, and counted by GET /healthz): two `npm run import`s of 1,600 products
 * each, the second handed over to the shop before it commits, its products suggested with nothing read back on the
 * thread; and, in a data dir without the handoff's side file, the second import followed from the catalog: merged,
 * its products read on the thread.
 */

test.skip(
  !!TEST_DATABASE_URL,
  'the read thread is SQLite’s: PostgreSQL reads without holding the event loop',
);
test.setTimeout(120_000);

const run = promisify(execFile);

/** A WooCommerce CSV of the synthetic catalog (`seed`), its SKUs under `prefix`, and one product's SKU and name. */
async function catalogCsv(dir: string, seed: number, prefix: string) {
  const scratch = mkdtempSync(join(tmpdir(), 'shop-csv-'));
  const db = openDatabase(scratch);
  const repositories = createSqliteRepositories(db);
  try {
    const catalog = generateBenchCatalog({ products: 1600, seed });
    await repositories.catalog.importCatalog(catalog);
    const csv = writeWooCsv(await repositories.catalog.readCatalogForExport()).replaceAll(
      'BN-',
      `${prefix}-`,
    );
    const file = join(dir, `${prefix}.csv`);
    writeFileSync(file, csv);
    const last = catalog.products.find((product) => product.sku === 'BN-001600');
    return { file, name: last?.name as string };
  } finally {
    await repositories.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shop-import-'));
});
test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * Against `shop`: imports the synthetic catalog (`seed`, SKUs under `prefix`) with `npm run import`, waits until one of
 * its products is suggested, and answers the read thread's counts from /healthz then.
 */
function importer(shop: RunningShop, request: APIRequestContext) {
  const suggested = async (name: string) => {
    const response = await request.get(
      `${shop.url}/?wc-ajax=search_suggestions&s=${encodeURIComponent(name)}`,
    );
    const body = (await response.json()) as { suggestions: { value: string }[] };
    return body.suggestions.map((suggestion) => suggestion.value);
  };
  return async (seed: number, prefix: string): Promise<{ documents: number; failures: number }> => {
    const csv = await catalogCsv(dir, seed, prefix);
    await run(process.execPath, ['dist/server/import.js', csv.file], {
      env: { ...process.env, ...shop.env },
    });
    await expect.poll(() => suggested(csv.name), { timeout: 30_000 }).toContain(csv.name);
    return (await (await request.get(`${shop.url}/healthz`)).json()).searchReadThread;
  };
}

test('the read thread runs in the built shop, and a big import handed over is suggested with nothing read back', async ({
  request,
}) => {
  const shop = await startShop();
  try {
    const importSuggested = importer(shop, request);
    // Into the demo shop, 1,600 products are a full build (a merge takes at most twice the index's documents).
    expect(await importSuggested(42, 'BA')).toEqual({ documents: 0, failures: 0 });
    // `npm run import` hands its documents to the shop before it commits: nothing is read back, on the thread or off.
    expect(await importSuggested(9, 'EX')).toEqual({ documents: 0, failures: 0 });
  } finally {
    await shop.stop();
  }
});

test('without the handoff side file, a big import is followed from the catalog: its products read on the thread', async ({
  request,
}) => {
  // A directory where the side file goes: the shop and the import both go on without it (as in a data dir they may
  // not write to), so the import commits in one transaction and the shop reads its products back, merging them.
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-no-handoffs-'));
  mkdirSync(join(dataDir, 'shop.sqlite-handoffs'));
  const shop = await startShop(undefined, dataDir);
  try {
    const importSuggested = importer(shop, request);
    expect(await importSuggested(42, 'BB')).toEqual({ documents: 0, failures: 0 });
    const after = await importSuggested(9, 'EY');
    expect(after.failures).toBe(0);
    expect(after.documents).toBeGreaterThan(1500);
  } finally {
    await shop.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
