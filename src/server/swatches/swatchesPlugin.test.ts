import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { parseWooCsv } from '../catalog/import/parseWooCsv';
import { EMPTY_SIDECAR } from '../catalog/import/siteSidecarSchema';

const HOODIE = 1100; // Color × Logo: only Red/No, Green/No, Blue/No, Blue/Yes
const SNEAKER = 1110; // 37 variations, above the default lazy threshold of 30

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => shop.close());

describe('GET /?wc-ajax=get_variations', () => {
  it('answers every variation of a variable product, keyed by form field', async () => {
    const response = await shop.app.inject(`/?wc-ajax=get_variations&product_id=${SNEAKER}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.product_id).toBe(SNEAKER);
    expect(body.variations).toHaveLength(37);
    expect(body.variations).toContainEqual(
      expect.objectContaining({
        sku: 'DEMO-CANVAS-SNEAKER-OLIVE-44',
        attributes: { attribute_color: 'olive', 'attribute_shoe-size': '44' },
        is_in_stock: false,
      }),
    );
  });

  it('refuses a product without variations, and a missing id, with {code, message}', async () => {
    const simple = await shop.app.inject('/?wc-ajax=get_variations&product_id=1021');
    expect(simple.statusCode).toBe(404);
    expect(simple.json()).toMatchObject({ code: 'product_not_found' });
    const missing = await shop.app.inject('/?wc-ajax=get_variations');
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'invalid_request' });
  });
});

describe('product pages', () => {
  it('inline the variations of a small product and preselect from the address', async () => {
    const page = await shop.app.inject(
      '/product/brushed-cotton-hoodie/?attribute_color=blue&attribute_logo=maybe',
    );
    expect(page.statusCode).toBe(200);
    const props = islandProps(page.body);
    expect(props.lazy).toBe(false);
    expect(props.variations).toHaveLength(4);
    expect(props.initialChoices).toEqual({ attribute_color: 'blue' });
    // The no-script form carries the preselection too: its native radio is checked, and no other.
    expect(page.body).toMatch(
      /<input type="radio" class="swatch__input" name="attribute_color" checked="" value="blue"/,
    );
    expect(page.body.match(/<input type="radio" class="swatch__input"[^>]*checked=""/g)).toHaveLength(1);
  });

  it('leave the variations of a product above the threshold to get_variations', async () => {
    const props = islandProps((await shop.app.inject('/product/canvas-sneaker/')).body);
    expect(props).toMatchObject({ lazy: true, variations: [] });
  });
});

describe('swatch data', () => {
  it('imports per-term swatch types, colours and images, and draws term images locally', async () => {
    const hoodie = await shop.repositories.catalog.getProductById(HOODIE);
    const color = hoodie?.attributes.find((attribute) => attribute.slug === 'color');
    expect(color?.options.find((option) => option.slug === 'red')).toMatchObject({ color: '#b83a32' });

    await shop.repositories.catalog.importCatalog({
      products: [baseProduct()],
      site: {
        ...EMPTY_SIDECAR,
        attributes: {
          Finish: {
            swatchType: 'label',
            terms: {
              Glazed: { image: 'https://images.example.invalid/glazed-blue.jpg', swatchType: 'image' },
            },
          },
        },
      },
    });
    const product = await shop.repositories.catalog.getProductBySlug('swatch-test-bowl');
    const glazed = product?.attributes[0]?.options[0];
    expect(glazed).toMatchObject({
      swatchType: 'image',
      image: expect.stringMatching(/^\/swatch-images\/\d+\.svg$/),
    });
    const image = await shop.app.inject(glazed?.image ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/svg+xml');
    expect(image.body).toContain('#2f6fb3'); // blue, from the file name, as product images are drawn
  });
});

function islandProps(html: string) {
  const match = /data-island="variationForm" data-props="([^"]*)"/.exec(html);
  if (!match?.[1]) throw new Error('no variation form on the page');
  return JSON.parse(match[1].replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
}

function baseProduct() {
  const csv = [
    'ID,Type,SKU,Name,Published,Regular price,Attribute 1 name,Attribute 1 value(s),Attribute 1 visible,Attribute 1 global',
    '5001,simple,SWATCH-TEST-BOWL,Swatch Test Bowl,1,20,Finish,Glazed,1,1',
  ].join('\n');
  const [product] = parseWooCsv(csv).products;
  if (!product) throw new Error('no product parsed');
  return product;
}
