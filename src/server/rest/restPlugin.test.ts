import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test-support/createTestApp';
import { createNonce } from '../security/nonces';
import { SESSION_COOKIE } from '../session/VisitorSession';
import { isComingSoonBannerDismissed } from './comingSoonBanner';

const HOST = 'shop.test';
let shop: TestApp;
const POSTS = 23;

beforeAll(async () => {
  shop = await createTestApp();
  // More posts than the demo has, so lists span pages; ids from 5000 up, one day apart.
  const insert =
    'INSERT INTO posts (id, type, slug, title, excerpt, content, published_at) VALUES (?, ?, ?, ?, ?, ?, ?)';
  for (let index = 0; index < POSTS; index++) {
    const day = String(1 + index).padStart(2, '0');
    await shop.query(insert, [
      5000 + index,
      'post',
      `note-${index}`,
      `Note ${index}${index % 5 === 0 ? ' about wool' : ''}`,
      'Excerpt',
      '<p>Body</p>',
      `2020-01-${day}T00:00:00Z`,
    ]);
  }
});
afterAll(async () => shop.close());

/** A visitor whose session id was minted for a page's nonce (a cookie, no stored session yet). */
const VISITOR = 'visitor-session-id-0123456789abcdef';
const asVisitor = { cookie: `${SESSION_COOKIE}=${VISITOR}` };
const restNonce = (sessionId = VISITOR) => shop.app.nonces.create('wp_rest', sessionId);
const get = (url: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });

describe('wp/v2/posts and pages', () => {
  it('lists posts newest first with WordPress pagination headers and Link next/prev', async () => {
    const total = (await shop.repositories.posts.listPage({ type: 'post', page: 1, perPage: 100 })).total;
    const response = await get('/wp-json/wp/v2/posts?per_page=10&page=2&_locale=user');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-wp-total']).toBe(String(total));
    expect(response.headers['x-wp-totalpages']).toBe(String(Math.ceil(total / 10)));
    const link = String(response.headers.link);
    expect(link).toContain(
      `<http://${HOST}/wp-json/wp/v2/posts?per_page=10&page=3&_locale=user>; rel="next"`,
    );
    expect(link).toContain('page=1&_locale=user>; rel="prev"');
    const items = response.json() as {
      id: number;
      date: string;
      type: string;
      title: { rendered: string };
    }[];
    expect(items).toHaveLength(10);
    expect(items.every((item) => item.type === 'post')).toBe(true);
    const dates = items.map((item) => item.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('has no next link on the last page', async () => {
    const first = await get('/wp-json/wp/v2/posts?per_page=100');
    expect(String(first.headers.link ?? '')).not.toContain('rel="next"');
    expect(first.json()).toHaveLength(Number(first.headers['x-wp-total']));
  });

  it('keeps only the _fields asked for, nested ones too', async () => {
    const response = await get('/wp-json/wp/v2/posts?per_page=2&_fields=id,title.rendered');
    const items = response.json() as Record<string, unknown>[];
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['id', 'title']);
      expect(Object.keys(item.title as object)).toEqual(['rendered']);
    }
  });

  it('searches titles and content', async () => {
    const response = await get('/wp-json/wp/v2/posts?search=about%20wool&per_page=100');
    const titles = (response.json() as { title: { rendered: string } }[]).map((item) => item.title.rendered);
    expect(titles.length).toBe(Math.ceil(POSTS / 5));
    expect(titles.every((title) => title.includes('about wool'))).toBe(true);
  });

  it('answers single posts and pages by id, and 404 for the other type', async () => {
    const post = await get('/wp-json/wp/v2/posts/5003');
    expect(post.statusCode).toBe(200);
    expect(post.json()).toMatchObject({ id: 5003, slug: 'note-3', link: `http://${HOST}/note-3/` });
    const asPage = await get('/wp-json/wp/v2/pages/5003');
    expect(asPage.statusCode).toBe(404);
    expect(asPage.json()).toMatchObject({ code: 'rest_post_invalid_id', data: { status: 404 } });
    const pages = await get('/wp-json/wp/v2/pages?per_page=100');
    expect(pages.statusCode).toBe(200);
    expect((pages.json() as { type: string }[]).every((item) => item.type === 'page')).toBe(true);
  });

  it('refuses per_page=1000, page=0 and a page past the end with clear errors', async () => {
    const tooMany = await get('/wp-json/wp/v2/posts?per_page=1000');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    expect(tooMany.json().message).toContain('per_page');
    expect((await get('/wp-json/wp/v2/posts?page=0')).json()).toMatchObject({ code: 'rest_invalid_param' });
    const past = await get('/wp-json/wp/v2/posts?page=99');
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ code: 'rest_post_invalid_page_number' });
  });

  it('answers a method the route lacks with rest_no_route, even through the override header', async () => {
    const deleted = await shop.app.inject({
      method: 'DELETE',
      url: '/wp-json/wp/v2/posts/5003',
      headers: { host: HOST, ...asVisitor, 'x-wp-nonce': restNonce() },
    });
    expect(deleted.statusCode).toBe(404);
    expect(deleted.json()).toMatchObject({ code: 'rest_no_route', data: { status: 404 } });
    const overridden = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/posts',
      headers: { host: HOST, ...asVisitor, 'x-wp-nonce': restNonce(), 'x-http-method-override': 'PUT' },
    });
    expect(overridden.json()).toMatchObject({ code: 'rest_no_route' });
  });
});

