import { randomUUID } from 'node:crypto';
import type { ImportJobSummary } from '../../../shared/catalog/adminProducts';
import { isShopError } from '../../../shared/errors/ShopError';
import type { CatalogRepository } from '../../db/ports';
import type { ImportProduct, ImportRowError } from './catalogImport';
import { parseWooCsv } from './parseWooCsv';
import { EMPTY_SIDECAR } from './siteSidecarSchema';

/*
 * A WooCommerce CSV uploaded in the back office, imported as a job: the rows that cannot be imported are skipped
 * with their reasons (where the command-line import refuses the whole file), and the rest is written in batches
 * through the same planner as `npm run import`, each batch one transaction, the job's row updated after each so
 * any process can show the progress. A parent and its variations always share a batch.
 */

/** Rows per batch: small enough for the progress to move, large enough not to slow a big file down. */
const BATCH_ROWS = 25;

export async function startImportJob(
  catalog: CatalogRepository,
  { fileName, csv }: { fileName: string; csv: string },
  now: () => number = Date.now,
): Promise<{ id: string; finished: Promise<void> }> {
  const id = randomUUID();
  await catalog.createImportJob({ id, fileName, csv, now: now() });
  return { id, finished: runImportJob(catalog, id, csv, now) };
}

async function runImportJob(catalog: CatalogRepository, id: string, csv: string, now: () => number) {
  const summary: ImportJobSummary = { created: 0, updated: 0, unchanged: 0, skipped: [] };
  let done = 0;
  let total = 0;
  const report = (status: 'running' | 'done' | 'failed', error: string | null = null) =>
    catalog.updateImportJob({ id, status, done, total, summary, error, now: now() });
  try {
    const { products, errors } = parseWooCsv(csv);
    const nameAt = new Map(products.map((product) => [product.line, product.name]));
    const skip = (rowErrors: readonly ImportRowError[]) => {
      for (const error of rowErrors) {
        const earlier = summary.skipped.find((skipped) => skipped.line === error.line);
        const reason = error.column.startsWith('(') ? error.message : `${error.column}: ${error.message}`;
        if (earlier) earlier.reason += `; ${reason}`;
        else summary.skipped.push({ line: error.line, name: nameAt.get(error.line) ?? '', reason });
      }
    };
    skip(errors);
    const skippedLines = new Set(errors.map((error) => error.line));
    const kept = products.filter((product) => !skippedLines.has(product.line));
    // Upsells and cross-sells may name products of a later batch: batches are written without them, and the rows
    // that have them are written once more at the end, when every product of the file exists.
    const batches = batchesOf(
      kept.map(({ upsells: _upsells, crossSells: _crossSells, ...product }) => product),
    );
    const withLinks = kept.filter(
      (product) => (product.upsells?.length ?? 0) > 0 || (product.crossSells?.length ?? 0) > 0,
    );
    total = products.length + errors.filter((error) => !nameAt.has(error.line)).length;
    done = total - batches.flat().length;
    await report('running');
    for (let batch of batches) {
      // A batch the planner refuses rows of is written again without them (their reasons go to the summary).
      for (let attempt = 0; batch.length > 0 && attempt < 5; attempt++) {
        try {
          const written = await catalog.importCatalog({ products: batch, site: EMPTY_SIDECAR });
          summary.created += written.created;
          summary.updated += written.updated;
          summary.unchanged = (summary.unchanged ?? 0) + written.unchanged;
          break;
        } catch (error) {
          const rowErrors = isShopError(error)
            ? (error.details.errors as ImportRowError[] | undefined)
            : undefined;
          if (!rowErrors || rowErrors.length === 0) throw error;
          skip(rowErrors);
          const refused = new Set(rowErrors.map((rowError) => rowError.line));
          done += batch.filter((product) => refused.has(product.line)).length;
          batch = batch.filter((product) => !refused.has(product.line));
        }
      }
      done += batch.length;
      await report('running');
      // Let the process answer other requests (the progress page among them) between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const refusedLines = new Set(summary.skipped.map((skipped) => skipped.line));
    let linkRows = withLinks.filter((product) => !refusedLines.has(product.line));
    for (let attempt = 0; linkRows.length > 0 && attempt < 5; attempt++) {
      try {
        await catalog.importCatalog({ products: linkRows, site: EMPTY_SIDECAR });
        break;
      } catch (error) {
        const rowErrors = isShopError(error)
          ? (error.details.errors as ImportRowError[] | undefined)
          : undefined;
        if (!rowErrors || rowErrors.length === 0) throw error;
        // The product itself was written by its batch: only its links are left out, and the summary says so.
        skip(
          rowErrors.map((rowError) => ({ ...rowError, column: `${rowError.column} (links not imported)` })),
        );
        const refused = new Set(rowErrors.map((rowError) => rowError.line));
        linkRows = linkRows.filter((product) => !refused.has(product.line));
      }
    }
    summary.skipped.sort((a, b) => a.line - b.line);
    done = total;
    await report('done');
  } catch (error) {
    await report('failed', (error as Error).message).catch(() => undefined);
  }
}

/** Keeps each variation with its parent (by SKU or ID in the file); grouped products go last, after their children. */
function batchesOf(products: readonly ImportProduct[]): ImportProduct[][] {
  const groups = new Map<ImportProduct, ImportProduct[]>();
  const bySku = new Map(products.filter((p) => p.sku !== null).map((p) => [p.sku as string, p]));
  const byId = new Map(products.filter((p) => p.csvId !== null).map((p) => [p.csvId as number, p]));
  const orphans: ImportProduct[] = [];
  for (const product of products) if (product.type !== 'variation') groups.set(product, [product]);
  for (const product of products) {
    if (product.type !== 'variation') continue;
    const reference = product.parent;
    const parent = reference && ('sku' in reference ? bySku.get(reference.sku) : byId.get(reference.csvId));
    const group = parent && groups.get(parent);
    if (group) group.push(product);
    else orphans.push(product);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => Number(a[0]?.type === 'grouped') - Number(b[0]?.type === 'grouped'),
  );
  const batches: ImportProduct[][] = [];
  let current: ImportProduct[] = [];
  for (const group of [...ordered, ...orphans.map((orphan) => [orphan])]) {
    if (current.length > 0 && current.length + group.length > BATCH_ROWS) {
      batches.push(current);
      current = [];
    }
    current.push(...group);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
