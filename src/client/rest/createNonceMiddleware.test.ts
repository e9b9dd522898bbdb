import { describe, expect, it } from 'vitest';
import { createFakeFetch, json } from './createFakeFetch';
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
