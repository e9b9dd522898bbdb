// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRestAwareFetch, isRestUrl } from './shopRestClient';

const REST = {
  root: '/wp-json/',
  nonce: 'page-nonce',
  nonceEndpoint: '/ajax?action=rest-nonce',
  maxUploadBytes: 1,
};

describe('isRestUrl', () => {
  it('tells addresses under the REST root from the rest', () => {
    const base = 'https://shop.test/shop/';
    expect(isRestUrl('/wp-json/stats/v1/hit', '/wp-json/', base)).toBe(true);
    expect(isRestUrl('https://shop.test/wp-json/wp/v2/users/me', '/wp-json/', base)).toBe(true);
    expect(isRestUrl('/ajax', '/wp-json/', base)).toBe(false);
    expect(isRestUrl('https://elsewhere.test/wp-json/x', '/wp-json/', base)).toBe(false);
    expect(isRestUrl('/?rest_route=/stats/v1/hit', '/?rest_route=/', base)).toBe(true);
    expect(isRestUrl('/?wc-ajax=add_to_cart', '/?rest_route=/', base)).toBe(false);
    // Under a root with a query, only the root's own path carries REST routes.
    expect(isRestUrl('/shop/?rest_route=/stats/v1/hit', '/?rest_route=/', base)).toBe(false);
  });
});

describe('createRestAwareFetch', () => {
  let network: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    network = vi.fn();
    vi.stubGlobal('fetch', network);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends other addresses as they are', async () => {
    network.mockResolvedValue(new Response('ok'));
    const init = { method: 'POST', body: 'a=1', keepalive: true };
    await createRestAwareFetch(REST)('/ajax', init);
    expect(network).toHaveBeenCalledWith('/ajax', init);
  });

  it('sends REST addresses through the client, and answers an error status as a Response like fetch', async () => {
    network.mockResolvedValue(new Response('{"status":true}', { status: 200 }));
    const restFetch = createRestAwareFetch(REST);
    const response = await restFetch('/wp-json/stats/v1/hit', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'referred=x',
    });
    expect(await response.json()).toEqual({ status: true });
    const [url, init] = network.mock.calls[0] as [string, RequestInit];
    expect(new URL(url, 'https://shop.test').searchParams.get('_locale')).toBe('user');
    expect((init.headers as Record<string, string>)['X-WP-Nonce']).toBe('page-nonce');
    expect(init.body).toBe('referred=x');

    network.mockResolvedValue(new Response('{"code":"x","message":"no"}', { status: 500 }));
    expect((await restFetch('/wp-json/stats/v1/hit', { method: 'POST' })).status).toBe(500);
    network.mockRejectedValue(new TypeError('offline'));
    await expect(restFetch('/wp-json/stats/v1/hit', { method: 'POST' })).rejects.toThrow(TypeError);
  });
});
