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
