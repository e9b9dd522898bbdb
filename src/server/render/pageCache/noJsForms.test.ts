import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { Shopper } from '../../../../test-support/shopper';
import { SESSION_COOKIE } from '../../session/VisitorSession';

/*
 * The forms of a cached page without JavaScript: the shared page carries no nonce (nothing of a visitor is cached)
 * and no script fetches one, so the first send arrives without it. It is shown again, to this visitor only, with the
 * visitor's own nonce and what was typed, and a plain sentence asking to send once more; the second send goes
 * through. Still a nonce per visitor: a forged one is refused the same way, and nothing is stored before it.
 */

const CUPS = 1023;
const CUPS_URL = '/product/espresso-cup-pair/';
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { server: { pageCache: { maxBytes: 64 * 1024 * 1024 } } } });
});
afterAll(async () => shop?.close());

const nonceOf = (html: string, action: string) =>
  html.match(new RegExp(`name="_wpnonce" value="([^"]*)" data-nonce-action="${action}"`))?.[1] ??
  html.match(new RegExp(`data-nonce-action="${action}" name="_wpnonce" value="([^"]*)"`))?.[1];

describe('no-JavaScript forms on a cached page', () => {
  it('back in stock: the first send is shown again with the visitor’s nonce and the address kept; the second subscribes', async () => {
    const visitor = new Shopper();
    await visitor.send(shop.app, 'GET', CUPS_URL);
    const cached = await visitor.send(shop.app, 'GET', CUPS_URL);
    expect(cached.headers['x-shop-cache']).toBe('hit');
    expect(nonceOf(cached.body, 'stock_alert')).toBe('');
    expect(visitor.cookies.get(SESSION_COOKIE)).toBeUndefined();

    const first = await visitor.send(shop.app, 'POST', '/back-in-stock/', {
      _wpnonce: '',
      page_id: String(CUPS),
      product_id: String(CUPS),
      email: 'nojs@example.com',
    });
    expect(first.statusCode).toBe(403);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.body).toContain('role="alert"');
    expect(first.body).toContain('please press “Notify me” once more');
    expect(first.body).toMatch(/name="email"[^>]*value="nojs@example.com"/);
    const nonce = nonceOf(first.body, 'stock_alert');
    expect(nonce).toBeTruthy();
    expect(visitor.cookies.get(SESSION_COOKIE)).toBeTruthy();
    expect(await shop.query('SELECT id FROM stock_alerts')).toHaveLength(0);

    const second = await visitor.send(shop.app, 'POST', '/back-in-stock/', {
      _wpnonce: nonce as string,
      page_id: String(CUPS),
      product_id: String(CUPS),
      email: 'nojs@example.com',
    });
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(`${CUPS_URL}?stock-alert=subscribed#back-in-stock`);
    expect(await shop.query('SELECT id FROM stock_alerts')).toHaveLength(1);

    // The page shown again was this visitor's alone: the cached page is still the shared one, without a nonce.
    const after = await new Shopper().send(shop.app, 'GET', CUPS_URL);
    expect(after.headers['x-shop-cache']).toBe('hit');
    expect(after.body).toBe(cached.body);
  });

  it('a nonce of another visitor is refused the same way, storing nothing', async () => {
    const other = new Shopper();
    const shown = await other.send(shop.app, 'POST', '/back-in-stock/', {
      _wpnonce: '',
      product_id: String(CUPS),
      email: 'other@example.com',
    });
    const othersNonce = nonceOf(shown.body, 'stock_alert') as string;
    expect(othersNonce).toBeTruthy();
    const before = (await shop.query('SELECT id FROM stock_alerts')).length;
    const stranger = await new Shopper().send(shop.app, 'POST', '/back-in-stock/', {
      _wpnonce: othersNonce,
      product_id: String(CUPS),
      email: 'stranger@example.com',
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.body).toContain('please press “Notify me” once more');
    expect(await shop.query('SELECT id FROM stock_alerts')).toHaveLength(before);
  });

  it('a review: the first send is shown again with the text kept; the second is taken', async () => {
    const visitor = new Shopper();
    await visitor.send(shop.app, 'GET', CUPS_URL);
    const cached = await visitor.send(shop.app, 'GET', CUPS_URL);
    expect(cached.headers['x-shop-cache']).toBe('hit');
    const review = {
      rating: '5',
      reviewer: 'No Script Sam',
      email: 'sam@example.com',
      content: 'Written without JavaScript.',
    };
    const first = await visitor.send(shop.app, 'POST', `${CUPS_URL}review`, { ...review, _wpnonce: '' });
    expect(first.statusCode).toBe(403);
    expect(first.body).toContain('please press “Submit review” once more');
    expect(first.body).toContain('Written without JavaScript.');
    const nonce = nonceOf(first.body, 'product_review');
    expect(nonce).toBeTruthy();
    const second = await visitor.send(shop.app, 'POST', `${CUPS_URL}review`, {
      ...review,
      _wpnonce: nonce as string,
    });
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toMatch(/\?review=\w+#reviews$/);
  });
});
