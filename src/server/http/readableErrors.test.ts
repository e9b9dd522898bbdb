import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';

/* Errors as a shopper meets them on pages: sentences, never a field path or zod's wording. */

describe('errors on pages', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(() => shop.close());

  const get = (url: string) => shop.app.inject({ method: 'GET', url });
  /** The page's main text, tags stripped, as a reader sees it. */
  const text = (html: string) =>
    (html.match(/<main[\s\S]*<\/main>/)?.[0] ?? html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

  it('a search over 100 characters says so in words', async () => {
    const response = await get(`/?s=${'a'.repeat(101)}&post_type=product`);
    expect(response.statusCode).toBe(400);
    const page = text(response.body);
    expect(page).toContain('That search is too long (max 100 characters)');
    expect(page).not.toContain('s: ');
  });

  it('a search of 100 characters is still searched', async () => {
    const response = await get(`/?s=${'a'.repeat(100)}&post_type=product`);
    expect(response.statusCode).toBe(200);
    expect(text(response.body)).toContain('No products were found matching your search.');
  });

  it.each([
    ['/shop/page/0/', 'Page must be at least 1.'],
    ['/shop/page/abc/', 'Page must be a number.'],
    ['/shop/page/1000001/', 'Page must be at most 100000.'],
  ])('%s says what is wrong with the page number', async (url, sentence) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    const page = text(response.body);
    expect(page).toContain(sentence);
    expect(page).not.toMatch(/Too small|Too big|expected|Invalid input|page:/);
  });

  it('an unknown address is a 404 page with a search form and links to go on', async () => {
    const response = await get('/no/such/place/');
    expect(response.statusCode).toBe(404);
    expect(response.body).toMatch(/<meta name="robots" content="noindex/);
    const main = response.body.match(/<main[\s\S]*<\/main>/)?.[0] ?? '';
    expect(main).toContain('<h1>Page not found</h1>');
    expect(main).toMatch(/<form[^>]*action="\/"[^>]*>[\s\S]*<input[^>]*name="s"[\s\S]*<\/form>/);
    expect(main).toContain('<a href="/shop/">Continue shopping</a>');
    expect(main).toContain('<a href="/product-category/home/">Home</a>');
    expect(main).toContain('<a href="/product-category/apparel/">Apparel</a>');
  });
});
