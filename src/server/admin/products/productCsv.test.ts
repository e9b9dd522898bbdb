import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { formNonce, ownerBrowser } from '../../../../test-support/ownerBrowser';
import { testOwnerServer } from '../../../../test-support/testOwner';
import { parseWooCsv } from '../../catalog/import/parseWooCsv';
import { projectPath } from '../../projectPath';

/*
 * The back office's CSV: the export in WooCommerce's format, the upload imported as a job with its progress page and
 * summary, and the round trip (export, then import on an empty shop, gives the same catalog).
 */

let demo: TestApp;
let empty: TestApp;
beforeAll(async () => {
  demo = await createTestApp({ settings: { server: testOwnerServer } });
  empty = await createTestApp({ settings: { server: testOwnerServer }, seed: false });
  // Two shops, one seeded: on PostgreSQL next to other test files this takes longer than the default 10 s.
}, 60_000);
afterAll(async () => {
  await demo?.close();
  await empty?.close();
});

async function exportCsv(shop: TestApp) {
  const owner = await ownerBrowser(shop.app);
  const response = await owner.get('/admin/products/export.csv');
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['content-disposition']).toMatch(
    /^attachment; filename="products-\d{4}-\d\d-\d\d\.csv"$/,
  );
  return response.body;
}

/** Uploads a CSV through the import form as a browser does, and follows the job's page until it is over. */
async function importCsv(shop: TestApp, csv: string | Buffer, fileName = 'products.csv') {
  const owner = await ownerBrowser(shop.app);
  const form = await owner.get('/admin/products/import');
  const boundary = '----shop-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="_wpnonce"\r\n\r\n${formNonce(form.body)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const upload = await shop.app.inject({
    method: 'POST',
    url: '/admin/products/import',
    headers: { cookie: owner.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (upload.statusCode !== 303) return { upload, page: null };
  const jobUrl = upload.headers.location as string;
  const pages: string[] = [];
  for (let attempt = 0; attempt < 600; attempt++) {
    const page = await owner.get(jobUrl);
    pages.push(page.body);
    if (!page.headers.refresh) return { upload, page, pages };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('The import did not finish');
}

/** The catalog as shoppers meet it, by SKU and names rather than ids the two shops may number differently. */
async function catalogSnapshot(shop: TestApp) {
  const products = await shop.query(
    `SELECT p.sku, p.name, p.type, p.status, p.is_private, p.featured, p.visibility, p.short_description,
            p.description, p.regular_price, p.sale_price, p.stock_status, p.stock_quantity, p.sold_individually,
            p.is_virtual, p.is_downloadable, p.external_url, p.button_text, p.menu_order, p.price_min, p.price_max,
            p.slug, parent.sku AS parent_sku
       FROM products p LEFT JOIN products parent ON parent.id = p.parent_id ORDER BY p.id`,
  );
  const terms = await shop.query(
    `SELECT p.sku, t.taxonomy, t.name, parent_term.name AS parent_name
       FROM product_terms pt JOIN products p ON p.id = pt.product_id JOIN terms t ON t.id = pt.term_id
       LEFT JOIN terms parent_term ON parent_term.id = t.parent_id ORDER BY p.id, t.taxonomy, t.name`,
  );
  const attributes = await shop.query(
    `SELECT p.sku, a.name, at.name AS value, pa.visible FROM product_attributes pa
       JOIN products p ON p.id = pa.product_id JOIN attributes a ON a.id = pa.attribute_id
       LEFT JOIN product_attribute_terms pat ON pat.product_id = pa.product_id AND pat.attribute_id = pa.attribute_id
       LEFT JOIN attribute_terms at ON at.id = pat.term_id ORDER BY p.id, pa.position, pat.position`,
  );
  const variationValues = await shop.query(
    `SELECT p.sku, a.name, at.name AS value FROM variation_attributes va
       JOIN products p ON p.id = va.variation_id JOIN attributes a ON a.id = va.attribute_id
       LEFT JOIN attribute_terms at ON at.id = va.term_id ORDER BY p.id, a.name`,
  );
  const images = await shop.query(
    `SELECT p.sku, i.position, i.source_url FROM product_images i JOIN products p ON p.id = i.product_id
      ORDER BY p.id, i.position`,
  );
  const downloads = await shop.query(
    `SELECT p.sku, d.name, d.url FROM product_downloads d JOIN products p ON p.id = d.product_id
      ORDER BY p.id, d.position`,
  );
  const grouped = await shop.query(
    `SELECT parent.sku AS parent_sku, child.sku AS child_sku, g.position FROM grouped_children g
       JOIN products parent ON parent.id = g.parent_id JOIN products child ON child.id = g.child_id
      ORDER BY parent.id, g.position`,
  );
  // Numbers as numbers: PostgreSQL's BIGINT arrives as text.
  const normal = (rows: Record<string, unknown>[]) =>
    rows.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([key, value]) => [
          key,
          typeof value === 'string' && /^-?\d+$/.test(value) && key !== 'sku' ? Number(value) : value,
        ]),
      ),
    );
  return {
    products: normal(products),
    terms: normal(terms),
    attributes: normal(attributes),
    variationValues: normal(variationValues),
    images: normal(images),
    downloads: normal(downloads),
    grouped: normal(grouped),
  };
}

