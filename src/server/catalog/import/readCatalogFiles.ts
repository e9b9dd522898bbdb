import { readFile } from 'node:fs/promises';
import { ShopError } from '../../../shared/errors/ShopError';
import type { CatalogImport } from './catalogImport';
import { parseWooCsv } from './parseWooCsv';
import { EMPTY_SIDECAR, siteSidecarSchema } from './siteSidecarSchema';

/**
 * Reads a products CSV and its optional sidecar JSON into an import. Nothing is written: a bad row or a bad
 * sidecar throws an `import_failed` ShopError listing every problem with its line and column.
 */
export async function readCatalogFiles(csvPath: string, sidecarPath?: string): Promise<CatalogImport> {
  const { products, errors } = parseWooCsv(await readFile(csvPath, 'utf8'));
  let site = EMPTY_SIDECAR;
  if (sidecarPath) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(sidecarPath, 'utf8'));
    } catch (error) {
      throw new ShopError('import_failed', `${sidecarPath} is not valid JSON: ${(error as Error).message}`);
    }
    const parsed = siteSidecarSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
      throw new ShopError('import_failed', `${sidecarPath}: ${problems.join('; ')}`);
    }
    site = parsed.data;
  }
  if (errors.length > 0) {
    throw new ShopError('import_failed', `${errors.length} row(s) of ${csvPath} could not be imported`, {
      errors,
    });
  }
  return { products, site };
}
