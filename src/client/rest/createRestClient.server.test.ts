import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test-support/createTestApp';
import { ownerBearer, TEST_OWNER_TOKEN } from '../../../test-support/testOwner';
import { createNonce } from '../../server/security/nonces';
import { createRestClient } from './createRestClient';

/*
 * The browser's REST client against the real server, listening on a free port, through Node's fetch with a
 * cookie jar (what a browser's `credentials: 'include'` does).
 */

interface Shop {
  test: TestApp;
  origin: string;
}

async function startShop(server: object = {}): Promise<Shop> {
  const test = await createTestApp({
    seed: true,
    settings: { server: { ownerToken: TEST_OWNER_TOKEN, ...server } },
  });
  const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
  return { test, origin: address };
}

/** A browser-like fetch: keeps the cookies the server sets and counts requests by path. */
function browserFetch() {
  const cookies = new Map<string, string>();
  const requests: string[] = [];
  const fetchWithCookies = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    requests.push(`${init.method ?? 'GET'} ${url.pathname}${url.search}`);
    const headers = new Headers(init.headers);
    if (cookies.size > 0)
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }) as typeof fetch;
  return { fetch: fetchWithCookies, cookies, requests };
}

function clientFor(shop: Shop, nonce: string | null, browser = browserFetch()) {
  return {
    browser,
    rest: createRestClient({
      fetch: browser.fetch,
      root: `${shop.origin}/wp-json/`,
      nonce,
      nonceEndpoint: `${shop.origin}/ajax?action=rest-nonce`,
    }),
  };
}

/** A browser holding the owner's session cookie (the statistics' owner endpoint takes the token). */
async function ownerBrowser(target: Shop) {
  const browser = browserFetch();
  const response = await browser.fetch(`${target.origin}/wp-json/stats/v1/owner`, {
    method: 'POST',
    headers: ownerBearer,
  });
  expect(response.status).toBe(204);
  return browser;
}

function uploadedFiles(test: TestApp): string[] {
  const root = join(test.dataDir, 'uploads');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)],
    );
  return existsSync(root) ? walk(root) : [];
}

const photo = () =>
  sharp({ create: { width: 1200, height: 1600, channels: 3, background: '#3a6f8f' } })
    .jpeg()
    .toBuffer();

let shop: Shop;
let faulty: Shop;
beforeAll(async () => {
  [shop, faulty] = await Promise.all([startShop(), startShop({ testFaults: ['image-subsizes'] })]);
});
afterAll(async () => {
  await Promise.all([shop.test.close(), faulty.test.close()]);
});

