import { parse } from 'csv-parse/sync';
import type { CatalogVisibility, StockStatus } from '../../../shared/catalog/types';
import { parseMoney } from '../../../shared/money/formatMoney';
import type { ImportAttribute, ImportProduct, ImportRowError, ProductReference } from './catalogImport';

/*
 * Reads WooCommerce's product CSV export format (the columns of its exporter, byte-order mark included) into
 * import rows. It never touches the database: every problem is collected with its line and column, and the
 * caller imports nothing when there is one.
 */

const PRODUCT_TYPES = new Set(['simple', 'variable', 'grouped', 'external', 'variation']);
const FLAG_TYPES = new Set(['virtual', 'downloadable']);
const VISIBILITIES = new Set<CatalogVisibility>(['visible', 'catalog', 'search', 'hidden']);

interface ParsedCsv {
  products: ImportProduct[];
  errors: ImportRowError[];
}

type Row = Record<string, string>;

export function parseWooCsv(text: string): ParsedCsv {
  const errors: ImportRowError[] = [];
  let records: { record: Row; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      columns: (header: string[]) => header.map((name) => name.trim()),
      skip_empty_lines: true,
      relax_column_count: false,
      info: true,
    });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    return { products: [], errors: [{ line, column: '(file)', message: (error as Error).message }] };
  }
  const header = records[0]?.record;
  if (header && !('Type' in header && 'Name' in header)) {
    return {
      products: [],
      errors: [{ line: 1, column: '(header)', message: 'Missing the Type or Name column' }],
    };
  }

  const products: ImportProduct[] = [];
  for (const { record, info } of records) {
    // csv-parse counts the line where the record ends; a record spanning lines is reported where it ends.
    const line = info.lines;
    const problem = (column: string, message: string) => errors.push({ line, column, message });
    const product = readRow(record, line, problem);
    if (product) products.push(product);
  }
  checkReferences(products, errors);
  return { products, errors };
}

