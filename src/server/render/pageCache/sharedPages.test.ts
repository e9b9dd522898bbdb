import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { demoCatalogWithHangerAt, HANGER_URL } from '../../../../test-support/demoCatalogEdits';
import { ownerBrowser } from '../../../../test-support/ownerBrowser';
import { productFormFields } from '../../../../test-support/productEditForm';
import { Shopper } from '../../../../test-support/shopper';
import { testOwnerServer } from '../../../../test-support/testOwner';
import { formValuesOf } from '../../admin/products/productForm';
import { SESSION_COOKIE } from '../../session/VisitorSession';

/*
 * The render cache as visitors meet it, on one process: the page every anonymous visitor gets is the same bytes,
 * carries nothing of any of them, and changes as soon as the catalog it shows changes. Across processes:
 * pageCacheProcesses.test.ts.
 */

const MUG = 1021;
const CANDLE = 1026;
const MUG_URL = '/product/cafe-au-lait-mug/';
const KITCHEN_URL = '/product-category/home/kitchen/';
const CACHE_ON = { server: { ...testOwnerServer, pageCache: { maxBytes: 64 * 1024 * 1024 } } };

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: CACHE_ON });
});
afterAll(async () => shop?.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  shop.app.inject({ method: 'GET', url, headers: { host: 'shop.test', ...headers } });

async function shopperWithCart(productId: number, quantity: number): Promise<Shopper> {
  const shopper = new Shopper();
  const added = await shopper.send(shop.app, 'POST', '/?wc-ajax=add_to_cart', {
    product_id: String(productId),
    quantity: String(quantity),
  });
  expect(added.statusCode).toBe(200);
  return shopper;
}

/** Waits until the anonymous page contains `text` (a change made outside this process's requests). */
async function untilPageShows(url: string, text: string) {
  await vi.waitFor(
    async () => {
      expect((await get(url)).body).toContain(text);
    },
    { timeout: 3_000, interval: 20 },
  );
}

describe('one page for every anonymous visitor', () => {
  it('gives two visitors with different carts byte-identical HTML, and each their own cart in the fragments', async () => {
    const ada = await shopperWithCart(MUG, 1);
    const bea = await shopperWithCart(CANDLE, 3);
    const adaPage = await ada.send(shop.app, 'GET', MUG_URL);
    const beaPage = await bea.send(shop.app, 'GET', MUG_URL);
    expect(adaPage.statusCode).toBe(200);
    expect(beaPage.rawPayload.equals(adaPage.rawPayload)).toBe(true);
    expect([adaPage.headers['x-shop-cache'], beaPage.headers['x-shop-cache']]).toContain('hit');
    expect(beaPage.headers.etag).toBe(adaPage.headers.etag);

    const fragments = async (shopper: Shopper) =>
      JSON.parse((await shopper.send(shop.app, 'POST', '/?wc-ajax=get_refreshed_fragments')).body) as {
        fragments: Record<string, string>;
      };
    const adaCart = (await fragments(ada)).fragments['div.widget_shopping_cart_content'];
    const beaCart = (await fragments(bea)).fragments['div.widget_shopping_cart_content'];
    expect(adaCart).toContain('Café au Lait Mug');
    expect(adaCart).not.toContain('Crème Fig Soy Candle');
    expect(beaCart).toContain('Crème Fig Soy Candle');
    expect(beaCart).not.toContain('Café au Lait Mug');
  });

  it('holds nothing of any visitor: no session id, no nonce, no cart, no cookie set', async () => {
    const ada = await shopperWithCart(MUG, 2);
    const session = ada.cookies.get(SESSION_COOKIE) as string;
    expect(session).toBeTruthy();
    for (const url of ['/', MUG_URL, KITCHEN_URL, '/?s=linen&post_type=product', '/shop/', '/journal/']) {
      const page = await ada.send(shop.app, 'GET', url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['set-cookie'], url).toBeUndefined();
      expect(page.headers['cache-control'], url).toMatch(
        /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/,
      );
      expect(page.body, url).not.toContain(session);
      for (const action of [
        'wp_rest',
        'set_cart_item_quantity',
        'product_review',
        'stock_alert',
        'post_password',
      ])
        expect(page.body, `${url} ${action}`).not.toContain(shop.app.nonces.create(action, session));
      const settings = JSON.parse(
        /<script id="shop-settings" type="application\/json">([^<]*)<\/script>/.exec(page.body)?.[1] ?? '{}',
      ) as { rest: { nonce: unknown }; cart: { qtyNonce: unknown } };
      expect(settings.rest.nonce, url).toBeNull();
      expect(settings.cart.qtyNonce, url).toBeNull();
      expect(page.body, url).not.toMatch(/name="_wpnonce" value="[^"]/);
      // The header's count and the mini-cart are the empty cart's; the fragments replace them in the browser.
      expect(page.body, url).toContain('No products in the cart.');
    }
    // A cookie-less visitor gets no session minted by a cached page.
    const fresh = await get(MUG_URL);
    expect(fresh.headers['set-cookie']).toBeUndefined();
  });

  it('sends the form nonce on request, with which the visitor’s review is accepted', async () => {
    const visitor = new Shopper();
    const page = await visitor.send(shop.app, 'GET', MUG_URL);
    expect(page.body).toContain(
      '<input type="hidden" data-nonce-action="product_review" name="_wpnonce" value=""/>',
    );
    const nonce = await visitor.send(shop.app, 'GET', '/ajax?action=form-nonce&for=product_review');
    expect(nonce.statusCode).toBe(200);
    expect(nonce.headers['cache-control']).toBe('private, no-store');
    const session = visitor.cookies.get(SESSION_COOKIE) as string;
    expect(nonce.body).toBe(shop.app.nonces.create('product_review', session));
    const sent = await visitor.send(shop.app, 'POST', `${MUG_URL}review`, {
      _wpnonce: nonce.body,
      rating: '4',
      reviewer: 'Cached Cat',
      email: 'cat@example.com',
      content: 'Sent from a cached page.',
    });
    expect(sent.statusCode).toBe(303);
    expect((await visitor.send(shop.app, 'GET', '/ajax?action=form-nonce&for=wp_rest')).statusCode).toBe(400);
  });
});

