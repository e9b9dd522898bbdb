import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BILLING_FORM } from '../../test-support/billingForm';
import { createTestApp, type TestApp } from '../../test-support/createTestApp';
import { processPacer } from './search/BuildPacer';

/*
 * The whole shop through HTTP: buildApp on a seeded demo catalog, driven with app.inject() as a browser would,
 * cookies carried from one response to the next.
 */

const HOST = 'shop.test';
const ORIGIN = `http://${HOST}`;
const MUG = 1021; // simple, 24 in stock, $18
const MUG_PAGE = '/product/cafe-au-lait-mug/';
const PAGE_SECTIONS = [
  'theme',
  'cart',
  'search',
  'swatches',
  'attribution',
  'stats',
  'consent',
  'rest',
  'i18n',
];

/** One visitor: a cookie jar and the requests it sends. */
class Visitor {
  cookies = new Map<string, string>();
  constructor(private readonly shop: TestApp) {}

  async request(options: InjectOptions & { form?: Record<string, string> }): Promise<LightMyRequestResponse> {
    const { form, headers, ...rest } = options;
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.shop.app.inject({
      ...rest,
      headers: {
        host: HOST,
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    for (const set of response.cookies as {
      name: string;
      value: string;
      expires?: Date;
      maxAge?: number;
    }[]) {
      const expired = set.maxAge === 0 || (set.expires !== undefined && set.expires.getTime() < Date.now());
      if (expired || set.value === '') this.cookies.delete(set.name);
      else this.cookies.set(set.name, set.value);
    }
    return response;
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }

  post(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request({ method: 'POST', url, form, headers });
  }

  async addToCart(productId: number, quantity = 1) {
    const response = await this.post('/?wc-ajax=add_to_cart', {
      product_id: String(productId),
      quantity: String(quantity),
    });
    expect(response.statusCode).toBe(200);
    return response;
  }
}

function shopSettings(html: string): Record<string, unknown> {
  const match = /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no #shop-settings in the page');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

function qtyNonceOf(html: string): string {
  const cart = shopSettings(html).cart as { qtyNonce: string | null };
  if (!cart.qtyNonce) throw new Error('no cart.qtyNonce in the page');
  return cart.qtyNonce;
}

function hiddenInput(html: string, name: string): string {
  const match = new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no hidden input ${name} in the page`);
  return match[1] ?? '';
}

describe('buildApp', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(async () => {
    await shop.close();
  });

  it('answers GET /healthz with {status: "ok"}, no dropped writes and no capped searches', async () => {
    const response = await shop.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      droppedWrites: { searchQueries: 0, searchCartAdds: 0, orderLinks: 0 },
      cappedWrites: { searchQueries: 0 },
      deferredRequests: 0,
      searchIndex: 'ready',
    });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('lets requests that arrive while the loop is busy wait their turn, answers each and counts them on /healthz', async () => {
    // A slice far shorter than one page render: of requests arriving together, only the first starts at once.
    const busy = await createTestApp({ settings: { server: { loopSliceMs: 0.001 } } });
    try {
      // Its search index built: while a build runs, turns give requests the build's share instead (BuildPacer).
      await vi.waitFor(() => expect(processPacer.requestSliceMs()).toBe(0), { timeout: 5000, interval: 20 });
      const pages = await Promise.all(
        ['/', MUG_PAGE, '/shop/', '/cart/', '/product-category/home/'].map((url) =>
          busy.app.inject({ method: 'GET', url, headers: { host: HOST } }),
        ),
      );
      expect(pages.map((page) => page.statusCode)).toEqual([200, 200, 200, 200, 200]);
      const health = (await busy.app.inject('/healthz')).json();
      expect(health.deferredRequests).toBeGreaterThanOrEqual(4);
    } finally {
      await busy.close();
    }
  });

  it('counts a dropped write on /healthz under its kind, and logs it at warn level without its values', async () => {
    const warn = vi.spyOn(shop.app.log, 'warn');
    try {
      // A write that can never land (not a busy database): given up at once.
      await shop.app.durableWrites.submit('searchCartAdds', async () => {
        throw Object.assign(new Error('FOREIGN KEY constraint failed for shopper@example.com'), {
          code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
        });
      });
      const body = (await shop.app.inject('/healthz')).json();
      expect(body.droppedWrites).toEqual({ searchQueries: 0, searchCartAdds: 1, orderLinks: 0 });
      expect(warn).toHaveBeenCalledWith(
        { kind: 'searchCartAdds', reason: 'failed', code: 'SQLITE_CONSTRAINT_FOREIGNKEY', dropped: 1 },
        'a write was dropped',
      );
      expect(JSON.stringify(warn.mock.calls)).not.toContain('shopper@example.com');
    } finally {
      warn.mockRestore();
    }
  });

  describe('pages', () => {
    it.each([
      '/',
      '/shop/',
      MUG_PAGE,
      '/product/washed-linen-shirt/',
      '/product-category/apparel/shirts/',
      '/product-category/home/',
      '/cart/',
      '/?s=linen&post_type=product',
    ])('%s renders with every settings section and a quantity nonce', async (url) => {
      const response = await new Visitor(shop).get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body.startsWith('<!doctype html>')).toBe(true);
      const settings = shopSettings(response.body);
      for (const section of PAGE_SECTIONS) expect(settings).toHaveProperty(section);
      expect(settings).not.toHaveProperty('server');
      expect(qtyNonceOf(response.body)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    });

    it('shows the product on its page', async () => {
      const response = await new Visitor(shop).get(MUG_PAGE);
      expect(response.body).toContain('Café au Lait Mug');
    });

    it('lists the products of a category and its subcategories', async () => {
      const response = await new Visitor(shop).get('/product-category/apparel/');
      expect(response.body).toContain('Washed Linen Shirt');
      expect(response.body).toContain('Cotton Chore Jacket');
      expect(response.body).not.toContain('Café au Lait Mug');
    });

    it.each([
      '/product/no-such-product/',
      '/no/such/path/',
      '/no-such-page/',
      '/product-category/apparel/bedding/',
    ])('%s is a 404 page', async (url) => {
      const response = await new Visitor(shop).get(url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('Page not found');
    });
  });

  describe('bad input is refused, never a 500', () => {
    it.each([
      ['/shop/page/abc/', 400],
      ['/shop/page/0/', 400],
      ['/shop/page/999/', 404],
      ['/shop/?orderby=<script>', 200],
      [`/?s=${'x'.repeat(500)}`, 400],
      ['/product/%E0%A4%A/', 400],
      ['/checkout/order-received/abc/', 400],
      ['/checkout/order-received/1/?key=nope', 404],
      ['/images/abc.svg', 400],
      ['/images/999999.svg', 404],
    ])('GET %s → %i', async (url, status) => {
      const response = await new Visitor(shop).get(url);
      expect(response.statusCode).toBe(status);
      expect(response.body).not.toContain('<script>');
    });

    it('falls back to the default ordering for an unknown orderby', async () => {
      const fallback = await new Visitor(shop).get('/shop/?orderby=<script>');
      const plain = await new Visitor(shop).get('/shop/');
      expect(fallback.statusCode).toBe(200);
      const cards = (html: string) =>
        [...html.matchAll(/class="product-card__title">([^<]+)</g)].map((m) => m[1]);
      expect(cards(fallback.body)).toHaveLength(12);
      expect(cards(fallback.body)).toEqual(cards(plain.body));
    });

    it.each([
      [{ 'add-to-cart': '999999' }, 404],
      [{ 'add-to-cart': 'abc' }, 400],
      [{ 'add-to-cart': String(MUG), quantity: '-1' }, 400],
      [{ 'add-to-cart': String(MUG), quantity: '99999999' }, 400],
      [{ 'add-to-cart': String(MUG), quantity: '1.5' }, 400],
      [{ 'add-to-cart': String(MUG), quantity: '0' }, 400],
    ])('POST /cart/ %j → %i', async (form, status) => {
      const visitor = new Visitor(shop);
      const response = await visitor.post('/cart/', form);
      expect(response.statusCode).toBe(status);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(visitor.cookies.has('woocommerce_items_in_cart')).toBe(false);
    });

    it('POST /?wc-ajax=add_to_cart with product_id=abc → 400 {code, message}', async () => {
      const response = await new Visitor(shop).post('/?wc-ajax=add_to_cart', { product_id: 'abc' });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.json();
      expect(body).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
      // A sentence naming the field for people; the field's own name for scripts.
      expect(body.message).toBe('Product id must be a number.');
      expect(body.data.fields).toHaveProperty('product_id');
    });

    it('POST /?wc-ajax=add_to_cart for an unknown product → 404 JSON', async () => {
      const response = await new Visitor(shop).post('/?wc-ajax=add_to_cart', { product_id: '999999' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'product_not_found' });
    });

    it('an unknown wc-ajax endpoint → 400 JSON', async () => {
      const visitor = new Visitor(shop);
      for (const response of [
        await visitor.get('/?wc-ajax=unknown'),
        await visitor.post('/?wc-ajax=unknown', {}),
      ]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({
          code: 'invalid_request',
          message: expect.stringContaining('unknown'),
        });
      }
    });

    it('GET of a POST-only wc-ajax endpoint → 400 JSON', async () => {
      const response = await new Visitor(shop).get(`/?wc-ajax=add_to_cart&product_id=${MUG}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request' });
    });

    it('POST /ajax without an action → 400 JSON', async () => {
      const response = await new Visitor(shop).post('/ajax', {});
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request' });
    });
  });

