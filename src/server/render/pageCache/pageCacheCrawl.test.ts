import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';

/*
 * A crawler (or an attack) asking for 10,000 distinct addresses of cacheable pages: the render cache keeps what it
 * holds under `server.pageCache.maxBytes` all along, drops the least recently used, and still answers from memory
 * the pages asked for again and again.
 */

const MAX_BYTES = 2 * 1024 * 1024;
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { server: { pageCache: { maxBytes: MAX_BYTES } } } });
});
afterAll(async () => shop?.close());

it('stays under its memory bound through a crawl of 10,000 distinct URLs, keeping a hot page', async () => {
  const get = (url: string) => shop.app.inject({ method: 'GET', url, headers: { host: 'shop.test' } });
  let highest = 0;
  let hotHits = 0;
  // Ten at a time, as a crawler keeps several connections busy; the hot page is asked between batches.
  for (let batch = 0; batch < 1_000; batch++) {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => get(`/journal/?crawl=${batch * 10 + i}`)),
    );
    for (const answer of answers) expect(answer.statusCode).toBe(200);
    if (batch % 5 === 0 && (await get('/journal/')).headers['x-shop-cache'] === 'hit') hotHits++;
    highest = Math.max(highest, shop.app.pageCache.cache.stats().bytes);
  }
  const stats = shop.app.pageCache.cache.stats();
  expect(highest).toBeLessThanOrEqual(MAX_BYTES);
  expect(stats.bytes).toBeLessThanOrEqual(MAX_BYTES);
  // It was full, so it had to drop pages: the first crawled is gone, the last is kept.
  expect(highest).toBeGreaterThan(MAX_BYTES * 0.8);
  expect(stats.entries).toBeLessThan(10_000);
  expect((await get('/journal/?crawl=0')).headers['x-shop-cache']).toBe('miss');
  expect((await get('/journal/?crawl=9999')).headers['x-shop-cache']).toBe('hit');
  expect(hotHits).toBe(199);
}, 600_000);
