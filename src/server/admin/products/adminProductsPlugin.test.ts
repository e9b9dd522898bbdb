import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { formNonce, ownerBrowser } from '../../../../test-support/ownerBrowser';
import { productFormFields } from '../../../../test-support/productEditForm';
import { testOwnerServer } from '../../../../test-support/testOwner';
import type { SuggestionsResponse } from '../../../shared/search/suggestionTypes';
import { SESSION_COOKIE } from '../../session/VisitorSession';
import { formValuesOf } from './productForm';

/*
 * The owner's products over HTTP: every route refused to a stranger and every form refused without its nonce, the
 * edit and add forms with their messages, and a change seen by shoppers on their next request (search suggestions,
 * the product page).
 */

let shop: TestApp;
let owner: Awaited<ReturnType<typeof ownerBrowser>>;
beforeAll(async () => {
  shop = await createTestApp({ settings: { server: testOwnerServer } });
  owner = await ownerBrowser(shop.app);
});
afterAll(async () => shop?.close());

const MUG = 1021;
const LINEN_SHIRT = 1001;

/** What the edit form posts when the owner changes nothing but `changes`. */
async function formOf(id: number, changes: Partial<Record<string, string | string[]>> = {}) {
  const values = formValuesOf(await shop.repositories.catalog.getAdminProduct(id), 2);
  return { ...productFormFields(values), ...changes } as Record<string, string | string[]>;
}

const edit = (id: number, fields: Record<string, string | string[]>) =>
  owner.postForm(`/admin/products/${id}/`, `/admin/products/${id}/`, fields);

async function suggestionNames(query: string): Promise<string[]> {
  const response = await shop.app.inject({
    method: 'GET',
    url: `/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`,
  });
  const body = response.json() as SuggestionsResponse;
  return body.suggestions.filter((each) => each.type === 'product').map((each) => each.value);
}