  describe('the cart over ajax', () => {
    it('add_to_cart answers with fragments and sets the cart cookies and an HttpOnly session cookie', async () => {
      const visitor = new Visitor(shop);
      const response = await visitor.addToCart(MUG, 2);
      const body = response.json();
      expect(Object.keys(body.fragments).sort()).toEqual([
        'a.cart-contents',
        'div.widget_shopping_cart_content',
      ]);
      expect(body.fragments['div.widget_shopping_cart_content']).toContain('Café au Lait Mug');
      expect(body.cart_hash).toMatch(/^[0-9a-f]{32}$/);

      const cookies = response.cookies as {
        name: string;
        value: string;
        httpOnly?: boolean;
        path?: string;
      }[];
      const cookie = (name: string) => cookies.find((each) => each.name === name);
      expect(cookie('woocommerce_items_in_cart')).toMatchObject({ value: '1', path: '/' });
      expect(cookie('woocommerce_items_in_cart')?.httpOnly).toBeFalsy();
      expect(cookie('woocommerce_cart_hash')).toMatchObject({ value: body.cart_hash });
      expect(cookie('shop_session')).toMatchObject({ httpOnly: true, path: '/' });
      expect(cookie('shop_session')?.value).toMatch(/^[A-Za-z0-9_-]{32,64}$/);
    });

    it('keeps the cart in the session across requests', async () => {
      const visitor = new Visitor(shop);
      await visitor.addToCart(MUG);
      await visitor.addToCart(MUG);
      const fragments = await visitor.get('/?wc-ajax=get_refreshed_fragments');
      expect(fragments.statusCode).toBe(200);
      expect(fragments.json().fragments['a.cart-contents']).toContain('cart-contents__count">2<');
      const page = await visitor.get('/cart/');
      expect(page.body).toContain('Café au Lait Mug');
    });

    it('accepts add_to_cart from its own origin and refuses another origin with 403', async () => {
      const visitor = new Visitor(shop);
      const own = await visitor.request({
        method: 'POST',
        url: '/?wc-ajax=add_to_cart',
        form: { product_id: String(MUG) },
        headers: { origin: ORIGIN },
      });
      expect(own.statusCode).toBe(200);

      const stranger = new Visitor(shop);
      const evil = await stranger.request({
        method: 'POST',
        url: '/?wc-ajax=add_to_cart',
        form: { product_id: String(MUG) },
        headers: { origin: 'http://evil.example' },
      });
      expect(evil.statusCode).toBe(403);
      expect(evil.json()).toMatchObject({ code: 'cross_origin' });
      expect(stranger.cookies.size).toBe(0);
    });

    it('refuses a cross-site add-to-cart form post', async () => {
      const visitor = new Visitor(shop);
      const response = await visitor.post(
        '/cart/',
        { 'add-to-cart': String(MUG) },
        { 'sec-fetch-site': 'cross-site' },
      );
      expect(response.statusCode).toBe(403);
      // The refusal page may mint the visitor's session id for its nonces, but no session (no cart) is stored.
      const sessionId = visitor.cookies.get('shop_session') ?? '';
      expect(await shop.repositories.sessions.get(sessionId, Date.now())).toBeNull();
    });

    describe('set_cart_item_quantity', () => {
      let visitor: Visitor;
      let nonce: string;
      let key: string;
      beforeEach(async () => {
        visitor = new Visitor(shop);
        await visitor.addToCart(MUG);
        const page = await visitor.get('/cart/');
        nonce = qtyNonceOf(page.body);
        key = /name="cart\[([a-f0-9]{32})\]\[qty\]"/.exec(page.body)?.[1] ?? '';
        expect(key).not.toBe('');
      });

      const setQuantity = (form: Record<string, string>) =>
        visitor.post('/ajax', { action: 'set_cart_item_quantity', ...form });

      it('refuses a request without a nonce with 403 invalid_nonce', async () => {
        const response = await setQuantity({ hash: key, quantity: '2' });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: 'invalid_nonce' });
      });

      it("refuses another visitor's nonce", async () => {
        const other = new Visitor(shop);
        await other.addToCart(MUG);
        const otherNonce = qtyNonceOf((await other.get('/cart/')).body);
        const response = await setQuantity({ hash: key, quantity: '2', qtyNonce: otherNonce });
        expect(response.statusCode).toBe(403);
      });

      it('refuses an unknown hash with 400 unknown_cart_item', async () => {
        const response = await setQuantity({ hash: 'f'.repeat(32), quantity: '2', qtyNonce: nonce });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 'unknown_cart_item' });
      });