describe('the REST client against the shop', () => {
  it('lists every post with per_page=-1 across pages of 100', async () => {
    for (let index = 0; index < 230; index++) {
      await shop.test.query('INSERT INTO posts (type, slug, title, published_at) VALUES (?, ?, ?, ?)', [
        'post',
        `bulk-${index}`,
        `Bulk ${index}`,
        new Date(Date.UTC(2019, 0, 1 + index)).toISOString(),
      ]);
    }
    const total =
      (await shop.test.query<{ n: number }>("SELECT COUNT(*) AS n FROM posts WHERE type = 'post'"))[0]?.n ??
      -1;
    const { rest, browser } = clientFor(shop, null);
    const posts = await rest<{ id: number; slug: string }[]>({
      path: '/wp/v2/posts?per_page=-1&_fields=id,slug',
    });
    expect(posts).toHaveLength(total);
    expect(new Set(posts.map((post) => post.id)).size).toBe(total);
    expect(Object.keys(posts[0] ?? {}).sort()).toEqual(['id', 'slug']);
    expect(browser.requests).toHaveLength(Math.ceil(total / 100));
    expect(
      browser.requests.every(
        (request) => request.includes('per_page=100') && request.includes('_locale=user'),
      ),
    ).toBe(true);
  });

  it('refreshes a nonce the server considers expired and retries, without the caller noticing', async () => {
    const expired = createNonce(TEST_SECRET, 'wp_rest', '', Date.now() - 36 * 60 * 60 * 1000);
    const { rest, browser } = clientFor(shop, expired);
    const me = await rest<{ meta: Record<string, string> }>({
      path: '/wp/v2/users/me',
      method: 'POST',
      data: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
    });
    expect(me.meta.woocommerce_coming_soon_banner_dismissed).toBe('yes');
    expect(browser.requests.map((request) => request.split('?')[0])).toEqual([
      'POST /wp-json/wp/v2/users/me',
      'GET /ajax',
      'POST /wp-json/wp/v2/users/me',
    ]);
    // The nonce endpoint minted the visitor's session id and the dismissal stored the session under it: the
    // refreshed nonce stays valid for the next change.
    expect(browser.cookies.has('shop_session')).toBe(true);
    const again = await rest({
      path: '/wp/v2/users/me',
      method: 'PUT',
      data: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
    });
    expect(again).toMatchObject({ meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } });
    expect(browser.requests.slice(3).map((request) => request.split('?')[0])).toEqual([
      'POST /wp-json/wp/v2/users/me',
    ]);
    expect(rest.nonceMiddleware.nonce).toBe(
      shop.test.app.nonces.create('wp_rest', browser.cookies.get('shop_session') ?? ''),
    );
  });

  it('uploads an image whose sub-sizes land on disk, and deletes it (as the owner)', async () => {
    const { rest } = clientFor(shop, null, await ownerBrowser(shop));
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await photo())], { type: 'image/jpeg' }),
      'Harbour at dusk.jpeg',
    );
    const media = await rest<{
      id: number;
      source_url: string;
      media_details: { sizes: Record<string, { width: number; height: number; source_url: string }> };
    }>({ path: '/wp/v2/media', method: 'POST', body: form });
    expect(media.source_url).toMatch(/\/harbour-at-dusk\.jpg$/);
    const sizes = media.media_details.sizes;
    expect(Object.keys(sizes).sort()).toEqual(['large', 'medium', 'thumbnail']);
    expect(sizes.large).toMatchObject({ width: 768, height: 1024 });
    for (const size of Object.values(sizes)) {
      const served = await fetch(size.source_url);
      expect(served.status).toBe(200);
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([size.width, size.height]);
    }
    expect(uploadedFiles(shop.test)).toHaveLength(4);

    const deleted = await rest({ path: `/wp/v2/media/${media.id}?force=true`, method: 'DELETE' });
    expect(deleted).toMatchObject({ deleted: true });
    expect(uploadedFiles(shop.test)).toHaveLength(0);
  });

  it('ends a post-process failure with the attachment deleted and the post_process error', async () => {
    const { rest, browser } = clientFor(faulty, null, await ownerBrowser(faulty));
    const error = await rest({
      path: '/wp/v2/media',
      method: 'POST',
      body: new Uint8Array(await photo()),
      headers: { 'Content-Type': 'image/jpeg', 'Content-Disposition': 'attachment; filename="too-big.jpg"' },
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'post_process',
      message:
        'Media upload failed. If this is a photo or a large image, please scale it down and try again.',
    });
    expect(browser.requests.map((request) => request.split('?')[0])).toEqual([
      'POST /wp-json/stats/v1/owner',
      'POST /wp-json/wp/v2/media',
      'GET /ajax',
      'POST /wp-json/wp/v2/media',
      ...Array(5).fill('POST /wp-json/wp/v2/media/1/post-process'),
      'POST /wp-json/wp/v2/media/1',
    ]);
    expect((await faulty.test.query<{ n: number }>('SELECT COUNT(*) AS n FROM media'))[0]?.n).toBe(0);
    expect(uploadedFiles(faulty.test)).toEqual([]);
  });

  it('reports the server’s own errors for bad input', async () => {
    const { rest, browser } = clientFor(shop, null);
    await expect(rest({ path: '/wp/v2/posts?per_page=1000' })).rejects.toMatchObject({
      code: 'rest_invalid_param',
      data: { status: 400 },
    });
    // Sent without a nonce, refused, given one by the nonce endpoint, retried: and then told the method is wrong.
    await expect(rest({ path: '/wp/v2/posts/1', method: 'DELETE' })).rejects.toMatchObject({
      code: 'rest_no_route',
      data: { status: 404 },
    });
    expect(rest.nonceMiddleware.nonce).toBe(
      shop.test.app.nonces.create('wp_rest', browser.cookies.get('shop_session') ?? ''),
    );
  });
});
