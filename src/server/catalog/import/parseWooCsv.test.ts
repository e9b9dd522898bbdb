import { describe, expect, it } from 'vitest';
import type { ImportProduct } from './catalogImport';
import { parseWooCsv, splitList } from './parseWooCsv';

/* WooCommerce's exporter header (a subset of its 51 columns, in its order and quoting), BOM included. */
const COLUMNS = [
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
  'Images',
  'Parent',
  'Grouped products',
  'External URL',
  'Button text',
  'Position',
  'Attribute 1 name',
  'Attribute 1 value(s)',
  'Attribute 1 visible',
  'Attribute 1 global',
  'Attribute 2 name',
  'Attribute 2 value(s)',
  'Attribute 2 visible',
  'Attribute 2 global',
  'Download 1 name',
  'Download 1 URL',
  'Brands',
];

type RowInput = Partial<Record<(typeof COLUMNS)[number], string>>;

const quote = (value: string) => (/[",\n ?]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** A CSV as WooCommerce exports it: BOM, header on line 1, one product per line from line 2. */
function wooCsv(rows: RowInput[]): string {
  const lines = [COLUMNS.map(quote).join(',')];
  for (const row of rows) lines.push(COLUMNS.map((column) => quote(row[column] ?? '')).join(','));
  return `\uFEFF${lines.join('\n')}\n`;
}

const simple = (overrides: RowInput = {}): RowInput => ({
  Type: 'simple',
  Name: 'Mug',
  Published: '1',
  'Regular price': '18',
  ...overrides,
});

function onlyProduct(rows: RowInput[]): ImportProduct {
  const { products, errors } = parseWooCsv(wooCsv(rows));
  expect(errors).toEqual([]);
  expect(products).toHaveLength(rows.length);
  return products[0] as ImportProduct;
}

describe('parseWooCsv', () => {
  it('reads a simple product row with the BOM-prefixed header', () => {
    const product = onlyProduct([
      simple({ ID: '12', SKU: 'MUG-1', 'Short description': 'Line one\\nLine two', Stock: '24' }),
    ]);
    expect(product).toMatchObject({
      line: 2,
      csvId: 12,
      type: 'simple',
      sku: 'MUG-1',
      name: 'Mug',
      published: true,
      visibility: 'visible',
      regularPrice: 1800,
      salePrice: null,
      stockStatus: 'instock',
      stockQuantity: 24,
      virtual: false,
      downloadable: false,
      shortDescription: 'Line one\nLine two',
    });
  });

  it('reads a Type holding several flags', () => {
    const product = onlyProduct([simple({ Type: 'simple, downloadable, virtual' })]);
    expect(product.type).toBe('simple');
    expect(product.virtual).toBe(true);
    expect(product.downloadable).toBe(true);
  });

  it('reads prices into minor units, including decimals without a leading zero', () => {
    expect(onlyProduct([simple({ 'Regular price': '.5' })]).regularPrice).toBe(50);
    expect(onlyProduct([simple({ 'Regular price': '39.99' })]).regularPrice).toBe(3999);
    expect(onlyProduct([simple({ 'Regular price': '1,000.00' })]).regularPrice).toBe(100000);
  });

  it('reads a sale price beside the regular one', () => {
    const product = onlyProduct([simple({ 'Sale price': '9.5', 'Regular price': '12' })]);
    expect(product.salePrice).toBe(950);
    expect(product.regularPrice).toBe(1200);
  });

  it('reads stock status, visibility, featured, sold individually and published flags', () => {
    const product = onlyProduct([
      simple({
        'In stock?': '0',
        'Visibility in catalog': 'hidden',
        'Is featured?': '1',
        'Sold individually?': '1',
        Published: '-1',
      }),
    ]);
    expect(product).toMatchObject({
      stockStatus: 'outofstock',
      visibility: 'hidden',
      featured: true,
      soldIndividually: true,
      published: false,
    });
    expect(onlyProduct([simple({ 'In stock?': 'backorder' })]).stockStatus).toBe('onbackorder');
  });

  it('reads a variation parent given by SKU or by id:N', () => {
    const { products, errors } = parseWooCsv(
      wooCsv([
        { ID: '10', Type: 'variable', SKU: 'TEE', Name: 'Tee' },
        { Type: 'variation', SKU: 'TEE-A', Name: 'Tee A', Parent: 'TEE', 'Regular price': '20' },
        { Type: 'variation', SKU: 'TEE-B', Name: 'Tee B', Parent: 'id:10', 'Regular price': '20' },
      ]),
    );
    expect(errors).toEqual([]);
    expect(products.map((product) => product.parent)).toEqual([null, { sku: 'TEE' }, { csvId: 10 }]);
  });

  it('reads the children of a grouped product as a list of references', () => {
    const { products, errors } = parseWooCsv(
      wooCsv([
        simple({ ID: '3', SKU: 'MUG' }),
        simple({ SKU: 'BOWL', Name: 'Bowl' }),
        simple({ SKU: 'TOWEL', Name: 'Towel' }),
        { Type: 'grouped', SKU: 'SET', Name: 'Set', 'Grouped products': 'BOWL, TOWEL, id:3' },
      ]),
    );
    expect(errors).toEqual([]);
    expect(products[3]?.type).toBe('grouped');
    expect(products[3]?.groupedChildren).toEqual([{ sku: 'BOWL' }, { sku: 'TOWEL' }, { csvId: 3 }]);
  });

  it('reads the Upsells and Cross-sells columns as references, and leaves them undefined when the file has none', () => {
    const csv = [
      'ID,Type,SKU,Name,Upsells,Cross-sells',
      '3,simple,MUG,Mug,"BOWL, id:4",TOWEL',
      '4,simple,BOWL,Bowl,,',
    ].join('\n');
    const { products, errors } = parseWooCsv(csv);
    expect(errors).toEqual([]);
    expect(products[0]?.upsells).toEqual([{ sku: 'BOWL' }, { csvId: 4 }]);
    expect(products[0]?.crossSells).toEqual([{ sku: 'TOWEL' }]);
    expect(products[1]?.upsells).toEqual([]);
    const without = parseWooCsv(wooCsv([simple({ SKU: 'MUG' })]));
    expect(without.products[0]?.upsells).toBeUndefined();
    expect(without.products[0]?.crossSells).toBeUndefined();
  });

  it('reads attribute columns, and a variation with an empty value as "any"', () => {
    const { products, errors } = parseWooCsv(
      wooCsv([
        {
          Type: 'variable',
          SKU: 'TEE',
          Name: 'Tee',
          'Attribute 1 name': 'Color',
          'Attribute 1 value(s)': 'Red, Blue',
          'Attribute 1 visible': '1',
          'Attribute 2 name': 'Size',
          'Attribute 2 value(s)': 'S, M, L',
          'Attribute 2 visible': '0',
        },
        {
          Type: 'variation',
          SKU: 'TEE-RED',
          Name: 'Tee - Red',
          Parent: 'TEE',
          'Regular price': '20',
          'Attribute 1 name': 'Color',
          'Attribute 1 value(s)': 'Red',
          'Attribute 2 name': 'Size',
          'Attribute 2 value(s)': '',
        },
      ]),
    );
    expect(errors).toEqual([]);
    expect(products[0]?.attributes).toEqual([
      { name: 'Color', values: ['Red', 'Blue'], visible: true },
      { name: 'Size', values: ['S', 'M', 'L'], visible: false },
    ]);
    expect(products[1]?.attributes).toEqual([
      { name: 'Color', values: ['Red'], visible: true },
      { name: 'Size', values: [], visible: true },
    ]);
  });

  it('skips attribute slots without a name', () => {
    const product = onlyProduct([
      simple({ 'Attribute 2 name': 'Material', 'Attribute 2 value(s)': 'Stoneware' }),
    ]);
    expect(product.attributes).toEqual([{ name: 'Material', values: ['Stoneware'], visible: true }]);
  });

  it('keeps an escaped comma inside a list value', () => {
    const product = onlyProduct([
      simple({
        Tags: 'salt\\, pepper, kitchen',
        'Attribute 1 name': 'Finish',
        'Attribute 1 value(s)': 'Matte\\, cream, Gloss',
      }),
    ]);
    expect(product.tags).toEqual(['salt, pepper', 'kitchen']);
    expect(product.attributes[0]?.values).toEqual(['Matte, cream', 'Gloss']);
  });

  it('reads categories as paths split on >', () => {
    const product = onlyProduct([simple({ Categories: 'Home > Kitchen > Mugs, Gifts' })]);
    expect(product.categories).toEqual([['Home', 'Kitchen', 'Mugs'], ['Gifts']]);
  });

  it('reads images, brands, downloads and the external product fields', () => {
    const { products, errors } = parseWooCsv(
      wooCsv([
        simple({
          Images: 'https://img.example/a.jpg, https://img.example/b.jpg',
          Brands: 'Fern & Flax, Hollow Oak',
          'Download 1 name': 'Pattern',
          'Download 1 URL': 'https://files.example/p.pdf',
        }),
        {
          Type: 'external',
          Name: 'Lamp',
          'Regular price': '120',
          'External URL': 'https://partner.example/lamp',
          'Button text': 'Buy from partner',
        },
      ]),
    );
    expect(errors).toEqual([]);
    expect(products[0]?.images).toEqual(['https://img.example/a.jpg', 'https://img.example/b.jpg']);
    expect(products[0]?.brands).toEqual(['Fern & Flax', 'Hollow Oak']);
    expect(products[0]?.downloads).toEqual([{ name: 'Pattern', url: 'https://files.example/p.pdf' }]);
    expect(products[1]).toMatchObject({
      type: 'external',
      externalUrl: 'https://partner.example/lamp',
      buttonText: 'Buy from partner',
    });
  });

  it('numbers rows by their line in the file', () => {
    const { products } = parseWooCsv(
      wooCsv([simple({ SKU: 'A' }), simple({ SKU: 'B' }), simple({ SKU: 'C' })]),
    );
    expect(products.map((product) => product.line)).toEqual([2, 3, 4]);
  });

  describe('bad rows', () => {
    const errorsOf = (rows: RowInput[]) => parseWooCsv(wooCsv(rows)).errors;

    it('reports an unknown Type with its line and column', () => {
      const errors = errorsOf([simple({ SKU: 'A' }), simple({ SKU: 'B', Type: 'bundle' })]);
      expect(errors).toContainEqual(
        expect.objectContaining({ line: 3, column: 'Type', message: expect.stringContaining('bundle') }),
      );
      expect(errors.every((error) => error.line === 3 && error.column === 'Type')).toBe(true);
    });

    it('reports an unknown flag beside a known type', () => {
      expect(errorsOf([simple({ Type: 'simple, shiny' })])).toEqual([
        expect.objectContaining({ line: 2, column: 'Type', message: expect.stringContaining('shiny') }),
      ]);
    });

    it('reports an empty Name', () => {
      const { products, errors } = parseWooCsv(wooCsv([simple({ Name: '  ' })]));
      expect(errors).toEqual([expect.objectContaining({ line: 2, column: 'Name' })]);
      expect(products).toEqual([]);
    });

    it('reports a price that is not a number', () => {
      expect(errorsOf([simple(), simple({ SKU: 'X', 'Regular price': 'abc' })])).toEqual([
        expect.objectContaining({
          line: 3,
          column: 'Regular price',
          message: expect.stringContaining('abc'),
        }),
      ]);
      expect(errorsOf([simple({ 'Sale price': '1.2.3' })])).toEqual([
        expect.objectContaining({ line: 2, column: 'Sale price' }),
      ]);
    });

    it('reports a negative price', () => {
      expect(errorsOf([simple({ 'Regular price': '-5' })])).toEqual([
        expect.objectContaining({ line: 2, column: 'Regular price' }),
      ]);
    });

    it('reports a sale price above the regular price', () => {
      expect(errorsOf([simple({ 'Sale price': '20', 'Regular price': '18' })])).toEqual([
        expect.objectContaining({ line: 2, column: 'Sale price' }),
      ]);
    });

    it('reports a duplicate SKU on the line that repeats it', () => {
      expect(errorsOf([simple({ SKU: 'MUG' }), simple({ SKU: 'BOWL' }), simple({ SKU: 'MUG' })])).toEqual([
        expect.objectContaining({ line: 4, column: 'SKU', message: expect.stringContaining('line 2') }),
      ]);
    });

    it('reports a duplicate ID', () => {
      expect(errorsOf([simple({ ID: '7', SKU: 'A' }), simple({ ID: '7', SKU: 'B' })])).toEqual([
        expect.objectContaining({ line: 3, column: 'ID' }),
      ]);
    });

    it('reports a variation whose parent is not variable', () => {
      expect(
        errorsOf([
          simple({ SKU: 'MUG' }),
          { Type: 'variation', SKU: 'MUG-RED', Name: 'Mug - Red', Parent: 'MUG', 'Regular price': '18' },
        ]),
      ).toEqual([expect.objectContaining({ line: 3, column: 'Parent' })]);
    });

    it('reports a variation without a parent', () => {
      expect(errorsOf([{ Type: 'variation', Name: 'Orphan', 'Regular price': '1' }])).toEqual([
        expect.objectContaining({ line: 2, column: 'Parent' }),
      ]);
    });

    it('reports bad stock, visibility and published values', () => {
      const errors = errorsOf([
        simple({ Stock: 'lots', 'Visibility in catalog': 'secret', Published: 'yes', 'In stock?': 'maybe' }),
      ]);
      expect(errors.map((error) => error.column).sort()).toEqual(
        ['In stock?', 'Published', 'Stock', 'Visibility in catalog'].sort(),
      );
      expect(errors.every((error) => error.line === 2)).toBe(true);
    });

    it('reports every bad row, not just the first', () => {
      const errors = errorsOf([
        simple({ Type: 'bundle' }),
        simple({ SKU: 'OK' }),
        simple({ SKU: 'X', 'Regular price': 'free' }),
      ]);
      expect([...new Set(errors.map((error) => `${error.line}:${error.column}`))]).toEqual([
        '2:Type',
        '4:Regular price',
      ]);
    });

    it('reports a file without the Type or Name column', () => {
      expect(parseWooCsv('\uFEFFSKU,Price\nA,1\n').errors).toEqual([
        expect.objectContaining({ line: 1, column: '(header)' }),
      ]);
    });

    it('reports a row with the wrong number of columns', () => {
      const text = `${wooCsv([simple()])}simple,only-two\n`;
      const { products, errors } = parseWooCsv(text);
      expect(products).toEqual([]);
      expect(errors).toEqual([expect.objectContaining({ column: '(file)', line: 3 })]);
    });
  });
});

describe('splitList', () => {
  it('splits on commas, trims, and drops empty items', () => {
    expect(splitList(' a, b ,, c ')).toEqual(['a', 'b', 'c']);
    expect(splitList('   ')).toEqual([]);
  });

  it('keeps escaped commas inside an item', () => {
    expect(splitList('Red\\, dark, Blue')).toEqual(['Red, dark', 'Blue']);
  });
});
