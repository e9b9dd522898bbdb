import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { visitProtectedPage } from '../../../test-support/visitProtectedPage';

/*
 * The demo's "Trade prices" page is protected by the password "wholesale". Its title may be found and shown; a
 * word that is only in its excerpt ("minimum orders") or only in its body ("Stockists") must not find it, and
 * neither text may appear anywhere before the password is given.
 */

const HOST = 'shop.test';
const BODY_WORD = 'Stockists';
const EXCERPT_WORDS = 'minimum orders';
const EXCERPT = 'Wholesale prices and minimum orders';

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => shop?.close());

const get = (url: string) => shop.app.inject({ url, headers: { host: HOST } });

describe('a password-protected page', () => {
  it('is not found in wp/v2/pages and wp/v2/posts by words of its body or excerpt, only by its title', async () => {
    for (const word of [BODY_WORD, EXCERPT_WORDS, BODY_WORD.toLowerCase()]) {
      for (const base of ['pages', 'posts']) {
        const response = await get(`/wp-json/wp/v2/${base}?search=${encodeURIComponent(word)}`);
        expect(response.statusCode).toBe(200);
        expect({ base, word, found: response.json() }).toEqual({ base, word, found: [] });
        expect(response.headers['x-wp-total']).toBe('0');
      }
    }
    const byTitle = await get('/wp-json/wp/v2/pages?search=trade');
    expect(byTitle.json()).toEqual([
      expect.objectContaining({
        slug: 'trade-prices',
        title: { rendered: 'Trade prices' },
        content: { rendered: '', protected: true },
        excerpt: { rendered: '', protected: true },
      }),
    ]);
    // An open page is still found by a word of its body.
    const open = await get('/wp-json/wp/v2/pages?search=market%20stall');
    expect(open.json().map((page: { slug: string }) => page.slug)).toEqual(['about']);
  });

  it('shows neither its excerpt nor its body in its page, search suggestions or the search results page', async () => {
    const page = await get('/trade-prices/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This content is password protected');
    expect(page.body).not.toContain(EXCERPT);
    expect(page.body).not.toContain(BODY_WORD);

    for (const word of [BODY_WORD, EXCERPT_WORDS]) {
      const suggestions = await get(`/?wc-ajax=search_suggestions&s=${encodeURIComponent(word)}`);
      expect(suggestions.statusCode).toBe(200);
      expect(suggestions.body).not.toContain('trade-prices');
      const results = await get(`/?s=${encodeURIComponent(word)}&post_type=product`);
      expect(results.body).not.toContain('trade-prices');
      expect(results.body).not.toContain(EXCERPT);
    }
    const byTitle = await get('/?wc-ajax=search_suggestions&s=trade%20prices');
    const post = byTitle.json().suggestions.find((each: { type: string }) => each.type === 'post');
    expect(post).toMatchObject({ value: 'Trade prices', url: '/trade-prices/' });
    expect(post.desc).toBeUndefined();
  });

  it('shows its body once the password is given', async () => {
    const visit = await visitProtectedPage(shop.app, '/trade-prices/', HOST);
    const unlocked = await visit.submit('wholesale');
    expect(unlocked.statusCode).toBe(303);
    const page = await visit.get();
    expect(page.body).toContain(BODY_WORD);
    expect(page.body).not.toContain('This content is password protected');
  });
});