describe('what a cached page still does on every visit', () => {
  it('records the search of a results page answered from the cache, as when it was rendered', async () => {
    const url = '/?s=waxed%20tote&post_type=product';
    const first = await get(url, { 'user-agent': 'Visitor One' });
    const second = await get(url, { 'user-agent': 'Visitor Two' });
    expect(first.headers['x-shop-cache']).toBe('miss');
    expect(second.headers['x-shop-cache']).toBe('hit');
    await vi.waitFor(async () => {
      const rows = await shop.query<{ n: number }>(
        "SELECT COUNT(*) AS n FROM search_queries WHERE query = 'waxed tote' AND source = 'results'",
      );
      expect(Number(rows[0]?.n)).toBe(2);
    });
  });
});

describe('visitors asking for the same page at once', () => {
  /** Three visitors asking for `url` at the same moment: their answers, and how many times the product was read. */
  async function askedAtOnce(url: string) {
    const reads = vi.spyOn(shop.repositories.catalog, 'getProductBySlug');
    try {
      const pages = await Promise.all([get(url), get(url), get(url)]);
      return { pages, reads: reads.mock.calls.length };
    } finally {
      reads.mockRestore();
    }
  }

  it('renders it once: the others wait for that render and are answered from the cache', async () => {
    const { pages, reads } = await askedAtOnce('/product/speckled-stoneware-bowl/');
    expect(pages.map((page) => page.statusCode)).toEqual([200, 200, 200]);
    expect(reads).toBe(1);
    expect(pages.map((page) => page.headers['x-shop-cache']).sort()).toEqual(['hit', 'hit', 'miss']);
    expect(new Set(pages.map((page) => page.body)).size).toBe(1);
  });

  it('renders it for each of them when the first render is not stored (a page that is not found)', async () => {
    const { pages, reads } = await askedAtOnce('/product/no-such-product/');
    expect(pages.map((page) => page.statusCode)).toEqual([404, 404, 404]);
    expect(reads).toBe(3);
  });
});

