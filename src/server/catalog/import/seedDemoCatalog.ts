import type { Repositories } from '../../db/repositories';
import { projectPath } from '../../projectPath';
import { readCatalogFiles } from './readCatalogFiles';

export const DEMO_CATALOG = {
  csv: projectPath('src/server/catalog/demo/products.csv'),
  sidecar: projectPath('src/server/catalog/demo/site.json'),
};

/** Seeds an empty data dir with the demo catalog; a data dir that already holds a catalog is never re-seeded. */
export async function seedDemoCatalog(repositories: Repositories): Promise<boolean> {
  if ((await repositories.catalog.countProducts()) > 0) return false;
  await repositories.catalog.importCatalog(await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar));
  return true;
}
