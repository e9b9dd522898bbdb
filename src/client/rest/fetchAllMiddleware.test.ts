import { describe, expect, it } from 'vitest';
import { createFakeFetch, json } from './createFakeFetch';
import { createRestClient } from './createRestClient';
import { RestError } from './RestError';

const ITEMS = Array.from({ length: 250 }, (_, index) => ({ id: index + 1 }));

/** A fake server paging ITEMS like WordPress; `withLink` false plays a proxy that strips the Link header. */
function pagedServer(withLink: boolean) {
  return createFakeFetch((call) => {
    const url = new URL(call.url, 'https://shop.test');
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    const totalPages = Math.ceil(ITEMS.length / perPage);
    const headers: Record<string, string> = {
      'X-WP-Total': String(ITEMS.length),
      'X-WP-TotalPages': String(totalPages),
    };
    if (withLink && page < totalPages) {
      url.searchParams.set('page', String(page + 1));
      headers.Link = `<https://shop.test/wp-json/wp/v2/posts?page=${page - 1}>; rel="prev", <${url.href}>; rel="next"`;
    }
    return json(ITEMS.slice((page - 1) * perPage, page * perPage), { headers });
  });
}

describe('fetchAllMiddleware (per_page=-1)', () => {
  it('fetches 3 pages of 100 by following Link next and concatenates them in order', async () => {
    const fake = pagedServer(true);
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
    });
    const all = await client<{ id: number }[]>({ path: '/wp/v2/posts?per_page=-1' });
    expect(all).toEqual(ITEMS);
    expect(fake.calls.map((call) => new URL(call.url, 'https://shop.test').searchParams.get('page'))).toEqual(
      [null, '2', '3'],
    );
    expect(
      fake.calls.every(
        (call) => new URL(call.url, 'https://shop.test').searchParams.get('per_page') === '100',
      ),
    ).toBe(true);
  });

  it('falls back to X-WP-TotalPages when the Link header is stripped, fetching the rest in parallel', async () => {
    let inFlight = 0;
    let most = 0;
    const fake = pagedServer(false);
    const slowFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return fake.fetch(input, init);
    }) as typeof fetch;
    const client = createRestClient({
      fetch: slowFetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
    });
    expect(await client({ path: '/wp/v2/posts?per_page=-1' })).toEqual(ITEMS);
    expect(fake.calls).toHaveLength(3);
    expect(most).toBe(2);
  });

  it('fails with the server error as a RestError when a page fails', async () => {
    const fake = createFakeFetch((call) =>
      call.url.includes('page=2')
        ? json({ code: 'rest_post_invalid_page_number', message: 'Too far' }, { status: 400 })
        : json([{ id: 1 }], { headers: { 'X-WP-TotalPages': '2' } }),
    );
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
    });
    const error = await client({ path: '/wp/v2/posts?per_page=-1' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({ code: 'rest_post_invalid_page_number', message: 'Too far' });
  });

  it('leaves other requests alone, and returns a non-list answer as it is', async () => {
    const fake = createFakeFetch(() => json({ id: 1 }, { headers: { 'X-WP-TotalPages': '3' } }));
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
    });
    expect(await client({ path: '/wp/v2/posts?per_page=5' })).toEqual({ id: 1 });
    expect(fake.calls[0]?.url).toBe('/wp-json/wp/v2/posts?per_page=5&_locale=user');
    expect(await client({ path: '/wp/v2/settings?per_page=-1' })).toEqual({ id: 1 });
    expect(fake.calls).toHaveLength(2);
  });
});

