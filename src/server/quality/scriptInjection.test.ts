import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { parseWooCsv } from '../catalog/import/parseWooCsv';
import { DEMO_CATALOG } from '../catalog/import/seedDemoCatalog';
import { EMPTY_SIDECAR } from '../catalog/import/siteSidecarSchema';
import { SHOP_SURFACE } from './shopSurface';

/*
 * No page, fragment or error reflects markup it was given: products imported with `<script>` in every text
 * field, queries, cookies and headers carrying it, and the whole order flow with such a product. The only
 * script elements a response may hold are the shop's own (the settings JSON and the module entry).
 */

const EVIL = (where: string) => `<script>alert("${where}")</script>"><img src=x onerror=alert(1)>`;

function csvRow(header: string[], values: Record<string, string>): string {
  return header.map((column) => `"${(values[column] ?? '').replace(/"/g, '""')}"`).join(',');
}

function evilCatalogCsv(): string {
  const header =
    readFileSync(DEMO_CATALOG.csv, 'utf8')
      .replace(/^\uFEFF/, '')
      .split('\n', 1)[0] ?? '';
  const columns = header.split(',').map((column) => column.replace(/^"|"$/g, ''));
  const product = {
    Published: '1',
    'Is featured?': '1',
    'Visibility in catalog': 'visible',
    'In stock?': '1',
    'Short description': `Short ${EVIL('short')}`,
    Description: `<p>Long</p>${EVIL('description')}`,
    Categories: `Evil ${EVIL('category')}`,
    Tags: `tag ${EVIL('tag')}`,
    Brands: `Brand ${EVIL('brand')}`,
  };
  const rows = [
    {
      ...product,
      ID: '2001',
      Type: 'simple',
      SKU: 'EVIL-1',
      Name: `Mug ${EVIL('name')}`,
      'Regular price': '10',
      Images: 'https://example.com/red-mug.jpg',
    },
    {
      ...product,
      ID: '2002',
      Type: 'variable',
      SKU: 'EVIL-2',
      Name: `Shirt ${EVIL('variable')}`,
      'Attribute 1 name': `Colour ${EVIL('attribute')}`,
      'Attribute 1 value(s)': `Red ${EVIL('value')}, Blue`,
      'Attribute 1 visible': '1',
      'Attribute 1 global': '1',
    },
    ...['2003', '2004'].map((id, index) => ({
      ID: id,
      Type: 'variation',
      SKU: `EVIL-2-${index}`,
      Name: `Shirt variation ${EVIL('variation')}`,
      Published: '1',
      'In stock?': '1',
      'Regular price': '20',
      Parent: 'EVIL-2',
      'Attribute 1 name': `Colour ${EVIL('attribute')}`,
      'Attribute 1 value(s)': index === 0 ? `Red ${EVIL('value')}` : 'Blue',
      'Attribute 1 global': '1',
    })),
  ];
  return `${header}\n${rows.map((row) => csvRow(columns, row)).join('\n')}\n`;
}

const OWN_SCRIPT =
  /^<script (id="shop-settings" type="application\/json"|id="header-mode"|type="application\/ld\+json"|type="module" src="\/static\/[^"]+")>$/;

/** Every script element is one of the shop's own, and no injected element or attribute survived. */
function expectNoInjectedMarkup(text: string, what: string) {
  for (const tag of text.match(/<script\b[^>]*>/gi) ?? []) expect(tag, what).toMatch(OWN_SCRIPT);
  expect(text, what).not.toMatch(/<img src=x onerror/i);
}

/** The same check on every string of a JSON answer: fragments carry markup, messages may be shown as markup. */
function expectNoInjectedMarkupInJson(value: unknown, what: string) {
  if (typeof value === 'string') expectNoInjectedMarkup(value, what);
  else if (value && typeof value === 'object')
    for (const each of Object.values(value)) expectNoInjectedMarkupInJson(each, what);
}

let shop: TestApp;
let productSlug: string;
let variableSlug: string;

beforeAll(async () => {
  shop = await createTestApp();
  const parsed = parseWooCsv(evilCatalogCsv());
  expect(parsed.errors).toEqual([]);
  await shop.repositories.catalog.importCatalog({ products: parsed.products, site: EMPTY_SIDECAR });
  const slugOf = async (id: number) => String(await value('SELECT slug FROM products WHERE id = ?', [id]));
  productSlug = await slugOf(2001);
  variableSlug = await slugOf(2002);
});

afterAll(async () => {
  await shop?.close();
});

/** The first column of the first row, on whichever engine the test shop runs. */
async function value(sql: string, params: unknown[] = []): Promise<unknown> {
  const [row] = await shop.query(sql, params);
  return row ? Object.values(row)[0] : undefined;
}

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await shop.app.inject({ method: 'GET', url, headers });
  expect(response.statusCode, url).toBeLessThan(500);
  return response;
}

function check(response: { body: string; headers: Record<string, unknown> }, what: string) {
  if (String(response.headers['content-type']).startsWith('application/json'))
    expectNoInjectedMarkupInJson(JSON.parse(response.body), what);
  else expectNoInjectedMarkup(response.body, what);
}