describe('the CSV export', () => {
  it('writes every product and variation in WooCommerce’s columns, which the import reads without a problem', async () => {
    const csv = await exportCsv(demo);
    expect(csv.startsWith('\uFEFFID,Type,SKU,Name,Published,Is featured?,Visibility in catalog')).toBe(true);
    const sampleHeader = readFileSync(projectPath('test-fixtures/woocommerce-sample-products.csv'), 'utf8')
      .split(/\r?\n/)[0]
      ?.replace(/^\uFEFF/, '')
      .split(',')
      .map((column) => column.replace(/"/g, ''));
    const header =
      csv
        .replace(/^\uFEFF/, '')
        .split('\r\n')[0]
        ?.split(',') ?? [];
    // Every column is one of WooCommerce's own (Brands comes from its brands feature, not in the old sample;
    // the sample numbers attributes and downloads up to 2).
    const ownColumn = (column: string) => column.replace(/^(Attribute|Download) \d+/, '$1 1');
    expect(
      header.filter((column) => column !== 'Brands' && !sampleHeader?.includes(ownColumn(column))),
    ).toEqual([]);
    const { products, errors } = parseWooCsv(csv);
    expect(errors).toEqual([]);
    // The demo's private napkins (Published -1) stay private, a variation names its parent by SKU.
    expect(products.find((product) => product.csvId === 1037)).toMatchObject({
      published: false,
      private: true,
    });
    expect(products.find((product) => product.csvId === 1002)?.parent).toEqual({ sku: 'DEMO-LINEN-SHIRT' });
    const [{ n }] = (await demo.query<{ n: number }>('SELECT COUNT(*) AS n FROM products')) as [
      { n: number },
    ];
    expect(products).toHaveLength(Number(n));
  });
});

describe('the CSV import', () => {
  it('round-trips: the demo shop’s export imported on an empty shop gives the same catalog', async () => {
    const csv = await exportCsv(demo);
    const { page, pages } = await importCsv(empty, csv);
    expect(page?.body).toContain('Import finished');
    expect(page?.body).toMatch(/<progress[^>]*aria-valuenow="100"/);
    expect(page?.body).toContain('0<!-- --> skipped');
    expect(pages?.length).toBeGreaterThanOrEqual(1);
    expect(await catalogSnapshot(empty)).toEqual(await catalogSnapshot(demo));
    // The import's batches are real writes; PostgreSQL on a shared machine takes seconds.
  }, 60_000);

  it('imports its own export again without a change: every row unchanged, nothing written', async () => {
    // Renamed since its images were stored: their alt text (which the file does not carry) still has the old name.
    await demo.query(
      "UPDATE products SET name = 'Oiled ' || name WHERE id = (SELECT min(product_id) FROM product_images)",
    );
    const csv = await exportCsv(demo);
    const rows = parseWooCsv(csv).products.length;
    const { page } = await importCsv(demo, csv);
    expect(page?.body).toContain('Import finished');
    expect(page?.body).toContain('0<!-- --> updated');
    expect(page?.body).toContain(`${rows}<!-- --> unchanged`);
  }, 60_000);

  it('skips the rows it cannot import, each with its reason, and imports the rest', async () => {
    const csv = [
      'ID,Type,SKU,Name,Published,Regular price,Sale price,Parent,Stock',
      ',simple,CSV-LAMP,Paper Lamp,1,30,,,',
      ',simple,CSV-BAD-PRICE,Bad Price Lamp,1,thirty,,,',
      ',variation,CSV-ORPHAN,Orphan Variation,1,10,,NO-SUCH-PARENT,',
      ',simple,CSV-SALE,Sale Above Regular,1,10,12,,',
      ',simple,CSV-STOOL,Oak Stool,0,80,,,4',
    ].join('\n');
    const { page } = await importCsv(demo, csv, 'mixed.csv');
    const body = page?.body ?? '';
    expect(body).toContain('Import of mixed.csv');
    expect(body).toContain('2<!-- --> created');
    expect(body).toContain('3<!-- --> skipped');
    expect(body).toContain('Regular price: &quot;thirty&quot; is not a price');
    expect(body).toContain('No variable product &quot;NO-SUCH-PARENT&quot; to attach this variation to');
    expect(body).toContain('Sale price: The sale price is above the regular price');
    const names = await demo.query<{ name: string; status: string }>(
      "SELECT name, status FROM products WHERE sku LIKE 'CSV-%' ORDER BY sku",
    );
    expect(names).toEqual([
      { name: 'Paper Lamp', status: 'publish' },
      { name: 'Oak Stool', status: 'draft' },
    ]);
  });

  it('refuses a file over the size limit and an upload without a file, in words', async () => {
    const tooBig = await importCsv(demo, Buffer.alloc(16 * 1024 * 1024 + 1, 'a'));
    expect(tooBig.upload.statusCode).toBe(413);
    expect(tooBig.upload.body).toContain('The file is too large: imports are limited to 16 MB.');
    const emptyFile = await importCsv(demo, '');
    expect(emptyFile.upload.statusCode).toBe(400);
    expect(emptyFile.upload.body).toContain('The file is empty.');
  });

  it('keeps the job in the database, so another process can show its progress', async () => {
    const { upload } = await importCsv(demo, 'ID,Type,SKU,Name\n,simple,CSV-JOB,Job Lamp');
    const id = (upload.headers.location as string).split('/').pop() as string;
    const job = await demo.repositories.catalog.getImportJob(id);
    expect(job).toMatchObject({ status: 'done', fileName: 'products.csv', done: 1, total: 1 });
    expect(job?.summary).toEqual({ created: 1, updated: 0, unchanged: 0, skipped: [] });
  });
});