describe('fetchAllMiddleware: following Link alone', () => {
  const PAGES: Record<string, number[]> = { a: [1, 2], b: [3], c: [4, 5], d: [6] };
  /**
   * A server that pages by an opaque cursor and sends no X-WP-TotalPages, so only its `Link` next URLs lead to
   * the later pages. Each page writes its Link header another way RFC 8288 allows (spaces around `;`, a quoted
   * or bare rel, `,` with or without a space), and the next URLs carry a comma of their own (`include=1,2`).
   */
  function cursorServer() {
    const next = (cursor: string) => `https://shop.test/wp-json/wp/v2/posts?include=1,2&cursor=${cursor}`;
    const links: Record<string, string> = {
      a: `<${next('b')}>; rel="next"`,
      b: `<${next('a')}>; rel="prev",<${next('c')}> ;rel=next`,
      c: `<${next('b')}> ; rel=prev, <${next('d')}>;  rel="next"`,
      d: `<${next('c')}>; rel="prev"`,
    };
    return createFakeFetch((call) => {
      const cursor = new URL(call.url, 'https://shop.test').searchParams.get('cursor') ?? 'a';
      return json(PAGES[cursor], { headers: { Link: links[cursor] ?? '' } });
    });
  }

  it('follows every next URL in order, whatever the Link header’s spelling, without X-WP-TotalPages', async () => {
    const fake = cursorServer();
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
    });
    expect(await client({ path: '/wp/v2/posts?per_page=-1' })).toEqual([1, 2, 3, 4, 5, 6]);
    expect(fake.calls.map((call) => call.url)).toEqual([
      '/wp-json/wp/v2/posts?per_page=100&_locale=user',
      'https://shop.test/wp-json/wp/v2/posts?include=1,2&cursor=b',
      'https://shop.test/wp-json/wp/v2/posts?include=1,2&cursor=c',
      'https://shop.test/wp-json/wp/v2/posts?include=1,2&cursor=d',
    ]);
  });
});

describe('fetchAllMiddleware: which requests it pages, and how they fail', () => {
  const clientFor = (fake: ReturnType<typeof createFakeFetch>) =>
    createRestClient({ fetch: fake.fetch, root: '/wp-json/', nonce: null, nonceEndpoint: null });

  it('pages a request made by full url as it pages one made by path', async () => {
    const fake = pagedServer(false);
    const all = await clientFor(fake)({ url: 'https://shop.test/wp-json/wp/v2/posts?per_page=-1' });
    expect(all).toEqual(ITEMS);
    expect(fake.calls.map((call) => call.url)).toEqual([
      'https://shop.test/wp-json/wp/v2/posts?per_page=100&_locale=user',
      'https://shop.test/wp-json/wp/v2/posts?per_page=100&_locale=user&page=2',
      'https://shop.test/wp-json/wp/v2/posts?per_page=100&_locale=user&page=3',
    ]);
  });

  it('sends a raw (parse: false) request and a POST as they are, once', async () => {
    const fake = pagedServer(true);
    const client = clientFor(fake);
    const raw = await client<Response>({ path: '/wp/v2/posts?per_page=-1', parse: false });
    expect(raw).toBeInstanceOf(Response);
    // The server's own answer to per_page=-1 (this fake reads it as pages of -1): the caller reads its headers.
    expect(raw.headers.get('x-wp-total')).toBe('250');
    await client({ path: '/wp/v2/posts?per_page=-1', method: 'POST', data: { title: 'x' } });
    expect(fake.calls.map((call) => [call.method, call.url])).toEqual([
      ['GET', '/wp-json/wp/v2/posts?per_page=-1&_locale=user'],
      ['POST', '/wp-json/wp/v2/posts?per_page=-1&_locale=user'],
    ]);
  });

  it('fails with fetch_error when the network fails while paging', async () => {
    const fake = createFakeFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(clientFor(fake)({ path: '/wp/v2/posts?per_page=-1' })).rejects.toMatchObject({
      code: 'fetch_error',
    });
  });

  it('adds nothing for a later page that answers something other than a list', async () => {
    for (const withLink of [true, false]) {
      const fake = createFakeFetch((call) => {
        const page = new URL(call.url, 'https://shop.test').searchParams.get('page') ?? '1';
        const headers: Record<string, string> = { 'X-WP-TotalPages': '2' };
        if (withLink && page === '1')
          headers.Link = '<https://shop.test/wp-json/wp/v2/posts?page=2>; rel="next"';
        return json(page === '1' ? [1, 2] : { unexpected: true }, { headers });
      });
      expect(await clientFor(fake)({ path: '/wp/v2/posts?per_page=-1' })).toEqual([1, 2]);
      expect(fake.calls).toHaveLength(2);
    }
  });
});
