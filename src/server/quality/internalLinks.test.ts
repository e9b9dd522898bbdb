import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';

/*
 * No dead end: every page reachable from the home page by its links answers, and so does every link and image
 * on them. Crawled in-process from `/`, bounded, so a new menu entry, footer link or card URL is checked too.
 */

const MAX_PAGES = 400;

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => {
  await shop?.close();
});

/** The shop's own URLs a page links to or loads (href and src), without fragments. */
function internalUrls(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const url = (match[1] ?? '').replace(/&amp;/g, '&').split('#')[0] ?? '';
    if (url.startsWith('/') && !url.startsWith('//')) urls.add(url);
  }
  return [...urls];
}

it('every page linked from the home page, and every link and image on those pages, answers', async () => {
  const seen = new Map<string, number>();
  const linkedFrom = new Map<string, string>();
  const queue = ['/'];
  while (queue.length > 0 && seen.size < MAX_PAGES) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    const response = await shop.app.inject(url);
    seen.set(url, response.statusCode);
    if (!String(response.headers['content-type']).startsWith('text/html') || response.statusCode >= 400)
      continue;
    for (const next of internalUrls(response.body)) {
      if (seen.has(next) || linkedFrom.has(next)) continue;
      linkedFrom.set(next, url);
      queue.push(next);
    }
  }
  // The whole shop was walked, not the first MAX_PAGES of it (110 URLs with the demo catalog).
  expect(queue.filter((url) => !seen.has(url))).toEqual([]);
  const broken = [...seen]
    .filter(([, status]) => status >= 400)
    .map(([url, status]) => `${url} answered ${status} (linked from ${linkedFrom.get(url)})`);
  expect(broken).toEqual([]);
  // The crawl really walked the shop: products, categories, posts and the cart were among the pages.
  for (const part of ['/product/', '/product-category/', '/cart/', '/journal/', '/images/'])
    expect(
      [...seen.keys()].some((url) => url.startsWith(part)),
      part,
    ).toBe(true);
});