function readRow(
  row: Row,
  line: number,
  problem: (column: string, message: string) => void,
): ImportProduct | null {
  const field = (column: string) => (row[column] ?? '').trim();

  const typeFlags = splitList(field('Type')).map((flag) => flag.toLowerCase());
  const type = typeFlags.find((flag) => PRODUCT_TYPES.has(flag)) as ImportProduct['type'] | undefined;
  const unknownFlags = typeFlags.filter((flag) => !PRODUCT_TYPES.has(flag) && !FLAG_TYPES.has(flag));
  if (!type) problem('Type', `Unknown product type "${field('Type')}"`);
  else if (unknownFlags.length > 0) problem('Type', `Unknown type flag "${unknownFlags.join(', ')}"`);

  const name = field('Name');
  if (name === '') problem('Name', 'A product needs a name');

  const csvId = readInteger(field('ID'), 'ID', problem, { min: 1 });
  const regularPrice = readPrice(field('Regular price'), 'Regular price', problem);
  const salePrice = readPrice(field('Sale price'), 'Sale price', problem);
  if (regularPrice !== null && salePrice !== null && salePrice > regularPrice) {
    problem('Sale price', 'The sale price is above the regular price');
  }

  const visibilityText = field('Visibility in catalog') || 'visible';
  if (!VISIBILITIES.has(visibilityText as CatalogVisibility)) {
    problem('Visibility in catalog', `Unknown visibility "${visibilityText}"`);
  }

  const stockText = field('In stock?').toLowerCase();
  let stockStatus: StockStatus = 'instock';
  if (stockText === '0') stockStatus = 'outofstock';
  else if (stockText === 'backorder') stockStatus = 'onbackorder';
  else if (stockText !== '' && stockText !== '1')
    problem('In stock?', `Expected 1, 0 or backorder, got "${stockText}"`);

  const parentText = field('Parent');
  const parent = parentText === '' ? null : readReference(parentText);
  if (type === 'variation' && parent === null)
    problem('Parent', 'A variation needs its parent (a SKU or id:N)');

  const published = field('Published');
  if (published !== '' && !['1', '0', '-1'].includes(published)) {
    problem('Published', `Expected 1, 0 or -1, got "${published}"`);
  }

  if (!type || name === '') return null;
  return {
    line,
    csvId,
    type,
    virtual: typeFlags.includes('virtual'),
    downloadable: typeFlags.includes('downloadable'),
    sku: field('SKU') || null,
    name,
    published: published === '' || published === '1',
    private: published === '-1',
    featured: field('Is featured?') === '1',
    visibility: VISIBILITIES.has(visibilityText as CatalogVisibility)
      ? (visibilityText as CatalogVisibility)
      : 'visible',
    shortDescription: unescapeNewlines(field('Short description')),
    description: unescapeNewlines(field('Description')),
    regularPrice,
    salePrice,
    stockStatus,
    stockQuantity: readInteger(field('Stock'), 'Stock', problem, { min: -1_000_000 }),
    soldIndividually: field('Sold individually?') === '1',
    categories: splitList(field('Categories')).map((path) =>
      path
        .split('>')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
    tags: splitList(field('Tags')),
    brands: splitList(field('Brands')),
    images: splitList(field('Images')),
    parent,
    groupedChildren: splitList(field('Grouped products')).map(readReference),
    upsells: 'Upsells' in row ? splitList(field('Upsells')).map(readReference) : undefined,
    crossSells: 'Cross-sells' in row ? splitList(field('Cross-sells')).map(readReference) : undefined,
    externalUrl: field('External URL') || null,
    buttonText: field('Button text') || null,
    position: readInteger(field('Position'), 'Position', problem, { min: -1_000_000 }) ?? 0,
    attributes: readAttributes(row, type),
    downloads: readDownloads(row),
  };
}

function readAttributes(row: Row, type: ImportProduct['type']): ImportAttribute[] {
  const attributes: ImportAttribute[] = [];
  for (let n = 1; `Attribute ${n} name` in row; n++) {
    const name = (row[`Attribute ${n} name`] ?? '').trim();
    if (name === '') continue;
    const valueText = (row[`Attribute ${n} value(s)`] ?? '').trim();
    // A variation holds one value, and may hold a comma as part of it; an empty one means "any".
    const values = type === 'variation' ? (valueText === '' ? [] : [valueText]) : splitList(valueText);
    attributes.push({ name, values, visible: (row[`Attribute ${n} visible`] ?? '1').trim() !== '0' });
  }
  return attributes;
}

function readDownloads(row: Row): { name: string; url: string }[] {
  const downloads: { name: string; url: string }[] = [];
  for (let n = 1; `Download ${n} URL` in row; n++) {
    const url = (row[`Download ${n} URL`] ?? '').trim();
    if (url !== '') downloads.push({ name: (row[`Download ${n} name`] ?? '').trim() || url, url });
  }
  return downloads;
}

/** WooCommerce lists are comma-separated, with `\,` for a comma inside a value. */
export function splitList(text: string): string[] {
  if (text.trim() === '') return [];
  return text
    .split(/(?<!\\),/)
    .map((part) => part.replace(/\\,/g, ',').trim())
    .filter(Boolean);
}

function readReference(text: string): ProductReference {
  const match = /^id:(\d+)$/i.exec(text.trim());
  return match ? { csvId: Number(match[1]) } : { sku: text.trim() };
}

/** WooCommerce's exporter writes line breaks inside text as the two characters `\n`. */
function unescapeNewlines(text: string): string {
  return text.replace(/\\n/g, '\n');
}

function readPrice(text: string, column: string, problem: (column: string, message: string) => void) {
  const value = parseMoney(text);
  if (value !== null && Number.isNaN(value)) {
    problem(column, `"${text}" is not a price`);
    return null;
  }
  return value;
}

function readInteger(
  text: string,
  column: string,
  problem: (column: string, message: string) => void,
  { min }: { min: number },
): number | null {
  if (text === '') return null;
  if (!/^-?\d+$/.test(text) || Number(text) < min) {
    problem(column, `"${text}" is not a whole number${min > 0 ? ` of at least ${min}` : ''}`);
    return null;
  }
  return Number(text);
}

/** References inside the file must point at rows that can hold them: variations at variable parents. */
function checkReferences(products: ImportProduct[], errors: ImportRowError[]) {
  const seenIds = new Map<number, number>();
  const seenSkus = new Map<string, number>();
  // An ID or SKU may stand on one row only; a repeat is reported on its own line, pointing at the first.
  const noteUnique = <K>(seen: Map<K, number>, column: 'ID' | 'SKU', value: K | null, line: number) => {
    if (value === null) return;
    const first = seen.get(value);
    if (first !== undefined) {
      errors.push({ line, column, message: `${column} ${value} is also on line ${first}` });
    } else seen.set(value, line);
  };
  for (const product of products) {
    noteUnique(seenIds, 'ID', product.csvId, product.line);
    noteUnique(seenSkus, 'SKU', product.sku, product.line);
  }
  const byReference = (reference: ProductReference) =>
    products.find((candidate) =>
      'sku' in reference ? candidate.sku === reference.sku : candidate.csvId === reference.csvId,
    );
  for (const product of products) {
    if (product.type === 'variation' && product.parent) {
      const parent = byReference(product.parent);
      if (parent && parent.type !== 'variable') {
        errors.push({
          line: product.line,
          column: 'Parent',
          message: `The parent "${parent.name}" is not variable`,
        });
      }
    }
  }
}