describe('index and nonces', () => {
  it('lists the namespaces and routes at /wp-json/', async () => {
    const response = await get('/wp-json/');
    expect(response.statusCode).toBe(200);
    const index = response.json() as { namespaces: string[]; routes: Record<string, { methods: string[] }> };
    expect(index.namespaces).toContain('wp/v2');
    expect(Object.keys(index.routes)).toEqual(
      expect.arrayContaining(['/wp/v2/posts', '/wp/v2/media', '/wp/v2/media/(?P<id>[^/]+)/post-process']),
    );
    expect(index.routes['/wp/v2/posts']?.methods).toEqual(['GET']);
    expect(index.routes['/wp/v2/media/(?P<id>[^/]+)']?.methods.sort()).toEqual(['DELETE', 'GET']);
  });

  it('answers a fresh nonce as text at the nonce endpoint, bound to the visitor session', async () => {
    const response = await get('/ajax?action=rest-nonce');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    const minted = response.cookies.find((each) => each.name === SESSION_COOKIE);
    expect(minted).toMatchObject({ httpOnly: true, path: '/' });
    expect(response.body).toBe(restNonce(minted?.value));
    expect((await get('/ajax?action=rest-nonce', asVisitor)).body).toBe(restNonce());
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('refuses a state change with a missing, forged or expired nonce with 403 rest_cookie_invalid_nonce', async () => {
    const expired = createNonce(TEST_SECRET, 'wp_rest', VISITOR, Date.now() - 48 * 60 * 60 * 1000);
    const otherAction = shop.app.nonces.create('set_cart_item_quantity', VISITOR);
    for (const nonce of [undefined, 'x'.repeat(22), expired, otherAction]) {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/wp-json/wp/v2/users/me',
        headers: { host: HOST, ...asVisitor, ...(nonce ? { 'x-wp-nonce': nonce } : {}) },
        payload: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        code: 'rest_cookie_invalid_nonce',
        message: 'Cookie check failed',
        data: { status: 403 },
      });
    }
    // A read needs no nonce, but one that is sent must be valid, as in WordPress.
    expect((await get('/wp-json/wp/v2/posts')).statusCode).toBe(200);
    expect((await get('/wp-json/wp/v2/posts', { ...asVisitor, 'x-wp-nonce': expired })).statusCode).toBe(403);
  });

  it('reports malformed JSON as rest_invalid_json', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/users/me',
      headers: { host: HOST, ...asVisitor, 'x-wp-nonce': restNonce(), 'content-type': 'application/json' },
      payload: '{"meta": {',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'rest_invalid_json', data: { status: 400 } });
  });
});

describe('coming-soon banner dismissal (wp/v2/users/me)', () => {
  it('stores the meta for the visitor session, creating one, and isComingSoonBannerDismissed reads it', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/users/me',
      headers: { host: HOST, ...asVisitor, 'x-wp-nonce': restNonce() },
      payload: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } });
    const cookie = response.cookies.find((each) => each.name === SESSION_COOKIE);
    expect(cookie?.value).toMatch(/^[\w-]{32,}$/);
    const sessionId = cookie?.value as string;

    const again = await get('/wp-json/wp/v2/users/me', { cookie: `${SESSION_COOKIE}=${sessionId}` });
    expect(again.json()).toMatchObject({ meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } });
    const stranger = await get('/wp-json/wp/v2/users/me');
    expect(stranger.json()).toMatchObject({ meta: { woocommerce_coming_soon_banner_dismissed: '' } });

    const fakeRequest = (id: string | null) => ({ visitor: { load: async () => (id ? { id } : null) } });
    expect(await isComingSoonBannerDismissed(fakeRequest(sessionId) as never, shop.repositories)).toBe(true);
    expect(await isComingSoonBannerDismissed(fakeRequest(null) as never, shop.repositories)).toBe(false);
  });

  it('forgets the dismissal with the session', async () => {
    const visitor = 'another-visitor-session-0123456789';
    const response = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/users/me',
      headers: { host: HOST, cookie: `${SESSION_COOKIE}=${visitor}`, 'x-wp-nonce': restNonce(visitor) },
      payload: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
    });
    const sessionId = response.cookies.find((each) => each.name === SESSION_COOKIE)?.value as string;
    expect(
      await shop.repositories.visitorMeta.get(sessionId, 'woocommerce_coming_soon_banner_dismissed'),
    ).toBe('yes');
    await shop.repositories.sessions.deleteExpired(Date.now() + 365 * 24 * 60 * 60 * 1000);
    expect(
      await shop.repositories.visitorMeta.get(sessionId, 'woocommerce_coming_soon_banner_dismissed'),
    ).toBeNull();
  });

  it('accepts the dismissal as PUT through X-HTTP-Method-Override and rejects unknown meta', async () => {
    const overridden = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/users/me',
      headers: { host: HOST, ...asVisitor, 'x-wp-nonce': restNonce(), 'x-http-method-override': 'PUT' },
      payload: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
    });
    expect(overridden.statusCode).toBe(200);
    const unknown = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/users/me',
      headers: { host: HOST, ...asVisitor, 'x-wp-nonce': restNonce() },
      payload: { meta: { first_name: 'Mallory' } },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'rest_invalid_param' });
  });
});
