import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { etagMatches, pageCacheKey, pickEncoding } from './cacheKey';
import { PageCache } from './PageCache';
import { createPageChangeFollower } from './pageChangeFollower';
import { ANY_CHANGE } from './pageTags';

const page = (n: number, size = 2_000) => `<!doctype html><p>page ${n}</p>${'x'.repeat(size)}`;
const at0 = { tags: [ANY_CHANGE], renderedFrom: 0 };

describe('PageCache', () => {
  it('keeps the bytes it holds under its bound through a crawl of 10,000 distinct pages, newest kept', async () => {
    const maxBytes = 256 * 1024;
    const cache = new PageCache(maxBytes);
    let highest = 0;
    for (let n = 0; n < 10_000; n++) {
      cache.set(`/p/${n}`, page(n, 1_000 + (n % 7) * 500), at0);
      highest = Math.max(highest, cache.stats().bytes);
      expect(cache.stats().bytes).toBeLessThanOrEqual(maxBytes);
    }
    // The compressed copies land later, once a page is asked for again, and are counted too.
    await vi.waitFor(() => expect(cache.get('/p/9999')?.br).not.toBeNull());
    expect(cache.stats().bytes).toBeLessThanOrEqual(maxBytes);
    expect(highest).toBeGreaterThan(maxBytes / 2);
    expect(cache.stats().entries).toBeLessThan(10_000);
    expect(cache.get('/p/0')).toBeUndefined();
    expect(cache.get('/p/9998')?.html.toString()).toBe(page(9998, 1_000 + (9998 % 7) * 500));
  });

  it('drops the least recently used first: a page read lately outlives one stored later', () => {
    const one = Buffer.byteLength(page(0)) + 256 + 20 + 18;
    const cache = new PageCache(one * 3);
    cache.set('/a', page(1), at0);
    cache.set('/b', page(2), at0);
    cache.set('/c', page(3), at0);
    expect(cache.get('/a')).toBeDefined();
    cache.set('/d', page(4), at0);
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toBeDefined();
    expect(cache.get('/c')).toBeDefined();
    expect(cache.get('/d')).toBeDefined();
  });

  it('drops exactly the entries carrying a dropped tag, and forgets them', () => {
    const cache = new PageCache(1024 * 1024);
    cache.set('/product/a', page(1), { tags: ['product:1', 'listed:2'], renderedFrom: 0 });
    cache.set('/product/b', page(2), { tags: ['product:2'], renderedFrom: 0 });
    cache.set('/category/x', page(3), { tags: ['term:9', 'listed:1'], renderedFrom: 0 });
    cache.set('/unknown', page(4), at0);
    expect(cache.invalidate({ all: false, tags: new Set(['listed:1', ANY_CHANGE]) }, 5)).toBe(2);
    expect(cache.get('/category/x')).toBeUndefined();
    expect(cache.get('/unknown')).toBeUndefined();
    expect(cache.get('/product/a')).toBeDefined();
    expect(cache.get('/product/b')).toBeDefined();
    cache.invalidate({ all: false, tags: new Set(['product:2']) }, 6);
    expect(cache.get('/product/b')).toBeUndefined();
    expect(cache.get('/product/a')).toBeDefined();
    cache.invalidate({ all: true, tags: new Set() }, 7);
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('drops the entries of given tags without recording a change; a page not to keep is only made ready to send', () => {
    const cache = new PageCache(1024 * 1024);
    cache.set('/?s=tin', page(1), { tags: ['search', 'indexed-at:7'], renderedFrom: 9 });
    cache.set('/?s=mug', page(2), { tags: ['search'], renderedFrom: 9 });
    cache.dropTagged(['indexed-at:7']);
    expect(cache.get('/?s=tin')).toBeUndefined();
    expect(cache.get('/?s=mug')).toBeDefined();
    // A page rendered after it, at the same position, is kept: nothing was recorded as dropped.
    cache.set('/?s=tin', page(3), { tags: ['search'], renderedFrom: 9 });
    expect(cache.get('/?s=tin')).toBeDefined();
    const sent = cache.set('/?s=jar', page(4), { tags: ['search'], renderedFrom: 9, keep: false });
    expect(sent.html.length).toBeGreaterThan(0);
    expect(cache.get('/?s=jar')).toBeUndefined();
  });

  it('does not store a page a change overtook while it was rendered, and stores one rendered after it', () => {
    const cache = new PageCache(1024 * 1024);
    cache.invalidate({ all: false, tags: new Set(['product:1', ANY_CHANGE]) }, 10);
    cache.set('/product/a', page(1), { tags: ['product:1'], renderedFrom: 9 });
    expect(cache.get('/product/a')).toBeUndefined();
    cache.set('/product/b', page(2), { tags: ['product:2'], renderedFrom: 9 });
    expect(cache.get('/product/b')).toBeDefined();
    cache.set('/product/a', page(1), { tags: ['product:1'], renderedFrom: 10 });
    expect(cache.get('/product/a')).toBeDefined();
    cache.invalidate({ all: true, tags: new Set() }, 11);
    cache.set('/product/b', page(2), { tags: ['product:2'], renderedFrom: 10 });
    expect(cache.get('/product/b')).toBeUndefined();
  });

  it('does not keep a page larger than the whole cache, and keeps nothing when off', () => {
    const small = new PageCache(1_000);
    small.set('/big', page(1, 5_000), at0);
    expect(small.stats().entries).toBe(0);
    const off = new PageCache(0);
    expect(off.enabled).toBe(false);
  });

  it('compresses a page asked for again, once, into brotli and gzip that decode to the same bytes, with one ETag', async () => {
    const cache = new PageCache(1024 * 1024);
    const entry = cache.set('/a', page(1), at0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(entry.br).toBeNull();
    cache.get('/a');
    await vi.waitFor(() => expect(entry.br && entry.gzip).toBeTruthy());
    expect(brotliDecompressSync(entry.br as Buffer).equals(entry.html)).toBe(true);
    expect(gunzipSync(entry.gzip as Buffer).equals(entry.html)).toBe(true);
    expect(entry.etag).toMatch(/^W\/"[\w-]+"$/);
    expect(cache.set('/b', page(1), at0).etag).toBe(entry.etag);
    expect(cache.set('/c', page(2), at0).etag).not.toBe(entry.etag);
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

describe('createPageChangeFollower', () => {
  const none = { full: false, products: [], terms: [], vendors: [], posts: [], archiveTerms: [] };
  /** A promise the test settles when it chooses: a part of the log read that is still in flight until then. */
  const hold = () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    return { held, release };
  };
  /** What a race against `soon()` answers when the other promise is still waiting 50 ms on. */
  const waiting = Symbol('waiting');
  const soon = () => new Promise((resolve) => setTimeout(() => resolve(waiting), 50));

  it('reads the change log at most once per interval, at once after a local write, one read for many callers', async () => {
    let clock = 0;
    let version = '1.0';
    const catalogVersion = vi.fn(async () => version);
    const pageChangesSince = vi.fn(async (seq: number) =>
      seq === 0
        ? { ...none, seq: 1, rules: '0' }
        : { ...none, seq: 2, rules: '0', products: [{ id: 7, wide: false }] },
    );
    const invalidate = vi.fn(() => 0);
    const follower = createPageChangeFollower(
      { catalogVersion, pageChangesSince },
      { invalidate },
      {
        intervalMs: 200,
        now: () => clock,
      },
    );
    expect(await Promise.all([follower.sync(), follower.sync(), follower.sync()])).toEqual([1, 1, 1]);
    expect(catalogVersion).toHaveBeenCalledTimes(1);
    version = '2.0';
    clock = 150;
    expect(await follower.sync()).toBe(1);
    clock = 201;
    expect(await follower.sync()).toBe(2);
    expect(invalidate).toHaveBeenCalledWith(
      { all: false, tags: new Set(['product:7', 'sales', ANY_CHANGE]) },
      2,
    );
    expect(catalogVersion).toHaveBeenCalledTimes(2);
    follower.markStale();
    expect(await follower.sync()).toBe(2);
    expect(catalogVersion).toHaveBeenCalledTimes(3);
    // The same version: the log is not read again.
    expect(pageChangesSince).toHaveBeenCalledTimes(2);
  });

  it('with notifications, reads on a slower timer, and at once after a notification', async () => {
    let clock = 0;
    let version = '1';
    let notify: (table: string | null) => void = () => {};
    const stop = vi.fn();
    const catalogVersion = vi.fn(async () => version);
    const follower = createPageChangeFollower(
      {
        catalogVersion,
        pageChangesSince: async (seq: number) =>
          seq === 0 ? { ...none, seq: 1, rules: '0' } : { ...none, seq: 2, rules: '0', posts: [3] },
      },
      { invalidate: () => 0 },
      {
        wakeUps: {
          subscribe: (listener) => {
            notify = listener;
            return stop;
          },
        },
        now: () => clock,
      },
    );
    expect(await follower.sync()).toBe(1);
    version = '2';
    clock = 500;
    expect(await follower.sync()).toBe(1);
    notify('search_changes');
    expect(await follower.sync()).toBe(2);
    expect(catalogVersion).toHaveBeenCalledTimes(2);
    clock = 1_400;
    expect(await follower.sync()).toBe(2);
    expect(catalogVersion).toHaveBeenCalledTimes(2);
    clock = 1_600;
    await follower.sync();
    expect(catalogVersion).toHaveBeenCalledTimes(3);
    follower.close();
    expect(stop).toHaveBeenCalled();
  });

  it('keeps its position and asks again when the log could not be read', async () => {
    let readable = false;
    let version = '1';
    const follower = createPageChangeFollower(
      {
        catalogVersion: async () => version,
        pageChangesSince: async (seq: number) =>
          seq === 0
            ? { ...none, seq: 3, rules: '0' }
            : readable
              ? { ...none, seq: 4, rules: '0', posts: [1] }
              : { ...none, seq, rules: null },
      },
      { invalidate: () => 0 },
      { intervalMs: 0 },
    );
    expect(await follower.sync()).toBe(3);
    version = '2';
    expect(await follower.sync()).toBe(3);
    readable = true;
    expect(await follower.sync()).toBe(4);
  });
  it('reads a long backlog in parts and drops their pages once all are read; meanwhile requests answer from the cache as it was, unless this process wrote', async () => {
    let version = '1';
    const { held, release } = hold();
    const parts: { seq: number; wideAfter?: number }[] = [];
    const pageChangesSince = vi.fn(async (seq: number, _limit: number, part?: { wideAfter: number }) => {
      if (seq === 0) return { ...none, seq: 1, rules: '0' };
      parts.push({ seq, wideAfter: part?.wideAfter });
      if (seq === 1) return { ...none, seq: 2001, more: true, rules: '0', products: [{ id: 7, wide: true }] };
      await held;
      return { ...none, seq: 4000, more: false, rules: '0', products: [{ id: 8, wide: false }] };
    });
    const invalidate = vi.fn(() => 0);
    const follower = createPageChangeFollower(
      { catalogVersion: async () => version, pageChangesSince },
      { invalidate },
      { intervalMs: 0 },
    );
    expect(await follower.sync()).toBe(1);
    version = '2';
    // The request that found the backlog is answered once its first part is read, from the cache as it was.
    expect(await follower.sync()).toBe(1);
    await vi.waitFor(() => expect(parts).toHaveLength(2));
    // The second part is in flight: nothing dropped yet, a request is answered from the cache as it is.
    expect(await Promise.race([follower.sync(), soon()])).toBe(1);
    expect(invalidate).not.toHaveBeenCalled();
    // A write of this process: the next request waits for the whole backlog.
    follower.markStale();
    const afterWrite = follower.sync();
    expect(await Promise.race([afterWrite, soon()])).toBe(waiting);
    release();
    expect(await afterWrite).toBe(4000);
    // Each part from the last one's position, each counted wide by where the whole read started.
    expect(parts).toEqual([
      { seq: 1, wideAfter: 1 },
      { seq: 2001, wideAfter: 1 },
    ]);
    // Both parts' drops at once, at the backlog's end.
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith(
      { all: false, tags: new Set(['product:7', 'sales', 'listed:7', 'catalog', ANY_CHANGE, 'product:8']) },
      4000,
    );
  });
  it('applies the parts of a backlog read so far when the log cannot be read further, and goes on from there', async () => {
    let version = '1';
    let readable = false;
    const from: number[] = [];
    const invalidate = vi.fn(() => 0);
    const follower = createPageChangeFollower(
      {
        catalogVersion: async () => version,
        pageChangesSince: async (seq: number) => {
          if (seq === 0) return { ...none, seq: 1, rules: '0' };
          from.push(seq);
          if (seq === 1)
            return { ...none, seq: 2001, more: true, rules: '0', products: [{ id: 5, wide: false }] };
          return readable
            ? { ...none, seq: 4000, rules: '0', products: [{ id: 6, wide: false }] }
            : { ...none, seq, rules: null };
        },
      },
      { invalidate },
      { intervalMs: 0 },
    );
    expect(await follower.sync()).toBe(1);
    version = '2';
    follower.markStale();
    expect(await follower.sync()).toBe(2001);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenLastCalledWith(
      { all: false, tags: new Set(['product:5', 'sales', ANY_CHANGE]) },
      2001,
    );
    readable = true;
    expect(await follower.sync()).toBe(4000);
    expect(from).toEqual([1, 2001, 2001]);
    expect(invalidate).toHaveBeenLastCalledWith(
      { all: false, tags: new Set(['product:6', 'sales', ANY_CHANGE]) },
      4000,
    );
  });
  it('past 50,000 changes of backlog, drops the whole cache and goes on from the log’s newest position', async () => {
    let version = '1';
    let partsRead = 0;
    const invalidate = vi.fn(() => 0);
    const follower = createPageChangeFollower(
      {
        catalogVersion: async () => version,
        pageChangesSince: async (seq: number, _limit: number, part?: { wideAfter: number }) => {
          if (seq === 0) return { ...none, seq: 1, rules: '0' };
          if (!part) return { ...none, full: true, seq: 900_000, rules: '0' };
          partsRead++;
          return { ...none, seq: seq + 2000, more: true, rules: '0', posts: [seq] };
        },
      },
      { invalidate },
      { intervalMs: 0 },
    );
    expect(await follower.sync()).toBe(1);
    version = '2';
    expect(await follower.sync()).toBe(1);
    await vi.waitFor(() => expect(invalidate).toHaveBeenCalled());
    expect(await follower.sync()).toBe(900_000);
    expect(partsRead).toBe(25);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ all: true, tags: new Set() }, 900_000);
  });
  it('another process’s commit is answered after a long backlog’s first part; after this process’s write, after all', async () => {
    let version = '1';
    let notify: (table: string | null) => void = () => {};
    const holds = [hold(), hold()];
    const follower = createPageChangeFollower(
      {
        catalogVersion: async () => version,
        pageChangesSince: async (seq: number) => {
          if (seq === 0) return { ...none, seq: 1, rules: '0' };
          // Two backlogs of two parts each: 1 → 2001 → 4000, then 4000 → 6001 → 8000; each second part held.
          if (seq === 1 || seq === 4000)
            return { ...none, seq: seq + 2000 + (seq === 1 ? 0 : 1), more: true, rules: '0' };
          await holds[seq === 2001 ? 0 : 1]?.held;
          return { ...none, seq: seq === 2001 ? 4000 : 8000, more: false, rules: '0' };
        },
      },
      { invalidate: () => 0 },
      {
        intervalMs: 0,
        wakeUps: {
          subscribe: (listener) => {
            notify = listener;
            return () => {};
          },
        },
      },
    );
    expect(await follower.sync()).toBe(1);
    version = '2';
    notify('search_changes');
    expect(await Promise.race([follower.sync(), soon()])).toBe(1);
    holds[0]?.release();
    await vi.waitFor(async () => expect(await follower.sync()).toBe(4000));
    version = '3';
    follower.markStale();
    const afterWrite = follower.sync();
    expect(await Promise.race([afterWrite, soon()])).toBe(waiting);
    holds[1]?.release();
    expect(await afterWrite).toBe(8000);
  });
});