describe('conditional and compressed answers', () => {
  it('answers 304 to a matching If-None-Match, and the page to another', async () => {
    const first = await get('/shop/');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await get('/shop/', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await get('/shop/', { 'if-none-match': 'W/"something-else"' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toBe(first.body);
  });

  it('sends the brotli or gzip copy the client accepts, each decoding to the same page', async () => {
    const plain = await get('/journal/');
    let br = plain;
    await vi.waitFor(async () => {
      br = await get('/journal/', { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
    });
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.headers.vary).toBe('accept-encoding');
    const gz = await get('/journal/', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
  });
});

describe('never cached', () => {
  it('keeps cart, checkout, back office and insights private, for a shopper and for the owner', async () => {
    const ada = await shopperWithCart(MUG, 1);
    const owner = await ownerBrowser(shop.app);
    for (const url of ['/cart/', '/checkout/', '/admin/', '/admin/orders/', '/insights/']) {
      for (const response of [
        await get(url),
        await ada.send(shop.app, 'GET', url),
        await ada.send(shop.app, 'GET', url),
        await owner.get(url),
      ]) {
        expect(response.headers['x-shop-cache'], url).toBeUndefined();
        expect(response.headers.etag, url).toBeUndefined();
        expect(response.headers['cache-control'], url).toMatch(/private|no-store/);
      }
    }
    // The owner's own visits of catalog pages are not shared either.
    const ownerPage = await owner.get(MUG_URL);
    expect(ownerPage.headers['x-shop-cache']).toBeUndefined();
    expect(ownerPage.headers['cache-control']).toBe('private, no-cache');
  });

  it('keeps a password-protected page out of the cache', async () => {
    const [post] = await shop.query<{ slug: string }>(
      'SELECT slug FROM posts WHERE password_hash IS NOT NULL LIMIT 1',
    );
    if (!post) throw new Error('The demo content has no protected page');
    const response = await get(`/${post.slug}/`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-shop-cache']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('private, no-cache');
  });
});

describe('a change shows at once, on exactly the pages it changes', () => {
  it('a price edit in the back office: the product, its category and the home page', async () => {
    for (const url of [MUG_URL, KITCHEN_URL, '/']) expect((await get(url)).body).not.toContain('77.77');
    const owner = await ownerBrowser(shop.app);
    const values = formValuesOf(await shop.repositories.catalog.getAdminProduct(MUG), 2);
    const markStale = vi.spyOn(shop.app.pageCache.changes, 'markStale');
    const saved = await owner.postForm(`/admin/products/${MUG}/`, `/admin/products/${MUG}/`, {
      ...productFormFields(values),
      regular_price: '77.77',
    });
    expect(saved.statusCode).toBe(303);
    // Written through this process: the version is read again by the very next request, which sees the change.
    expect(markStale).toHaveBeenCalled();
    markStale.mockRestore();
    for (const url of [MUG_URL, KITCHEN_URL, '/']) expect((await get(url)).body, url).toContain('77.77');
  });

  it('stock going to zero, written by another process', async () => {
    expect((await get(MUG_URL)).body).not.toContain('id="back-in-stock"');
    await shop.query("UPDATE products SET stock_quantity = 0, stock_status = 'outofstock' WHERE id = ?", [
      MUG,
    ]);
    await untilPageShows(MUG_URL, 'id="back-in-stock"');
  });

  it('a review approved by moderation', async () => {
    const CUPS_URL = '/product/espresso-cup-pair/';
    expect((await get(CUPS_URL)).body).toContain('Reviews (0)');
    const review = await shop.repositories.reviews.addReview({
      productId: 1023,
      rating: 5,
      reviewer: 'Moderated Mo',
      email: 'mo@example.com',
      content: 'Approved later.',
      status: 'pending',
    });
    await untilPageShows(CUPS_URL, 'Reviews (0)');
    if (!review) throw new Error('The review was not stored');
    await shop.repositories.reviews.setStatus(review.id, 'approved');
    await untilPageShows(CUPS_URL, 'Moderated Mo');
    expect((await get(CUPS_URL)).body).toContain('Reviews (1)');
  });

  it('an import', async () => {
    const edited = await demoCatalogWithHangerAt(shop.dataDir, '66.66');
    expect((await get(HANGER_URL)).body).not.toContain('66.66');
    await shop.repositories.catalog.importCatalog(edited);
    await untilPageShows(HANGER_URL, '66.66');
  });

  it('a settings change: another version, so no old page and no old ETag', async () => {
    const before = await get('/journal/');
    const renamed = await createTestApp({
      settings: { ...CACHE_ON, shop: { name: 'Renamed Shop' } },
    });
    try {
      const same = await createTestApp({ settings: CACHE_ON });
      try {
        const unchanged = await same.app.inject({
          method: 'GET',
          url: '/journal/',
          headers: { host: 'shop.test' },
        });
        expect(unchanged.headers.etag).toBe(before.headers.etag);
      } finally {
        await same.close();
      }
      const after = await renamed.app.inject({
        method: 'GET',
        url: '/journal/',
        headers: { host: 'shop.test', 'if-none-match': before.headers.etag as string },
      });
      expect(after.statusCode).toBe(200);
      expect(after.body).toContain('Renamed Shop');
    } finally {
      await renamed.close();
    }
  }, 60_000);
});
