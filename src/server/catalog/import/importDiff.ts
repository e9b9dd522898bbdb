import type { ImportProductRelations, ImportProductRow, StoredProduct } from './importPlan';

/*
 * What an import changes of a stored product, decided in plain code: the planner writes a product's row, or one of
 * its lists (terms, images, downloads, attributes), only when the file says something else than the database
 * holds, so a re-import of an unchanged file writes nothing and the change feed hears only of what changed.
 */

/** Whether writing `row` would change the stored columns. */
export function productRowChanged(stored: ImportProductRow, row: ImportProductRow): boolean {
  for (const key of Object.keys(row) as (keyof ImportProductRow)[]) {
    // The file's total sales only when the sidecar gives them (null keeps the stored figure).
    if (key === 'totalSales' && row.totalSales === null) continue;
    // A variable or grouped product's stock status is derived from its variations or children after every write.
    if (key === 'stockStatus' && (row.type === 'variable' || row.type === 'grouped')) continue;
    if (stored[key] !== row[key]) return true;
  }
  return false;
}

/**
 * `relations` with each image the product already has at the same address keeping its stored alt text and colour:
 * a WooCommerce file carries neither (the planner derives them from the name), so a product renamed in the back
 * office and exported would otherwise differ from its own export.
 */
export function withStoredImageText(
  relations: ImportProductRelations,
  stored: StoredProduct,
): ImportProductRelations {
  const storedAt = new Map(stored.images.map((image) => [image.sourceUrl, image]));
  return {
    ...relations,
    images: relations.images.map((image) => {
      const kept = storedAt.get(image.sourceUrl);
      return kept ? { ...image, alt: kept.alt, color: kept.color } : image;
    }),
  };
}

/** The lists of `relations` that differ from what is stored; an empty object when none does. */
export function changedRelations(
  stored: StoredProduct,
  relations: ImportProductRelations,
): Partial<ImportProductRelations> {
  const change: Partial<ImportProductRelations> = {};
  const plannedTerms = new Set(relations.termLinks.map((link) => link.termId));
  const newTerms = relations.termLinks.some((link) => link.newTerms.length > 0);
  if (newTerms || !sameSet(plannedTerms, new Set(stored.termIds))) change.termLinks = relations.termLinks;
  if (!sameList(relations.images, stored.images, imageKey)) change.images = relations.images;
  if (!sameList(relations.downloads, stored.downloads, downloadKey)) change.downloads = relations.downloads;
  if (relations.attributes !== null && !sameAttributes(relations.attributes, stored.attributes)) {
    change.attributes = relations.attributes;
  }
  if (
    relations.variationAttributes !== null &&
    !sameVariationAttributes(relations.variationAttributes, stored.variationAttributes)
  ) {
    change.variationAttributes = relations.variationAttributes;
  }
  return change;
}

export function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  return a.size === b.size && [...a].every((value) => b.has(value));
}

function sameList<T>(a: readonly T[], b: readonly T[], key: (value: T) => string): boolean {
  return a.length === b.length && a.every((value, index) => key(value) === key(b[index] as T));
}

const imageKey = (image: ImportProductRelations['images'][number]) =>
  JSON.stringify([image.position, image.sourceUrl, image.alt, image.color, image.storedKey]);
const downloadKey = (download: ImportProductRelations['downloads'][number]) =>
  JSON.stringify([download.position, download.name, download.url]);

function sameAttributes(
  planned: NonNullable<ImportProductRelations['attributes']>,
  stored: StoredProduct['attributes'],
): boolean {
  const written = planned.map(({ attribute, position, visible, terms }) => {
    // A value named twice is stored once, at its first position (the executor ignores the second).
    const seen = new Set<string>();
    const kept = terms.filter(({ term }) => !seen.has(term.slug) && seen.add(term.slug));
    return {
      slug: attribute.slug,
      position,
      visible,
      terms: kept.map(({ term, position: termPosition }) => ({ slug: term.slug, position: termPosition })),
    };
  });
  return sameList(written, stored, (attribute) => JSON.stringify(attribute));
}

function sameVariationAttributes(
  planned: NonNullable<ImportProductRelations['variationAttributes']>,
  stored: StoredProduct['variationAttributes'],
): boolean {
  const key = (value: { attribute: string; term: string | null }) => JSON.stringify(value);
  const written = planned.map(({ attribute, term }) =>
    key({ attribute: attribute.slug, term: term?.slug ?? null }),
  );
  const held = stored.map(key);
  return sameSet(new Set(written), new Set(held)) && written.length === held.length;
}
