import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { DEFAULT_FAVICON } from './siteFilesPlugin';

/* robots.txt, sitemap.xml and favicon.ico as a crawler and a browser fetch them, on the seeded demo shop. */

const HOST = 'shop.test';

describe('site files', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(() => shop.close());

  const get = (url: string) => shop.app.inject({ method: 'GET', url, headers: { host: HOST } });

  async function sitemapLocations(): Promise<string[]> {
    const response = await get('/sitemap.xml');
    expect(response.statusCode).toBe(200);
    return [...response.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1] ?? '');
  }

  it('robots.txt keeps crawlers out of private pages and search, and names the sitemap', async () => {
    const response = await get('/robots.txt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = response.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    for (const path of ['/cart/', '/checkout/', '/my-account/', '/admin/', '/insights/', '/*?s=']) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: http://${HOST}/sitemap.xml`);
    expect(lines).not.toContain('Disallow: /');
  });

  it('sitemap.xml lists the indexable products, categories and pages as absolute addresses', async () => {
    const response = await get('/sitemap.xml');
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(response.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const locations = await sitemapLocations();
    const origin = `http://${HOST}`;
    expect(locations).toEqual(
      expect.arrayContaining([
        `${origin}/`,
        `${origin}/shop/`,
        `${origin}/product/cafe-au-lait-mug/`,
        `${origin}/product-category/home/kitchen/`,
        `${origin}/about/`,
        `${origin}/journal/`,
        `${origin}/how-we-choose-our-linen/`,
      ]),
    );
    const hidden = await shop.query<{ slug: string }>(
      "SELECT slug FROM products WHERE visibility = 'hidden' OR status = 'draft' OR type = 'variation'",
    );
    expect(hidden.length).toBeGreaterThan(2);
    for (const { slug } of hidden) {
      if (slug) expect(locations).not.toContain(`${origin}/product/${encodeURIComponent(slug)}/`);
    }
    // A protected page's address tells nothing, but its title is the owner's secret to share.
    expect(locations).not.toContain(`${origin}/trade-prices/`);
    // Products the shop hides from archives but lets search find are still pages worth indexing.
    const searchOnly = await shop.query<{ slug: string }>(
      "SELECT slug FROM products WHERE visibility = 'search' AND status = 'publish'",
    );
    expect(locations).toContain(`${origin}/product/${searchOnly[0]?.slug}/`);
    expect(response.body).toMatch(
      /<loc>http:\/\/shop\.test\/product\/cafe-au-lait-mug\/<\/loc><lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/,
    );
  });

  it('sitemap.xml follows catalog changes on the next request', async () => {
    const before = await sitemapLocations();
    expect(before).toContain(`http://${HOST}/product/cafe-au-lait-mug/`);
    await shop.query("UPDATE products SET slug = 'cafe-mug' WHERE slug = 'cafe-au-lait-mug'");
    await shop.query("UPDATE products SET status = 'draft' WHERE slug = 'speckled-stoneware-bowl'");
    const after = await sitemapLocations();
    expect(after).toContain(`http://${HOST}/product/cafe-mug/`);
    expect(after).not.toContain(`http://${HOST}/product/cafe-au-lait-mug/`);
    expect(after).not.toContain(`http://${HOST}/product/speckled-stoneware-bowl/`);
    expect(before).toContain(`http://${HOST}/product/speckled-stoneware-bowl/`);
  });

  it('favicon.ico answers the icon shipped with the shop', async () => {
    const response = await get('/favicon.ico');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/x-icon');
    expect(response.rawPayload.equals(readFileSync(DEFAULT_FAVICON))).toBe(true);
    // An ICO file: reserved 0, type 1, at least one image.
    expect(response.rawPayload.readUInt16LE(2)).toBe(1);
    expect(response.rawPayload.readUInt16LE(4)).toBeGreaterThan(0);
  });

  it('unknown file-like addresses are a 404 page, not a 400', async () => {
    const response = await get('/wp-login.php');
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('Page not found');
  });
});

describe('site files with a favicon setting', () => {
  let shop: TestApp | undefined;
  afterAll(() => shop?.close());

  it('favicon.ico answers the configured file with its type', async () => {
    const icon = join(tmpdir(), `favicon-${process.pid}.png`);
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
    writeFileSync(icon, png);
    shop = await createTestApp({ seed: false, settings: { server: { faviconFile: icon } } });
    const response = await shop.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.rawPayload.equals(png)).toBe(true);
  });

  it('a configured favicon that cannot be read stops the start, naming the file', async () => {
    await expect(
      createTestApp({ seed: false, settings: { server: { faviconFile: '/nonexistent/icon.png' } } }),
    ).rejects.toThrow(/faviconFile.*\/nonexistent\/icon\.png/);
  });
});
