import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { readCatalogFiles } from '../import/readCatalogFiles';
import { storeCatalogImages } from './storeCatalogImages';
import { STORED_IMAGE_DIR } from './storedImageSources';

/*
 * The CSV's Images column at import: a local file (relative to the CSV) is stored resized into the srcset sizes and
 * the product's pages use them; an unreachable URL leaves that product to the placeholder without stopping the
 * import.
 */

const CSV = `Type,SKU,Name,Published,Regular price,In stock?,Images
simple,PHOTO-MUG,Photo Mug,1,12.00,1,photos/mug.png
simple,LOST-MUG,Lost Mug,1,10.00,1,https://images.example.invalid/lost.jpg
`;

describe('storing the images a catalog names', () => {
  let shop: TestApp;
  let folder: string;
  const unreachable = vi.fn(async () => {
    throw new TypeError('getaddrinfo ENOTFOUND images.example.invalid');
  });

  beforeAll(async () => {
    shop = await createTestApp({ seed: false });
    folder = mkdtempSync(join(tmpdir(), 'catalog-'));
    mkdirSync(join(folder, 'photos'));
    // A 900×700 photo: wider than the two smaller sizes, narrower than the largest.
    await sharp({ create: { width: 900, height: 700, channels: 3, background: '#3a6ea5' } })
      .png()
      .toFile(join(folder, 'photos', 'mug.png'));
    writeFileSync(join(folder, 'products.csv'), CSV);
  });
  afterAll(async () => {
    await shop.close();
    rmSync(folder, { recursive: true, force: true });
  });

  async function importWithImages() {
    const read = await readCatalogFiles(join(folder, 'products.csv'));
    const result = await storeCatalogImages(read, {
      dataDir: shop.dataDir,
      baseDir: folder,
      fetch: unreachable as unknown as typeof fetch,
    });
    await shop.repositories.catalog.importCatalog(result.catalog);
    return result;
  }

  it('stores a local image at each srcset width, never enlarged, and reports the unreachable one', async () => {
    const result = await importWithImages();
    expect(result.stored).toBe(1);
    expect(result.failed).toEqual([
      { source: 'https://images.example.invalid/lost.jpg', reason: expect.stringContaining('ENOTFOUND') },
    ]);
    const key = result.catalog.storedImages?.get('photos/mug.png');
    expect(key).toMatch(/^[a-f0-9]{32}$/);
    const widths = await Promise.all(
      [300, 600, 1200].map(async (width) => {
        const file = join(shop.dataDir, STORED_IMAGE_DIR, `${key}-${width}.webp`);
        const meta = await sharp(file).metadata();
        return [meta.format, meta.width];
      }),
    );
    expect(widths).toEqual([
      ['webp', 300],
      ['webp', 600],
      ['webp', 900],
    ]);
  });

  it('the product’s pages offer the stored sizes, which the shop serves; the other keeps its placeholder', async () => {
    const page = await shop.app.inject({ method: 'GET', url: '/product/photo-mug/' });
    expect(page.statusCode).toBe(200);
    const gallery = page.body.match(/<div class="product__gallery"><img [^>]*>/)?.[0] ?? '';
    const srcset = gallery.match(/srcSet="([^"]+)"/i)?.[1] ?? '';
    const sources = srcset.split(', ').map((entry) => entry.split(' '));
    expect(sources.map(([, width]) => width)).toEqual(['300w', '600w', '1200w']);
    expect(gallery).toMatch(/src="\/images\/catalog\/[a-f0-9]{32}-600\.webp"/);
    for (const [url] of sources) {
      const image = await shop.app.inject({ method: 'GET', url: url as string });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
    }

    const shopPage = await shop.app.inject({ method: 'GET', url: '/shop/' });
    expect(shopPage.body).toMatch(
      /<img src="\/images\/catalog\/[a-f0-9]{32}-600\.webp" srcSet="[^"]+300w[^"]+"/,
    );

    const lost = await shop.app.inject({ method: 'GET', url: '/product/lost-mug/' });
    const lostGallery = lost.body.match(/<div class="product__gallery"><img [^>]*>/)?.[0] ?? '';
    expect(lostGallery).toMatch(/src="\/images\/\d+\.svg"/);
    expect(lostGallery).not.toMatch(/srcset/i);
  });

  it('search suggestions show the stored image as their thumbnail', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/?wc-ajax=search_suggestions&s=photo' });
    const suggestions = (response.json() as { suggestions: { value: string; thumb_html?: string }[] })
      .suggestions;
    const mug = suggestions.find((suggestion) => suggestion.value === 'Photo Mug');
    expect(JSON.stringify(mug)).toMatch(/\/images\/catalog\/[a-f0-9]{32}-300\.webp/);
  });

  it('a re-import finds the stored files instead of reading the source again', async () => {
    rmSync(join(folder, 'photos', 'mug.png'));
    const result = await importWithImages();
    expect(result.stored).toBe(1);
    expect(result.failed.map((failure) => failure.source)).toEqual([
      'https://images.example.invalid/lost.jpg',
    ]);
    const page = await shop.app.inject({ method: 'GET', url: '/product/photo-mug/' });
    expect(page.body).toMatch(/srcSet="\/images\/catalog\/[a-f0-9]{32}-300\.webp 300w/i);
  });

  it('the placeholder says it is one, in dark ink', async () => {
    const lost = await shop.app.inject({ method: 'GET', url: '/product/lost-mug/' });
    const src = lost.body.match(/<div class="product__gallery"><img src="([^"]+)"/)?.[1] ?? '';
    const svg = await shop.app.inject({ method: 'GET', url: src });
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body).toContain('aria-label="Lost Mug: no image"');
    expect(svg.body).toContain('>No image</text>');
    expect(svg.body).toMatch(/font-weight="700" fill="#1f2328">LM</);
    expect(existsSync(join(shop.dataDir, STORED_IMAGE_DIR))).toBe(true);
  });
});
