import type { Repositories } from '../../db/ports';
import { projectPath } from '../../projectPath';
import { readCatalogFiles } from './readCatalogFiles';

export const DEMO_CATALOG = {
  csv: projectPath('src/server/catalog/demo/products.csv'),
  sidecar: projectPath('src/server/catalog/demo/site.json'),
};

/**
 * Seeds a new shop's database with the demo catalog. A database that holds a catalog, or orders (a shop whose owner
 * removed every product), is never seeded again.
 */
export async function seedDemoCatalog(repositories: Repositories): Promise<boolean> {
  if ((await repositories.catalog.countProducts()) > 0) return false;
  if ((await repositories.orders.countOrders()) > 0) return false;
  await repositories.catalog.importCatalog(await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar));
  return true;
}