describe('markup from product data is escaped everywhere it is shown', () => {
  it('the imported product really carries the markup (the test would see it unescaped)', async () => {
    const name = await value('SELECT name FROM products WHERE id = 2001');
    expect(name).toContain('<script>alert("name")</script>');
    const page = await get(`/product/${productSlug}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;');
  });

  it('product pages, archives, search, home and the placeholder image', async () => {
    const categorySlug = String(
      await value("SELECT slug FROM terms WHERE taxonomy = 'product_cat' AND name LIKE 'Evil%'"),
    );
    const tagSlug = String(
      await value("SELECT slug FROM terms WHERE taxonomy = 'product_tag' AND name LIKE 'tag%'"),
    );
    const imageId = await value('SELECT id FROM product_images WHERE product_id = 2001');
    const urls = [
      '/',
      '/shop/',
      `/product/${productSlug}/`,
      `/product/${variableSlug}/`,
      `/product-category/${encodeURIComponent(categorySlug)}/`,
      `/product-tag/${encodeURIComponent(tagSlug)}/`,
      '/?s=Mug&post_type=product',
      '/?s=Shirt&post_type=product',
      `/images/${imageId}.svg`,
    ];
    for (const url of urls) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      check(response, url);
    }
  });

  it('the cart fragments, cart, checkout and order received with that product', async () => {
    const added = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=add_to_cart',
      payload: { product_id: '2001', quantity: '1' },
    });
    expect(added.statusCode).toBe(200);
    check(added, 'add_to_cart');
    const cookie = added.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
    const variation = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=add_to_cart',
      headers: { cookie },
      payload: { product_id: '2002', variation_id: '2004', quantity: '1' },
    });
    check(variation, 'add_to_cart (variation)');

    for (const url of ['/?wc-ajax=get_refreshed_fragments', '/cart/', '/checkout/']) {
      const response = await get(url, { cookie });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('Mug &lt;script&gt;');
      check(response, url);
    }
    const checkout = await get('/checkout/', { cookie });
    const field = (name: string) =>
      new RegExp(`name="${name}" value="([^"]*)"`).exec(checkout.body)?.[1] ?? '';
    const placed = await shop.app.inject({
      method: 'POST',
      url: '/checkout/',
      headers: { cookie },
      payload: {
        _wpnonce: field('_wpnonce'),
        cart_hash: field('cart_hash'),
        billing_first_name: EVIL('first name'),
        billing_last_name: 'Lovelace',
        billing_country: 'GB',
        billing_address_1: EVIL('address'),
        billing_city: 'London',
        billing_postcode: 'NW1 2AB',
        billing_phone: '+44 20 7946 0000',
        billing_email: 'ada@example.com',
        order_comments: EVIL('note'),
        payment_method: 'cod',
      },
    });
    expect(placed.statusCode, placed.body.slice(0, 300)).toBe(303);
    const received = await get(String(placed.headers.location), { cookie });
    expect(received.statusCode).toBe(200);
    expect(received.body).toContain('Mug &lt;script&gt;');
    check(received, 'order received');
  });
});

describe('markup in queries, paths, cookies and headers is never reflected', () => {
  const payload = encodeURIComponent(EVIL('query'));

  it('queries and paths of pages and endpoints', async () => {
    const urls = [
      `/?s=${payload}&post_type=product`,
      `/page/2/?s=${payload}`,
      `/shop/?orderby=${payload}`,
      `/cart/?added=${payload}`,
      `/checkout/order-received/1/?key=${payload}`,
      `/product/${payload}/`,
      `/product-category/${payload}/`,
      `/${payload}/`,
      `/?wc-ajax=${payload}`,
      `/ajax?action=${payload}`,
      ...SHOP_SURFACE.filter((entry) => entry.method === 'GET').map(
        (entry) =>
          `${entry.url}${entry.url.includes('?') ? '&' : '?'}${entry.fields.map((name) => `${encodeURIComponent(name)}=${payload}`).join('&')}`,
      ),
    ];
    for (const url of urls) check(await get(url), url);
  });

  it('form and ajax bodies', async () => {
    for (const entry of SHOP_SURFACE.filter((each) => each.method === 'POST')) {
      const fields = [...entry.fields, ...(entry.nonceFields ?? []), 'action'];
      const response = await shop.app.inject({
        method: 'POST',
        url: entry.url,
        payload: Object.fromEntries(fields.map((name) => [name, EVIL('body')])),
      });
      expect(response.statusCode, entry.name).toBeLessThan(500);
      check(response, entry.name);
    }
  });

  it('cookies and headers', async () => {
    const evil = EVIL('cookie').replace(/;/g, '');
    const headers = {
      cookie: [
        'shop_session',
        'woocommerce_cart_hash',
        'woocommerce_items_in_cart',
        'store_notice',
        'sbjs_current',
      ]
        .map((name) => `${name}=${evil}`)
        .join('; '),
      referer: EVIL('referer'),
      'user-agent': EVIL('agent'),
      'accept-language': EVIL('language'),
    };
    for (const url of [
      '/',
      '/shop/',
      '/cart/',
      '/checkout/',
      `/product/${productSlug}/`,
      '/?wc-ajax=get_refreshed_fragments',
    ])
      check(await get(url, headers), `${url} with evil cookies`);
  });
});
