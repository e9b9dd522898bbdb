import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { etagMatches, pageCacheKey, pickEncoding } from './cacheKey';
import { PageCache } from './PageCache';
import { createPageVersion } from './pageVersion';

const page = (n: number, size = 2_000) => `<!doctype html><p>page ${n}</p>${'x'.repeat(size)}`;

describe('PageCache', () => {
  it('keeps the bytes it holds under its bound through a crawl of 10,000 distinct pages, newest kept', async () => {
    const maxBytes = 256 * 1024;
    const cache = new PageCache(maxBytes);
    let highest = 0;
    for (let n = 0; n < 10_000; n++) {
      cache.set(`/p/${n}`, page(n, 1_000 + (n % 7) * 500), 'v1');
      highest = Math.max(highest, cache.stats().bytes);
      expect(cache.stats().bytes).toBeLessThanOrEqual(maxBytes);
    }
    // The compressed copies land later, once a page is asked for again, and are counted too.
    await vi.waitFor(() => expect(cache.get('/p/9999', 'v1')?.br).not.toBeNull());
    expect(cache.stats().bytes).toBeLessThanOrEqual(maxBytes);
    expect(highest).toBeGreaterThan(maxBytes / 2);
    expect(cache.stats().entries).toBeLessThan(10_000);
    expect(cache.get('/p/0', 'v1')).toBeUndefined();
    expect(cache.get('/p/9998', 'v1')?.html.toString()).toBe(page(9998, 1_000 + (9998 % 7) * 500));
  });

  it('drops the least recently used first: a page read lately outlives one stored later', () => {
    const one = Buffer.byteLength(page(0)) + 256 + 20;
    const cache = new PageCache(one * 3);
    cache.set('/a', page(1), 'v');
    cache.set('/b', page(2), 'v');
    cache.set('/c', page(3), 'v');
    expect(cache.get('/a', 'v')).toBeDefined();
    cache.set('/d', page(4), 'v');
    expect(cache.get('/b', 'v')).toBeUndefined();
    expect(cache.get('/a', 'v')).toBeDefined();
    expect(cache.get('/c', 'v')).toBeDefined();
    expect(cache.get('/d', 'v')).toBeDefined();
  });

  it('never serves an entry of another version, and forgets it', () => {
    const cache = new PageCache(1024 * 1024);
    cache.set('/a', page(1), 'v1');
    expect(cache.get('/a', 'v2')).toBeUndefined();
    expect(cache.get('/a', 'v1')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('does not keep a page larger than the whole cache, and keeps nothing when off', () => {
    const small = new PageCache(1_000);
    small.set('/big', page(1, 5_000), 'v');
    expect(small.stats().entries).toBe(0);
    const off = new PageCache(0);
    expect(off.enabled).toBe(false);
  });

  it('compresses a page asked for again, once, into brotli and gzip that decode to the same bytes, with one ETag', async () => {
    const cache = new PageCache(1024 * 1024);
    const entry = cache.set('/a', page(1), 'v');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(entry.br).toBeNull();
    cache.get('/a', 'v');
    await vi.waitFor(() => expect(entry.br && entry.gzip).toBeTruthy());
    expect(brotliDecompressSync(entry.br as Buffer).equals(entry.html)).toBe(true);
    expect(gunzipSync(entry.gzip as Buffer).equals(entry.html)).toBe(true);
    expect(entry.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(cache.set('/b', page(1), 'v').etag).toBe(entry.etag);
    expect(cache.set('/c', page(2), 'v').etag).not.toBe(entry.etag);
  });
});

describe('cache key and negotiation', () => {
  const request = (url: string, host = 'shop.test') => ({ protocol: 'https' as const, host, url });

  it('sorts parameters, ignores campaign and click ids, and keeps the origin apart', () => {
    expect(pageCacheKey(request('/shop/?orderby=price&utm_source=x&fbclid=1&page=2'), '')).toBe(
      'https://shop.test/shop/?orderby=price&page=2',
    );
    expect(pageCacheKey(request('/shop/?page=2&orderby=price'), '')).toBe(
      pageCacheKey(request('/shop/?orderby=price&page=2'), ''),
    );
    expect(pageCacheKey(request('/shop/', 'evil.test'), '')).not.toBe(pageCacheKey(request('/shop/'), ''));
    expect(pageCacheKey(request('/?s=linen'), 'notice-dismissed')).toBe(
      'https://shop.test/?s=linen#notice-dismissed',
    );
  });

  it('picks brotli, else gzip, else none, honouring q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, br;q=0')).toBe('gzip');
    expect(pickEncoding('deflate')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('*')).toBe('gzip');
  });

  it('matches If-None-Match weakly, in a list, or *', () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('*', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(etagMatches(undefined, 'W/"abc"')).toBe(false);
  });
});

describe('createPageVersion', () => {
  it('reads the change feed at most once per interval, at once after a local write, one read for many callers', async () => {
    let clock = 0;
    let catalog = 1;
    const catalogVersion = vi.fn(async () => `${catalog}.0`);
    const version = createPageVersion({ catalogVersion }, 'settings', { intervalMs: 200, now: () => clock });
    const first = await Promise.all([version.current(), version.current(), version.current()]);
    expect(first).toEqual(['settings.1.0', 'settings.1.0', 'settings.1.0']);
    expect(catalogVersion).toHaveBeenCalledTimes(1);
    catalog = 2;
    clock = 150;
    expect(await version.current()).toBe('settings.1.0');
    clock = 201;
    expect(await version.current()).toBe('settings.2.0');
    expect(catalogVersion).toHaveBeenCalledTimes(2);
    catalog = 3;
    version.markStale();
    expect(await version.current()).toBe('settings.3.0');
  });
});
