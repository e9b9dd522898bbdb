import type { ExportProduct } from '../../db/sql/catalogExportSql';
import { describeReference } from './catalogImport';

/*
 * WooCommerce's product CSV, as its exporter writes it (byte-order mark, its column names, `\,` inside lists and
 * `\n` for line breaks), limited to the columns parseWooCsv reads: an export imported again gives the same catalog.
 */

const FIXED_COLUMNS = [
  'ID',
  'Type',
  'SKU',
  'Name',
  'Published',
  'Is featured?',
  'Visibility in catalog',
  'Short description',
  'Description',
  'In stock?',
  'Stock',
  'Sold individually?',
  'Sale price',
  'Regular price',
  'Categories',
  'Tags',
  'Brands',
  'Images',
  'Parent',
  'Grouped products',
  'Upsells',
  'Cross-sells',
  'External URL',
  'Button text',
  'Position',
] as const;

/** RFC 4180: a cell with a comma, quote or line break is quoted. */
function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A WooCommerce list: comma-separated, a comma inside a value written `\,`. */
function list(values: readonly string[]): string {
  return values.map((value) => value.replace(/,/g, '\\,')).join(', ');
}

function price(minorUnits: number | null): string {
  return minorUnits === null ? '' : (minorUnits / 100).toFixed(2);
}

const escapeNewlines = (text: string) => text.replace(/\r?\n/g, '\\n');

export function writeWooCsv(products: readonly ExportProduct[]): string {
  const attributeCount = Math.max(0, ...products.map((product) => product.attributes.length));
  const downloadCount = Math.max(0, ...products.map((product) => product.downloads.length));
  const header: string[] = [...FIXED_COLUMNS];
  for (let n = 1; n <= attributeCount; n++)
    header.push(
      `Attribute ${n} name`,
      `Attribute ${n} value(s)`,
      `Attribute ${n} visible`,
      `Attribute ${n} global`,
    );
  for (let n = 1; n <= downloadCount; n++) header.push(`Download ${n} name`, `Download ${n} URL`);

  const rows = products.map((product) => {
    const fixed: Record<(typeof FIXED_COLUMNS)[number], string> = {
      ID: String(product.csvId ?? ''),
      Type: [product.type, product.virtual && 'virtual', product.downloadable && 'downloadable']
        .filter(Boolean)
        .join(', '),
      SKU: product.sku ?? '',
      Name: product.name,
      Published: product.publishedFlag,
      'Is featured?': product.featured ? '1' : '0',
      'Visibility in catalog': product.visibility,
      'Short description': escapeNewlines(product.shortDescription),
      Description: escapeNewlines(product.description),
      'In stock?':
        product.stockStatus === 'instock' ? '1' : product.stockStatus === 'onbackorder' ? 'backorder' : '0',
      Stock: product.stockQuantity === null ? '' : String(product.stockQuantity),
      'Sold individually?': product.soldIndividually ? '1' : '0',
      'Sale price': price(product.salePrice),
      'Regular price': price(product.regularPrice),
      Categories: list(product.categories.map((path) => path.join(' > '))),
      Tags: list(product.tags),
      Brands: list(product.brands),
      Images: list(product.images),
      Parent: product.parent ? describeReference(product.parent) : '',
      'Grouped products': list(product.groupedChildren.map(describeReference)),
      Upsells: list((product.upsells ?? []).map(describeReference)),
      'Cross-sells': list((product.crossSells ?? []).map(describeReference)),
      'External URL': product.externalUrl ?? '',
      'Button text': product.buttonText ?? '',
      Position: String(product.position),
    };
    const cells: string[] = FIXED_COLUMNS.map((column) => fixed[column]);
    for (let n = 0; n < attributeCount; n++) {
      const attribute = product.attributes[n];
      cells.push(
        attribute?.name ?? '',
        // A variation's one value may hold a comma as it is; a parent's values are a list.
        attribute
          ? product.type === 'variation'
            ? (attribute.values[0] ?? '')
            : list(attribute.values)
          : '',
        attribute ? (attribute.visible ? '1' : '0') : '',
        attribute ? '1' : '',
      );
    }
    for (let n = 0; n < downloadCount; n++) {
      const download = product.downloads[n];
      cells.push(download?.name ?? '', download?.url ?? '');
    }
    return cells;
  });
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