describe('the owner guard and the nonces', () => {
  const pages = [
    '/admin/products/',
    '/admin/products/?q=mug&status=draft',
    '/admin/products/new',
    `/admin/products/${MUG}/`,
    '/admin/products/import',
    '/admin/products/import/00000000-0000-4000-8000-000000000000',
  ];
  it.each(pages)('sends a stranger from GET %s to the owner login, and back after it', async (url) => {
    const response = await shop.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/admin/login?next=${encodeURIComponent(url)}`);
    expect(response.body).not.toContain('Café au Lait Mug');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses the CSV export without the owner session', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/admin/products/export.csv' });
    expect(response.statusCode).toBe(401);
    expect(response.body).not.toContain('Café au Lait Mug');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  const forms = [
    { action: '/admin/products/new', page: '/admin/products/new' },
    { action: `/admin/products/${MUG}/image`, page: `/admin/products/${MUG}/` },
    { action: `/admin/products/${MUG}/`, page: `/admin/products/${MUG}/` },
    { action: '/admin/products/import', page: '/admin/products/import' },
  ];
  it.each(forms)(
    'refuses POST $action without the owner session, even with a nonce',
    async ({ action, page }) => {
      const form = await owner.get(page);
      const response = await shop.app.inject({
        method: 'POST',
        url: action,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: owner.cookie
            .split('; ')
            .filter((each) => each.startsWith(SESSION_COOKIE))
            .join('; '),
        },
        payload: new URLSearchParams({ _wpnonce: formNonce(form.body), name: 'Stolen' }).toString(),
      });
      expect(response.statusCode).toBe(401);
    },
  );

  it.each(forms)('refuses POST $action from the owner without the form’s nonce', async ({ action }) => {
    for (const nonce of [undefined, 'forged-nonce']) {
      const body = new URLSearchParams({ name: 'Forged', status: 'draft', stock_status: 'instock' });
      if (nonce) body.set('_wpnonce', nonce);
      const response = await shop.app.inject({
        method: 'POST',
        url: action,
        headers: { cookie: owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      });
      expect(response.statusCode).toBe(403);
    }
    expect((await shop.repositories.catalog.getAdminProduct(MUG))?.name).toBe('Café au Lait Mug');
  });

  it('refuses a multipart import without the nonce', async () => {
    const boundary = 'x-boundary';
    const payload = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="p.csv"',
      'Content-Type: text/csv',
      '',
      'ID,Type,SKU,Name\n,simple,FORGED,Forged',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const response = await shop.app.inject({
      method: 'POST',
      url: '/admin/products/import',
      headers: { cookie: owner.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('the products table', () => {
  it('lists products with status, stock and price, and finds them by name or SKU', async () => {
    const page = await owner.get('/admin/products/?q=mug');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Café au Lait Mug');
    expect(page.body).not.toContain('Washed Linen Shirt');
    const bySku = await owner.get('/admin/products/?q=demo-linen-shirt-sage');
    expect(bySku.body).toContain('Washed Linen Shirt');
    expect(bySku.body).toContain('1 product.');
  });

  it('filters by status and pages by 50', async () => {
    const drafts = await owner.get('/admin/products/?status=draft');
    expect(drafts.body).not.toContain('Café au Lait Mug');
    const all = await owner.get('/admin/products/');
    const rows = all.body.match(/<tr><th scope="row"/g) ?? [];
    expect(rows.length).toBeLessThanOrEqual(50);
    const refused = await owner.get('/admin/products/?status=sold');
    expect(refused.statusCode).toBe(400);
  });
});

describe('editing a product', () => {
  it('saves price and stock, and shoppers see them on the product page and in search at once', async () => {
    // The index is warm before the change, as on a running shop.
    expect(await suggestionNames('walnut')).toContain('One-off Walnut Serving Board');
    const saved = await edit(
      1024,
      await formOf(1024, {
        name: 'Oiled Walnut Serving Board',
        regular_price: '61.50',
        sale_price: '',
        manage_stock: '1',
        stock_quantity: '7',
      }),
    );
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/admin/products/1024/?saved=1');
    const names = await suggestionNames('walnut');
    expect(names).toContain('Oiled Walnut Serving Board');
    expect(names).not.toContain('One-off Walnut Serving Board');
    const productPage = await shop.app.inject({
      method: 'GET',
      url: '/product/one-off-walnut-serving-board/',
    });
    expect(productPage.statusCode).toBe(200);
    expect(productPage.body).toContain('Oiled Walnut Serving Board');
    expect(productPage.body).toContain('$61.50');
    expect(productPage.body).toMatch(/7 in stock/);
  });

  it('hides a draft from search and gives shoppers a 404 for its page', async () => {
    expect(await suggestionNames('waxed')).toContain('Waxed Canvas Tote');
    const saved = await edit(1033, await formOf(1033, { status: 'draft' }));
    expect(saved.statusCode).toBe(303);
    expect(await suggestionNames('waxed')).not.toContain('Waxed Canvas Tote');
    const page = await shop.app.inject({ method: 'GET', url: '/product/waxed-canvas-tote/' });
    expect(page.statusCode).toBe(404);
    const listed = await owner.get('/admin/products/?status=draft');
    expect(listed.body).toContain('Waxed Canvas Tote');
  });

  it('keeps a private product from shoppers and lists it under Private', async () => {
    const saved = await edit(1030, await formOf(1030, { status: 'private' }));
    expect(saved.statusCode).toBe(303);
    expect((await shop.app.inject({ method: 'GET', url: '/product/macrame-plant-hanger/' })).statusCode).toBe(
      404,
    );
    expect((await owner.get('/admin/products/?status=private')).body).toContain('Macramé Plant Hanger');
    expect((await owner.get('/admin/products/?status=draft')).body).not.toContain('Macramé Plant Hanger');
  });

  it('shows each problem in words next to its field and writes nothing', async () => {
    const before = await shop.repositories.catalog.getAdminProduct(MUG);
    const response = await edit(
      MUG,
      await formOf(MUG, {
        name: '  ',
        regular_price: 'ten',
        sale_price: '99',
        manage_stock: '1',
        stock_quantity: '',
        slug: 'Not A Slug!',
        sku: 'DEMO-SPECKLED-BOWL',
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain('Give the product a name.');
    expect(response.body).toContain('Write a price as a number, like 12.50, or leave it empty.');
    expect(response.body).toContain('Give the stock quantity, or turn off “Manage stock”.');
    expect(response.body).toContain('Use lower-case letters, digits and single hyphens');
    expect(response.body).toContain('Nothing was saved');
    expect(response.body).toMatch(
      /id="product-name"[^>]*aria-invalid="true"[^>]*aria-describedby="product-name-error"/,
    );
    expect(await shop.repositories.catalog.getAdminProduct(MUG)).toEqual(before);

    // A SKU another product has is refused after the form is valid, and nothing is half-written.
    const taken = await edit(MUG, await formOf(MUG, { name: 'Renamed Mug', sku: 'DEMO-SPECKLED-BOWL' }));
    expect(taken.statusCode).toBe(422);
    expect(taken.body).toContain('“Speckled Stoneware Bowl” already has SKU DEMO-SPECKLED-BOWL.');
    expect(await shop.repositories.catalog.getAdminProduct(MUG)).toEqual(before);
  });

  it('edits every variation of a variable product in one form', async () => {
    const fields = await formOf(LINEN_SHIRT);
    const product = await shop.repositories.catalog.getAdminProduct(LINEN_SHIRT);
    const [first, second] = product?.variations ?? [];
    if (!first || !second) throw new Error('the demo shirt has variations');
    fields[`v${first.id}_regular_price`] = '70.00';
    fields[`v${first.id}_stock`] = '3';
    fields[`v${second.id}_sku`] = 'LINEN-SAGE-M-NEW';
    const saved = await edit(LINEN_SHIRT, fields);
    expect(saved.statusCode).toBe(303);
    const after = await shop.repositories.catalog.getAdminProduct(LINEN_SHIRT);
    expect(after?.variations.find((each) => each.id === first.id)).toMatchObject({
      regularPrice: 7000,
      stockQuantity: 3,
    });
    expect(after?.variations.find((each) => each.id === second.id)?.sku).toBe('LINEN-SAGE-M-NEW');

    // One variation's SKU taken by another product: the whole form is refused, the first change included.
    fields[`v${first.id}_regular_price`] = '80.00';
    fields[`v${second.id}_sku`] = 'DEMO-CAFE-MUG';
    const refused = await edit(LINEN_SHIRT, fields);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(new RegExp(`id="v${second.id}_sku-error"`));
    expect(
      (await shop.repositories.catalog.getAdminProduct(LINEN_SHIRT))?.variations.find(
        (each) => each.id === first.id,
      )?.regularPrice,
    ).toBe(7000);
  });

  it('answers a missing product with a 404 page', async () => {
    expect((await owner.get('/admin/products/999999/')).statusCode).toBe(404);
    expect((await owner.get('/admin/products/abc/')).statusCode).toBe(400);
  });
});

describe('adding a product', () => {
  it('creates a simple product that shoppers find', async () => {
    const fields = productFormFields(formValuesOf(null, 2));
    const response = await owner.postForm('/admin/products/new', '/admin/products/new', {
      ...fields,
      name: 'Indigo Zabuton Cushion',
      regular_price: '45',
      status: 'publish',
      sku: 'ZABUTON-1',
    });
    expect(response.statusCode).toBe(303);
    const id = Number(/\/admin\/products\/(\d+)\//.exec(response.headers.location as string)?.[1]);
    const product = await shop.repositories.catalog.getAdminProduct(id);
    expect(product).toMatchObject({ type: 'simple', slug: 'indigo-zabuton-cushion', regularPrice: 4500 });
    expect(await suggestionNames('zabuton')).toContain('Indigo Zabuton Cushion');
    const page = await shop.app.inject({ method: 'GET', url: '/product/indigo-zabuton-cushion/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('$45.00');
  });
});

/** A multipart body as a browser sends the image form: the nonce first, then the file. */
function multipart(nonce: string | null, file: { name: string; type: string; bytes: Buffer }) {
  const boundary = '----image-boundary';
  const nonceField =
    nonce === null
      ? ''
      : `--${boundary}\r\nContent-Disposition: form-data; name="_wpnonce"\r\n\r\n${nonce}\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    payload: Buffer.concat([
      Buffer.from(
        `${nonceField}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          `Content-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

describe('the product image', () => {
  async function upload(nonce: string | null, file: { name: string; type: string; bytes: Buffer }) {
    const body = multipart(nonce, file);
    return shop.app.inject({
      method: 'POST',
      url: `/admin/products/${MUG}/image`,
      headers: { cookie: owner.cookie, 'content-type': body.contentType },
      payload: body.payload,
    });
  }
  const nonceOfEditPage = async () =>
    formNonce(
      /<h2 id="product-image-heading">[\s\S]*/.exec((await owner.get(`/admin/products/${MUG}/`)).body)?.[0] ??
        '',
    );

  it('stores an uploaded image through the media library’s checks as the product’s first image', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    const response = await upload(await nonceOfEditPage(), {
      name: 'Mug Photo.png',
      type: 'image/png',
      bytes: png,
    });
    expect(response.statusCode).toBe(303);
    const product = await shop.repositories.catalog.getAdminProduct(MUG);
    expect(product?.imageUrl).toMatch(/^\/wp-content\/uploads\/\d{4}\/\d\d\/mug-photo\.png$/);
    expect(
      existsSync(
        join(shop.dataDir, 'uploads', (product?.imageUrl ?? '').replace('/wp-content/uploads/', '')),
      ),
    ).toBe(true);
    const page = await owner.get(`/admin/products/${MUG}/`);
    expect(page.body).toContain(`<img src="${product?.imageUrl}"`);

    // Shoppers see it too: resized as imported images are, and served from the shop's image path.
    const [row] = await shop.query<{ key: string }>(
      'SELECT stored_key AS key FROM product_images WHERE product_id = ? AND position = 0',
      [MUG],
    );
    expect(row?.key).toMatch(/^[0-9a-f]{32}$/);
    const shopPage = await shop.app.inject({ method: 'GET', url: '/product/cafe-au-lait-mug/' });
    expect(shopPage.body).toContain(`/images/catalog/${row?.key}-600.webp`);
    const served = await shop.app.inject({ method: 'GET', url: `/images/catalog/${row?.key}-300.webp` });
    expect(served.statusCode).toBe(200);
    expect((await sharp(served.rawPayload).metadata()).format).toBe('webp');
  });

  it('refuses a file that is not an image, in words next to the field, and one without the nonce', async () => {
    const before = (await shop.repositories.catalog.getAdminProduct(MUG))?.imageUrl;
    const script = { name: 'evil.png', type: 'image/png', bytes: Buffer.from('<script>alert(1)</script>') };
    const refused = await upload(await nonceOfEditPage(), script);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('id="product-image-error"');
    expect(refused.body).toContain('Sorry, this file type is not permitted');
    expect((await upload(null, script)).statusCode).toBe(403);
    expect((await shop.repositories.catalog.getAdminProduct(MUG))?.imageUrl).toBe(before);
  });
});
