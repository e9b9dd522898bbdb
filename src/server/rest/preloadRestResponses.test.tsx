import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { createFakeFetch } from '../../client/rest/createFakeFetch';
import { createRestClient } from '../../client/rest/createRestClient';
import { readPreloadedResponses } from '../../client/rest/readPreloadedResponses';
import { preloadRestResponses, RestPreloadScript } from './preloadRestResponses';

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => shop.close());

const visitorRequest = { headers: { host: 'shop.test' } } as never;

describe('preloadRestResponses', () => {
  it('answers REST paths in-process with their pagination headers, leaving failures out', async () => {
    const preloaded = await preloadRestResponses(shop.app, visitorRequest, [
      '/wp/v2/posts?per_page=1',
      '/wp/v2/posts?per_page=1000',
    ]);
    expect(Object.keys(preloaded)).toEqual(['/wp/v2/posts?per_page=1']);
    const entry = preloaded['/wp/v2/posts?per_page=1'];
    expect(entry?.body).toHaveLength(1);
    expect(Number(entry?.headers?.['x-wp-total'])).toBeGreaterThan(1);
    expect(entry?.headers?.link).toContain('rel="next"');
  });

  it('round-trips through the page script into the client, which then needs no request', async () => {
    const preloaded = await preloadRestResponses(shop.app, visitorRequest, ['/wp/v2/pages?per_page=2']);
    // A title that tries to close the script stays inside it.
    const tricky = { ...preloaded, '/x': { body: '</script><script>alert(1)</script>' } };
    const html = renderToStaticMarkup(<RestPreloadScript responses={tricky} />);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const json = html.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, '');
    const fakeDocument = {
      getElementById: (id: string) => (id === 'shop-rest-preload' ? { textContent: json } : null),
    };
    const fake = createFakeFetch(() => {
      throw new Error('no request expected');
    });
    const client = createRestClient({
      fetch: fake.fetch,
      root: '/wp-json/',
      nonce: null,
      nonceEndpoint: null,
      preloaded: readPreloadedResponses(fakeDocument as never),
    });
    expect(await client({ path: '/wp/v2/pages?per_page=2' })).toEqual(
      preloaded['/wp/v2/pages?per_page=2']?.body,
    );
    expect(await client({ path: '/x' })).toBe('</script><script>alert(1)</script>');
    expect(fake.calls).toHaveLength(0);
  });

  it('reads nothing from a page without the script or with broken JSON', () => {
    expect(readPreloadedResponses({ getElementById: () => null } as never)).toEqual({});
    expect(readPreloadedResponses({ getElementById: () => ({ textContent: '{' }) } as never)).toEqual({});
  });
});