      it.each(['abc', '', '1.5', '-1', '10000'])(
        'refuses the quantity %j with 400 invalid_quantity',
        async (quantity) => {
          const response = await setQuantity({ hash: key, quantity, qtyNonce: nonce });
          expect(response.statusCode).toBe(400);
          expect(response.json()).toMatchObject({ code: 'invalid_quantity' });
        },
      );

      it('sets a quantity within the stock', async () => {
        const response = await setQuantity({ hash: key, quantity: '3', qtyNonce: nonce });
        expect(response.statusCode).toBe(200);
        const body = response.json();
        expect(body).toMatchObject({ quantity: 3, cart_hash: expect.stringMatching(/^[0-9a-f]{32}$/) });
        expect(body).not.toHaveProperty('clamped');
        expect(visitor.cookies.get('woocommerce_cart_hash')).toBe(body.cart_hash);
      });

      it('clamps a quantity above the stock and says so', async () => {
        const response = await setQuantity({ hash: key, quantity: '500', qtyNonce: nonce });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ clamped: true, quantity: 24 });
      });

      it('removes the line at 0 and clears the cart cookies', async () => {
        const response = await setQuantity({ hash: key, quantity: '0', qtyNonce: nonce });
        expect(response.statusCode).toBe(200);
        expect(response.json()).toMatchObject({ quantity: 0, cart_hash: '' });
        expect(visitor.cookies.has('woocommerce_items_in_cart')).toBe(false);
      });
    });
  });

  describe('the cart page form', () => {
    it('adds a product and redirects to the cart with a notice', async () => {
      const visitor = new Visitor(shop);
      const response = await visitor.post('/cart/', { 'add-to-cart': String(MUG), quantity: '2' });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`/cart/?added=${MUG}`);
      const page = await visitor.get(response.headers.location as string);
      expect(page.body).toContain('has been added to your cart');
    });

    it('shows the product again with the reason when the choice is incomplete', async () => {
      const response = await new Visitor(shop).post('/cart/', { 'add-to-cart': '1001' });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('Washed Linen Shirt');
      expect(response.body).toContain('Please choose product options');
    });

    it('refuses an update without the cart nonce', async () => {
      const visitor = new Visitor(shop);
      await visitor.addToCart(MUG);
      const response = await visitor.post('/cart/', { update_cart: '1' });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('Your session has expired');
    });
  });
});

