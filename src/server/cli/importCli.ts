import { dirname, resolve } from 'node:path';
import { isShopError } from '../../shared/errors/ShopError';
import { storeCatalogImages } from '../catalog/images/storeCatalogImages';
import type { ImportRowError } from '../catalog/import/catalogImport';
import { readCatalogFiles } from '../catalog/import/readCatalogFiles';
import { openRepositories } from '../db/openRepositories';
import { createProgressBar, shopStorageFromEnv } from './cliEnvironment';

/**
 * `npm run import -- FILE.csv [SITE.json] [--remove-missing]`: loads a WooCommerce product export into DATA_DIR in
 * one transaction, writing only what differs from the stored catalog. With `--remove-missing` the file is the whole
 * catalog: stored products it does not name are deleted.
 */
async function main() {
  const args = process.argv.slice(2);
  const removeMissing = args.includes('--remove-missing');
  const [csvPath, sidecarPath] = args.filter((arg) => arg !== '--remove-missing');
  if (!csvPath) {
    console.error('Usage: npm run import -- FILE.csv [SITE.json] [--remove-missing]');
    process.exit(2);
  }
  const storage = shopStorageFromEnv();
  const { dataDir } = storage;
  const repositories = await openRepositories(storage);
  const bar = createProgressBar('Importing [{bar}] {value}/{total} products');
  try {
    const read = await readCatalogFiles(resolve(csvPath), sidecarPath ? resolve(sidecarPath) : undefined);
    const imageBar = createProgressBar('Images    [{bar}] {value}/{total} fetched and resized');
    imageBar.start(0, 0);
    const images = await storeCatalogImages(read, {
      dataDir,
      baseDir: dirname(resolve(csvPath)),
      onProgress: (done, total) => {
        imageBar.setTotal(total);
        imageBar.update(done);
      },
    });
    imageBar.stop();
    for (const { source, reason } of images.failed) {
      console.warn(`  image not stored, the placeholder shows instead: ${source} (${reason})`);
    }
    const catalog = { ...images.catalog, removeMissing };
    bar.start(catalog.products.length, 0);
    const summary = await repositories.catalog.importCatalog(catalog, (done) => bar.update(done), {
      ownConnection: true,
    });
    bar.stop();
    console.log(
      `Imported ${csvPath} into ${dataDir}: ${summary.created} created, ${summary.updated} updated, ` +
        `${summary.unchanged} unchanged, ${summary.removed} removed ` +
        `(${summary.variations} variations), ${summary.categories} categories, ${summary.posts} posts and pages; ` +
        `${images.stored} images stored, ${images.failed.length} left to the placeholder.`,
    );
  } catch (error) {
    bar.stop();
    if (!isShopError(error)) throw error;
    console.error(`Nothing was imported. ${error.message}:`);
    for (const problem of (error.details.errors as ImportRowError[] | undefined) ?? []) {
      console.error(`  line ${problem.line}, column "${problem.column}": ${problem.message}`);
    }
    process.exitCode = 1;
  } finally {
    await repositories.close();
  }
}

void main();
