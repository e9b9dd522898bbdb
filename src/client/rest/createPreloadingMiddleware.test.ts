import { describe, expect, it } from 'vitest';
import { createFakeFetch, json } from './createFakeFetch';
import { createRestClient } from './createRestClient';

describe('createPreloadingMiddleware', () => {
  it('answers a preloaded GET once, whatever the order of its query, then asks the server', async () => {
    const fake = createFakeFetch(() => json([{ id: 'fresh' }]));
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
      preloaded: {
        '/wp/v2/posts?per_page=5&context=view': {
          body: [{ id: 'preloaded' }],
          headers: { 'X-WP-Total': '9' },
        },
      },
    });
    expect(await client({ path: 'wp/v2/posts?context=view&per_page=5' })).toEqual([{ id: 'preloaded' }]);
    expect(fake.calls).toHaveLength(0);
    expect(await client({ path: '/wp/v2/posts?per_page=5&context=view' })).toEqual([{ id: 'fresh' }]);
    expect(fake.calls).toHaveLength(1);
  });

  it('answers parse: false with a Response carrying the preloaded headers, and never answers a POST', async () => {
    const fake = createFakeFetch(() => json({ posted: true }));
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
      preloaded: {
        '/wp/v2/posts': { body: [1], headers: { 'X-WP-Total': '1' } },
        '/wp/v2/pages': { body: [2] },
      },
    });
    const response = await client<Response>({ path: '/wp/v2/posts', parse: false });
    expect(response.headers.get('x-wp-total')).toBe('1');
    expect(await response.json()).toEqual([1]);
    expect(await client({ path: '/wp/v2/pages', method: 'POST' })).toEqual({ posted: true });
  });
});

describe('createPreloadingMiddleware: requests it does not answer', () => {
  it('sends a request made by url to the server, and labels a raw preloaded answer as JSON', async () => {
    const fake = createFakeFetch(() => json({ from: 'server' }));
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
      preloaded: { '/wp/v2/posts': { body: [1] } },
    });
    expect(await client({ url: 'https://shop.test/wp-json/wp/v2/posts' })).toEqual({ from: 'server' });
    expect(fake.calls).toHaveLength(1);
    const raw = await client<Response>({ path: '/wp/v2/posts', parse: false });
    expect(raw.headers.get('content-type')).toBe('application/json');
    expect(fake.calls).toHaveLength(1);
  });
});