describe('checkout', () => {
  let shop: TestApp;
  beforeEach(async () => {
    shop = await createTestApp();
  });
  afterEach(async () => {
    await shop.close();
  });

  const orderCount = async () => (await shop.query<{ n: number }>('SELECT COUNT(*) AS n FROM orders'))[0]?.n;

  /** A visitor with two mugs in the cart, on the checkout page. */
  async function readyToCheckOut() {
    const visitor = new Visitor(shop);
    await visitor.addToCart(MUG, 2);
    const page = await visitor.get('/checkout/');
    expect(page.statusCode).toBe(200);
    return {
      visitor,
      nonce: hiddenInput(page.body, '_wpnonce'),
      cartHash: hiddenInput(page.body, 'cart_hash'),
    };
  }

  it('redirects an empty cart from the checkout to the cart', async () => {
    const response = await new Visitor(shop).get('/checkout/');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/cart/');
  });

  it('places the order, takes the stock, empties the cart and shows the order', async () => {
    const { visitor, nonce, cartHash } = await readyToCheckOut();
    expect(cartHash).toMatch(/^[0-9a-f]{32}$/);

    const response = await visitor.post('/checkout/', {
      ...BILLING_FORM,
      _wpnonce: nonce,
      cart_hash: cartHash,
    });
    expect(response.statusCode).toBe(303);
    const location = response.headers.location as string;
    const match = /^\/checkout\/order-received\/(\d+)\/\?key=([^&]+)$/.exec(location);
    expect(match).not.toBeNull();
    const orderId = Number(match?.[1]);

    const order = await shop.repositories.orders.getOrder(orderId);
    expect(order).toMatchObject({
      id: orderId,
      orderKey: decodeURIComponent(match?.[2] ?? ''),
      status: 'processing',
      currency: 'USD',
      paymentMethod: 'cod',
      subtotal: 3600,
      total: 3600,
      billing: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', country: 'US' },
    });
    expect(order?.lines).toEqual([
      expect.objectContaining({
        productId: MUG,
        variationId: null,
        name: 'Café au Lait Mug',
        sku: 'DEMO-CAFE-MUG',
        quantity: 2,
        unitPrice: 1800,
        lineTotal: 3600,
      }),
    ]);
    expect(await orderCount()).toBe(1);

    const mug = await shop.repositories.catalog.getProductById(MUG);
    expect(mug?.stockQuantity).toBe(22);
    expect(mug?.totalSales).toBeGreaterThanOrEqual(2);

    expect(visitor.cookies.has('woocommerce_items_in_cart')).toBe(false);
    expect(visitor.cookies.has('woocommerce_cart_hash')).toBe(false);
    const fragments = await visitor.get('/?wc-ajax=get_refreshed_fragments');
    expect(fragments.json().cart_hash).toBe('');
    const again = await visitor.get('/checkout/');
    expect(again.statusCode).toBe(303);

    const received = await visitor.get(location);
    expect(received.statusCode).toBe(200);
    expect(received.body).toContain('Café au Lait Mug');
    const wrongKey = await visitor.get(`/checkout/order-received/${orderId}/?key=wc_order_wrong`);
    expect(wrongKey.statusCode).toBe(404);
    const noKey = await visitor.get(`/checkout/order-received/${orderId}/`);
    expect(noKey.statusCode).toBe(404);
  });

  it.each(['not-an-email', 'mailto:a@b.co'])(
    'refuses the email %j with a 400 page and writes no order',
    async (email) => {
      const { visitor, nonce, cartHash } = await readyToCheckOut();
      const response = await visitor.post('/checkout/', {
        ...BILLING_FORM,
        billing_email: email,
        _wpnonce: nonce,
        cart_hash: cartHash,
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('valid email');
      expect(await orderCount()).toBe(0);
      expect(await shop.repositories.orders.getOrder(1)).toBeNull();
      expect((await shop.repositories.catalog.getProductById(MUG))?.stockQuantity).toBe(24);
      expect(visitor.cookies.get('woocommerce_items_in_cart')).toBe('1');
    },
  );

  it('names every empty required field', async () => {
    const { visitor, nonce, cartHash } = await readyToCheckOut();
    // What a browser sends for an untouched form: every field, empty.
    const empty = Object.fromEntries(Object.keys(BILLING_FORM).map((name) => [name, '']));
    const response = await visitor.post('/checkout/', { ...empty, _wpnonce: nonce, cart_hash: cartHash });
    expect(response.statusCode).toBe(400);
    for (const message of [
      'First name is required.',
      'Last name is required.',
      'Please choose a country.',
      'Street address is required.',
      'Town / City is required.',
      'Postcode / ZIP is required.',
      'Phone is required.',
      'Email address is required.',
    ]) {
      expect(response.body).toContain(message);
    }
    expect(await orderCount()).toBe(0);
  });

  it('refuses a form without the billing fields with 400 and writes no order', async () => {
    const { visitor, nonce, cartHash } = await readyToCheckOut();
    const response = await visitor.post('/checkout/', { _wpnonce: nonce, cart_hash: cartHash });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('First name is required.');
    expect(await orderCount()).toBe(0);
  });

  it('refuses a wrong nonce with 403 and writes no order', async () => {
    const { visitor, cartHash } = await readyToCheckOut();
    const response = await visitor.post('/checkout/', {
      ...BILLING_FORM,
      _wpnonce: 'A'.repeat(22),
      cart_hash: cartHash,
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('Your session has expired');
    expect(await orderCount()).toBe(0);
  });

  it("refuses another visitor's nonce", async () => {
    const { visitor, cartHash } = await readyToCheckOut();
    const { nonce: otherNonce } = await readyToCheckOut();
    const response = await visitor.post('/checkout/', {
      ...BILLING_FORM,
      _wpnonce: otherNonce,
      cart_hash: cartHash,
    });
    expect(response.statusCode).toBe(403);
    expect(await orderCount()).toBe(0);
  });

  it('refuses a checkout whose cart changed since the page was shown, with 409', async () => {
    const { visitor, nonce, cartHash } = await readyToCheckOut();
    await visitor.addToCart(MUG);
    const response = await visitor.post('/checkout/', {
      ...BILLING_FORM,
      _wpnonce: nonce,
      cart_hash: cartHash,
    });
    expect(response.statusCode).toBe(409);
    expect(await orderCount()).toBe(0);
  });

  it('refuses a checkout with an empty cart', async () => {
    const response = await new Visitor(shop).post('/checkout/', { ...BILLING_FORM, _wpnonce: 'x' });
    expect(response.statusCode).toBe(400);
    expect(await orderCount()).toBe(0);
  });
});
