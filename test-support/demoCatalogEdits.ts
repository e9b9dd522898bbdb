import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readCatalogFiles } from '../src/server/catalog/import/readCatalogFiles';
import { DEMO_CATALOG } from '../src/server/catalog/import/seedDemoCatalog';

/** The demo catalog's Macramé Plant Hanger (19.50) and its page. */
export const HANGER_URL = '/product/macrame-plant-hanger/';

/**
 * The demo catalog as an owner would re-import it with one price edited: the plant hanger at `price` (written as
 * the CSV writes it, `66.66`), in `dataDir`; read and ready for `importCatalog`.
 */
export async function demoCatalogWithHangerAt(dataDir: string, price: string) {
  const csv = readFileSync(DEMO_CATALOG.csv, 'utf8').replace(
    /^(1030,simple,.*?Macramé Plant Hanger.*)$/m,
    (line) => line.replace(',19.5,', `,${price},`),
  );
  if (!csv.includes(`,${price},`)) throw new Error('the plant hanger row of the demo catalog changed');
  const path = join(dataDir, 'edited.csv');
  writeFileSync(path, csv);
  return readCatalogFiles(path, DEMO_CATALOG.sidecar);
}
