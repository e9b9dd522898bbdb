import { describe, expect, it } from 'vitest';
import { createFakeFetch, json } from './createFakeFetch';
import { createNonceMiddleware } from './createNonceMiddleware';
import { createRestClient } from './createRestClient';
import { RestError } from './RestError';

const invalidNonce = () =>
  json(
    { code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed', data: { status: 403 } },
    { status: 403 },
  );

function clientWith(answer: Parameters<typeof createFakeFetch>[0], nonceEndpoint: string | null = '/nonce') {
  const fake = createFakeFetch(answer);
  const client = createRestClient({ fetch: fake.fetch, root: '/wp-json/', nonce: 'old', nonceEndpoint });
  return { client, calls: fake.calls };
}

describe('nonce middleware', () => {
  it('sends the nonce as X-WP-Nonce, and keeps a nonce the request brings', async () => {
    const { client, calls } = clientWith(() => json({}));
    await client({ path: '/wp/v2/posts' });
    await client({ path: '/wp/v2/posts', headers: { 'x-wp-nonce': 'mine' } });
    expect(calls[0]?.headers['X-WP-Nonce']).toBe('old');
    expect(calls[1]?.headers['x-wp-nonce']).toBe('mine');
    expect(calls[1]?.headers['X-WP-Nonce']).toBeUndefined();
  });

  it('on rest_cookie_invalid_nonce refetches the nonce and retries once with it, then keeps it', async () => {
    const { client, calls } = clientWith((call) => {
      if (call.url === '/nonce') return new Response('fresh\n');
      return call.headers['X-WP-Nonce'] === 'fresh' ? json({ ok: true }) : invalidNonce();
    });
    await expect(client({ path: '/wp/v2/users/me', method: 'POST', data: { a: 1 } })).resolves.toEqual({
      ok: true,
    });
    expect(calls.map((call) => [call.url, call.headers['X-WP-Nonce']])).toEqual([
      ['/wp-json/wp/v2/users/me?_locale=user', 'old'],
      ['/nonce', undefined],
      ['/wp-json/wp/v2/users/me?_locale=user', 'fresh'],
    ]);
    expect(calls[2]?.body).toEqual({ a: 1 });
    expect(client.nonceMiddleware.nonce).toBe('fresh');
    await client({ path: '/wp/v2/posts' });
    expect(calls[3]?.headers['X-WP-Nonce']).toBe('fresh');
  });

  it('retries exactly once: a second rejection is the caller’s error', async () => {
    const { client, calls } = clientWith((call) =>
      call.url === '/nonce' ? new Response('still-bad') : invalidNonce(),
    );
    const error = await client({ path: '/wp/v2/users/me', method: 'POST' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RestError);
    expect(error).toMatchObject({ code: 'rest_cookie_invalid_nonce', message: 'Cookie check failed' });
    expect(calls.filter((call) => call.url === '/nonce')).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it('shares one refresh between requests that fail together, and refreshes raw (parse: false) requests too', async () => {
    const { client, calls } = clientWith((call) => {
      if (call.url === '/nonce') return new Response('fresh');
      return call.headers['X-WP-Nonce'] === 'fresh' ? json([1]) : invalidNonce();
    });
    const [a, b, raw] = await Promise.all([
      client({ path: '/a' }),
      client({ path: '/b' }),
      client<Response>({ path: '/c', parse: false }),
    ]);
    expect([a, b]).toEqual([[1], [1]]);
    expect(raw.status).toBe(200);
    expect(calls.filter((call) => call.url === '/nonce')).toHaveLength(1);
  });

  it('does not refresh for other errors or without a nonce endpoint, nor hide a failing endpoint', async () => {
    const other = clientWith(() => json({ code: 'rest_forbidden', message: 'No' }, { status: 403 }));
    await expect(other.client({ path: '/x' })).rejects.toMatchObject({ code: 'rest_forbidden' });
    expect(other.calls).toHaveLength(1);
    const noEndpoint = clientWith(invalidNonce, null);
    await expect(noEndpoint.client({ path: '/x' })).rejects.toMatchObject({
      code: 'rest_cookie_invalid_nonce',
    });
    expect(noEndpoint.calls).toHaveLength(1);
    const brokenEndpoint = clientWith((call) =>
      call.url === '/nonce' ? new Response('', { status: 500 }) : invalidNonce(),
    );
    await expect(brokenEndpoint.client({ path: '/x' })).rejects.toMatchObject({
      code: 'rest_cookie_invalid_nonce',
    });
    expect(brokenEndpoint.calls).toHaveLength(2);
  });
});

describe('nonce middleware: which failures refresh, and what the retry carries', () => {
  it('replaces a nonce the request brought with the fresh one on the retry, keeping its other headers', async () => {
    const { client, calls } = clientWith((call) => {
      if (call.url === '/nonce') return new Response('fresh');
      return call.headers['X-WP-Nonce'] === 'fresh' ? json({ ok: true }) : invalidNonce();
    });
    await expect(
      client({ path: '/wp/v2/users/me', headers: { 'X-Wp-Nonce': 'stale-own', 'X-Custom': 'kept' } }),
    ).resolves.toEqual({ ok: true });
    expect(calls[0]?.headers).toMatchObject({ 'X-Wp-Nonce': 'stale-own', 'X-Custom': 'kept' });
    // One nonce header on the retry: a server reading either spelling must see the fresh nonce only.
    const retried = calls[2]?.headers ?? {};
    expect(Object.entries(retried).filter(([name]) => name.toLowerCase() === 'x-wp-nonce')).toEqual([
      ['X-WP-Nonce', 'fresh'],
    ]);
    expect(retried['X-Custom']).toBe('kept');
  });

  it('asks the nonce endpoint with the visitor’s cookies, whose session the fresh nonce must belong to', async () => {
    const inits: Array<[string, RequestInit | undefined]> = [];
    const fake = createFakeFetch((call) => {
      if (call.url === '/nonce') return new Response('fresh');
      return call.headers['X-WP-Nonce'] === 'fresh' ? json({ ok: true }) : invalidNonce();
    });
    const client = createRestClient({
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => {
        inits.push([String(input), init]);
        return fake.fetch(input, init);
      }) as typeof fetch,
      root: '/wp-json/',
      nonce: 'old',
      nonceEndpoint: '/nonce',
    });
    await client({ path: '/x' });
    expect(inits.find(([url]) => url === '/nonce')?.[1]?.credentials).toBe('include');
  });

  it('refreshes again when a later request finds the refreshed nonce expired too', async () => {
    let current = 'first';
    const { client, calls } = clientWith((call) => {
      if (call.url === '/nonce') return new Response(current);
      return call.headers['X-WP-Nonce'] === current ? json({ ok: current }) : invalidNonce();
    });
    await expect(client({ path: '/a' })).resolves.toEqual({ ok: 'first' });
    // The session changes again (a login, say): the nonce the client holds is no longer valid.
    current = 'second';
    await expect(client({ path: '/b' })).resolves.toEqual({ ok: 'second' });
    expect(calls.filter((call) => call.url === '/nonce')).toHaveLength(2);
  });

  it('refreshes raw requests only on a 403: any other raw failure is the caller’s Response, unread', async () => {
    const { client, calls } = clientWith(() =>
      json({ code: 'rest_cookie_invalid_nonce', message: 'proxy page' }, { status: 400 }),
    );
    const error = await client({ path: '/x', parse: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Response);
    expect((error as Response).status).toBe(400);
    expect(await (error as Response).json()).toMatchObject({ code: 'rest_cookie_invalid_nonce' });
    expect(calls).toHaveLength(1);
  });

  it('passes a raw 403 that is not JSON through as the Response, without a refresh', async () => {
    const { client, calls } = clientWith(() => new Response('<html>Forbidden</html>', { status: 403 }));
    const error = await client({ path: '/x', parse: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Response);
    expect(await (error as Response).text()).toBe('<html>Forbidden</html>');
    expect(calls).toHaveLength(1);
  });

  it('lets an abort and any other thrown value through unchanged, without a refresh', async () => {
    const middleware = createNonceMiddleware('old', {
      fetch: () => Promise.reject(new Error('no refresh expected')),
      nonceEndpoint: '/nonce',
    });
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    await expect(middleware({ path: '/x' }, () => Promise.reject(abort))).rejects.toBe(abort);
    // A theme's middleware may throw its own objects, with a status of their own.
    const own = { status: 403, code: 'rest_cookie_invalid_nonce' };
    await expect(middleware({ path: '/x' }, () => Promise.reject(own))).rejects.toBe(own);
  });
});
