import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import {
  ownerBearer,
  TEST_OWNER_PASSWORD,
  TEST_OWNER_TOKEN,
  testOwnerServer,
} from '../../../test-support/testOwner';
import { parseSettings } from '../../shared/settings/parseSettings';
import { SESSION_COOKIE } from '../session/VisitorSession';
import { ACCOUNT_BACKOFF, ADDRESS_BACKOFF } from './loginLimiter';
import { hashOwnerPassword, verifyOwnerPassword } from './ownerCredentials';
import { OWNER_COOKIE, OWNER_DEVICE_COOKIE } from './ownerPlugin';

/*
 * The owner's authentication over HTTP, the way an attacker meets it from one machine: media writes need the
 * owner (a shopper's nonce is not enough), nonces are per visitor, the login limiter holds against rotated
 * X-Forwarded-For, across processes and restarts, logout ends a copied cookie, cookies are Secure over HTTPS at a
 * trusted proxy, and weak credentials stop the start.
 */

const HOST = 'shop.test';
let shops: TestApp[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(shops.map((shop) => shop.close()));
  shops = [];
});

async function shopWith(server: object = {}, seed = true) {
  const shop = await createTestApp({ seed, settings: { server: { ...testOwnerServer, ...server } } });
  shops.push(shop);
  return shop;
}

type Response = Awaited<ReturnType<TestApp['app']['inject']>>;
const cookieOf = (response: Response, name: string) => response.cookies.find((each) => each.name === name);

/** A fresh visitor opens a page: the session id minted for it and the REST nonce the page carries. */
async function visitorPage(shop: TestApp, cookie?: string) {
  const page = await shop.app.inject({ url: '/', headers: { host: HOST, ...(cookie ? { cookie } : {}) } });
  const settings = JSON.parse(
    /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '{}',
  );
  const minted = cookieOf(page, SESSION_COOKIE)?.value;
  return { page, nonce: settings.rest.nonce as string, cookie: cookie ?? `${SESSION_COOKIE}=${minted}` };
}

/** The login form's nonce and the visitor cookie it is bound to. */
async function loginForm(shop: TestApp, headers: Record<string, string> = {}) {
  const page = await shop.app.inject({ url: '/admin/login?next=/insights/', headers });
  const nonce = /name="_wpnonce" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return { nonce, visitor: `${SESSION_COOKIE}=${cookieOf(page, SESSION_COOKIE)?.value}` };
}

async function login(
  shop: TestApp,
  password: string,
  options: { ip?: string; headers?: Record<string, string>; form?: { nonce: string; visitor: string } } = {},
) {
  const form = options.form ?? (await loginForm(shop));
  const extra = options.headers ?? {};
  return shop.app.inject({
    method: 'POST',
    url: '/admin/login',
    remoteAddress: options.ip ?? '198.51.100.7',
    headers: {
      ...extra,
      cookie: [form.visitor, extra.cookie].filter(Boolean).join('; '),
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams({ password, _wpnonce: form.nonce }).toString(),
  });
}

const photo = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c8844a' } })
    .jpeg()
    .toBuffer();

function uploadAs(shop: TestApp, headers: Record<string, string>, bytes: Buffer) {
  return shop.app.inject({
    method: 'POST',
    url: '/wp-json/wp/v2/media',
    headers: {
      host: HOST,
      'content-type': 'image/jpeg',
      'content-disposition': 'attachment; filename="owner.jpg"',
      ...headers,
    },
    payload: bytes,
  });
}

describe('media writes are the owner’s alone', () => {
  it('refuses upload, post-process and delete to a shopper holding a valid nonce (401), admits the owner', async () => {
    const shop = await shopWith({}, false);
    const shopper = await visitorPage(shop);
    expect(shopper.nonce).toMatch(/^[\w-]{22}$/);
    const asShopper = { cookie: shopper.cookie, 'x-wp-nonce': shopper.nonce };
    // The shopper's nonce is valid: a state change the shopper may make (the banner dismissal) passes.
    const dismissal = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/users/me',
      headers: { host: HOST, ...asShopper },
      payload: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
    });
    expect(dismissal.statusCode).toBe(200);

    const bytes = await photo();
    const refused = await uploadAs(shop, asShopper, bytes);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'unauthorized' });

    const owned = await uploadAs(shop, ownerBearer, bytes);
    expect(owned.statusCode).toBe(201);
    const id = owned.json().id as number;
    const deleteByShopper = await shop.app.inject({
      method: 'DELETE',
      url: `/wp-json/wp/v2/media/${id}?force=true`,
      headers: { host: HOST, ...asShopper },
    });
    expect(deleteByShopper.statusCode).toBe(401);
    const overridden = await shop.app.inject({
      method: 'POST',
      url: `/wp-json/wp/v2/media/${id}?force=true`,
      headers: { host: HOST, ...asShopper, 'x-http-method-override': 'DELETE' },
    });
    expect(overridden.statusCode).toBe(401);
    const postProcess = await shop.app.inject({
      method: 'POST',
      url: `/wp-json/wp/v2/media/${id}/post-process`,
      headers: { host: HOST, ...asShopper },
      payload: { action: 'create-image-subsizes' },
    });
    expect(postProcess.statusCode).toBe(401);
    expect(await shop.repositories.media.get(id)).not.toBeNull();
    // Reading stays public.
    expect(
      (await shop.app.inject({ url: `/wp-json/wp/v2/media/${id}`, headers: { host: HOST } })).statusCode,
    ).toBe(200);

    // The owner's browser: the session cookie and the page's nonce.
    const session = cookieOf(await login(shop, TEST_OWNER_PASSWORD), OWNER_COOKIE)?.value;
    const owner = await visitorPage(shop, `${OWNER_COOKIE}=${session}; ${shopper.cookie}`);
    const byOwner = await uploadAs(shop, { cookie: owner.cookie, 'x-wp-nonce': owner.nonce }, bytes);
    expect(byOwner.statusCode).toBe(201);
    // The owner's cookie still needs the nonce: a cross-site form cannot use it.
    expect((await uploadAs(shop, { cookie: owner.cookie }, bytes)).statusCode).toBe(403);
    // An API client: Basic with the owner's password, no nonce (WordPress's application passwords).
    const basic = `Basic ${Buffer.from(`owner:${TEST_OWNER_PASSWORD}`).toString('base64')}`;
    expect((await uploadAs(shop, { authorization: basic }, bytes)).statusCode).toBe(201);
    const wrongBasic = `Basic ${Buffer.from('owner:not-the-password').toString('base64')}`;
    expect((await uploadAs(shop, { authorization: wrongBasic }, bytes)).statusCode).toBe(401);
    // Basic under another name is a gateway's (a staging password), not the owner's: no upload, no counted guess.
    const gateway = `Basic ${Buffer.from(`staging:${TEST_OWNER_PASSWORD}`).toString('base64')}`;
    expect((await uploadAs(shop, { authorization: gateway }, bytes)).statusCode).toBe(401);
    const shopperBehindGate = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/wp/v2/users/me',
      headers: { host: HOST, ...asShopper, authorization: gateway },
      payload: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
    });
    expect(shopperBehindGate.statusCode).toBe(200);
    const deleted = await shop.app.inject({
      method: 'DELETE',
      url: `/wp-json/wp/v2/media/${id}?force=true`,
      headers: { host: HOST, ...ownerBearer },
    });
    expect(deleted.json()).toMatchObject({ deleted: true });
  });
});

describe('nonces are per visitor', () => {
  it('gives two cookie-less visitors different session ids and nonces, each useless to the other', async () => {
    const shop = await shopWith();
    const first = await visitorPage(shop);
    const second = await visitorPage(shop);
    expect(first.cookie).not.toBe(second.cookie);
    expect(first.nonce).not.toBe(second.nonce);
    // The minted id is only a cookie: browsing writes no session row.
    expect((await shop.query<{ n: number }>('SELECT COUNT(*) AS n FROM sessions'))[0]?.n).toBe(0);
    // Pages carrying a visitor's nonces are never cached for others.
    expect(first.page.headers['cache-control']).toMatch(/\bprivate\b|no-store/);
    expect(cookieOf(first.page, SESSION_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    const dismiss = (headers: Record<string, string>) =>
      shop.app.inject({
        method: 'POST',
        url: '/wp-json/wp/v2/users/me',
        headers: { host: HOST, ...headers },
        payload: { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } },
      });
    expect((await dismiss({ cookie: second.cookie, 'x-wp-nonce': first.nonce })).statusCode).toBe(403);
    expect((await dismiss({ 'x-wp-nonce': first.nonce })).statusCode).toBe(403);
    expect((await dismiss({ cookie: first.cookie, 'x-wp-nonce': first.nonce })).statusCode).toBe(200);
  });

  it('keeps the minted id when the first ajax add-to-cart stores the session, so the page’s nonces stay valid', async () => {
    const shop = await shopWith();
    const visitor = await visitorPage(shop);
    const added = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=add_to_cart',
      headers: { host: HOST, cookie: visitor.cookie, origin: `http://${HOST}` },
      payload: { product_id: '1021', quantity: '1' },
    });
    expect(added.statusCode).toBe(200);
    expect(`${SESSION_COOKIE}=${cookieOf(added, SESSION_COOKIE)?.value}`).toBe(visitor.cookie);
    const again = await visitorPage(shop, visitor.cookie);
    expect(again.nonce).toBe(visitor.nonce);
    expect(cookieOf(again.page, SESSION_COOKIE)).toBeUndefined();
  });
});

describe('the login limiter', () => {
  it('holds against X-Forwarded-For rotated on every try (trustProxy on): the account backs off', async () => {
    const shop = await shopWith({ trustProxy: true }, false);
    const form = await loginForm(shop);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 200; attempt++) {
      const ip = `203.0.${Math.floor(attempt / 250)}.${(attempt % 250) + 1}`;
      const response = await login(shop, `guess-${attempt}`, { form, headers: { 'x-forwarded-for': ip } });
      statuses.push(response.statusCode);
    }
    const checked = statuses.filter((status) => status === 401).length;
    const limited = statuses.filter((status) => status === 429).length;
    console.info(
      `200 logins with rotated X-Forwarded-For: ${checked} checked (401), ${limited} refused (429)`,
    );
    // The account's free failures, then at most one checked guess per lock (1 s, 2 s, 4 s … during this loop).
    expect(checked).toBeGreaterThanOrEqual(ACCOUNT_BACKOFF.freeFailures);
    expect(checked).toBeLessThanOrEqual(ACCOUNT_BACKOFF.freeFailures + 6);
    expect(checked + limited).toBe(200);
  }, 60_000);

  it('never keeps the owner out longer than the account’s cap, and a known device not at all', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const shop = await shopWith({ trustProxy: true }, false);
    // The owner logged in from this browser before: it holds a device cookie.
    const earlier = await login(shop, TEST_OWNER_PASSWORD, { ip: '192.0.2.10' });
    const device = `${OWNER_DEVICE_COOKIE}=${cookieOf(earlier, OWNER_DEVICE_COOKIE)?.value}`;
    expect(cookieOf(earlier, OWNER_DEVICE_COOKIE)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    // An attacker with as many addresses as it likes drives the account to its longest lock.
    const form = await loginForm(shop);
    for (let attempt = 0; attempt < 400; attempt++) {
      await login(shop, `guess-${attempt}`, {
        form,
        headers: { 'x-forwarded-for': `203.0.113.${attempt % 250}` },
      });
      vi.setSystemTime(Date.now() + 1_000);
    }
    const fresh = await login(shop, TEST_OWNER_PASSWORD, { headers: { 'x-forwarded-for': '192.0.2.99' } });
    expect(fresh.statusCode).toBe(429);
    const wait = Number(fresh.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(ACCOUNT_BACKOFF.maxLockMs / 1000);
    expect(fresh.body).toContain('Too many wrong attempts');

    const known = await login(shop, TEST_OWNER_PASSWORD, {
      headers: { 'x-forwarded-for': '192.0.2.99', cookie: device },
    });
    expect(known.statusCode).toBe(303);

    vi.setSystemTime(Date.now() + ACCOUNT_BACKOFF.maxLockMs);
    const later = await login(shop, TEST_OWNER_PASSWORD, { headers: { 'x-forwarded-for': '192.0.2.99' } });
    expect(later.statusCode).toBe(303);
  }, 60_000);

  it('locks only the attacking address: the owner logs in at once from another', async () => {
    const shop = await shopWith({}, false);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++)
      statuses.push((await login(shop, `guess-${attempt}`, { ip: '203.0.113.66' })).statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_BACKOFF.freeFailures);
    expect(statuses.slice(ADDRESS_BACKOFF.freeFailures).every((status) => status === 429)).toBe(true);
    expect((await login(shop, TEST_OWNER_PASSWORD, { ip: '203.0.113.66' })).statusCode).toBe(429);
    expect((await login(shop, TEST_OWNER_PASSWORD, { ip: '192.0.2.10' })).statusCode).toBe(303);
  });

  it('checks no more than the free failures when guesses arrive all at once', async () => {
    const shop = await shopWith({}, false);
    const form = await loginForm(shop);
    const statuses = (
      await Promise.all(
        Array.from({ length: 20 }, (_, attempt) =>
          login(shop, `guess-${attempt}`, { form, ip: '203.0.113.7' }),
        ),
      )
    ).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(ADDRESS_BACKOFF.freeFailures);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - ADDRESS_BACKOFF.freeFailures);
  });

  it('counts Bearer token guesses on the APIs the same way', async () => {
    const shop = await shopWith({}, false);
    const report = (token: string, ip: string) =>
      shop.app.inject({
        url: '/wp-json/stats/v1/report',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${token}` },
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++)
      statuses.push((await report(`guess-${attempt}-${'x'.repeat(24)}`, '203.0.113.9')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    const right = await report(TEST_OWNER_TOKEN, '203.0.113.9');
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await report(TEST_OWNER_TOKEN, '192.0.2.10')).statusCode).toBe(200);
  });

  it('checks passwords without blocking the event loop', async () => {
    const hash = hashOwnerPassword(TEST_OWNER_PASSWORD);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const results = await Promise.all([
      verifyOwnerPassword(TEST_OWNER_PASSWORD, hash),
      verifyOwnerPassword('wrong password', hash),
      verifyOwnerPassword(TEST_OWNER_PASSWORD, hash),
    ]);
    clearInterval(ticker);
    expect(results).toEqual([true, false, true]);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('owner sessions', () => {
  async function ownerSession(shop: TestApp) {
    const response = await login(shop, TEST_OWNER_PASSWORD);
    expect(response.statusCode).toBe(303);
    return `${OWNER_COOKIE}=${cookieOf(response, OWNER_COOKIE)?.value}`;
  }
  const api = (shop: TestApp, cookie: string) =>
    shop.app.inject({ url: '/insights/api/visitors', headers: { cookie } });
  async function logOut(shop: TestApp, cookie: string, everywhere = false) {
    const page = await shop.app.inject({ url: '/insights/', headers: { cookie } });
    const visitor = `${SESSION_COOKIE}=${cookieOf(page, SESSION_COOKIE)?.value}`;
    const nonce =
      /action="\/insights\/logout"[\s\S]*?name="_wpnonce" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    return shop.app.inject({
      method: 'POST',
      url: '/insights/logout',
      headers: { cookie: `${cookie}; ${visitor}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        _wpnonce: nonce,
        ...(everywhere ? { everywhere: '1' } : {}),
      }).toString(),
    });
  }

  it('logout ends the session on the server: a copied cookie stops working', async () => {
    const shop = await shopWith({}, false);
    const copied = await ownerSession(shop);
    expect((await api(shop, copied)).statusCode).toBe(200);
    expect((await logOut(shop, copied)).statusCode).toBe(303);
    expect((await api(shop, copied)).statusCode).toBe(401);
  });

  it('"log out everywhere" ends every session of the owner', async () => {
    const shop = await shopWith({}, false);
    const laptop = await ownerSession(shop);
    const phone = await ownerSession(shop);
    expect((await logOut(shop, laptop, true)).statusCode).toBe(303);
    expect((await api(shop, phone)).statusCode).toBe(401);
    expect((await api(shop, laptop)).statusCode).toBe(401);
  });

  it('excludes the owner’s own visits from the statistics', async () => {
    const shop = await shopWith({}, false);
    const cookie = await ownerSession(shop);
    const page = await shop.app.inject({ url: '/?preview=1', headers: { cookie } });
    expect(page.body).toContain('"isPreview":true');
    const stranger = await shop.app.inject({ url: '/?preview=1' });
    expect(stranger.body).toContain('"isPreview":false');
  });

  it('sets Secure cookies when a trusted proxy says the request was HTTPS, and only then', async () => {
    const trusted = await shopWith({ trustProxy: true }, false);
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.20' };
    const form = await loginForm(trusted, https);
    const response = await login(trusted, TEST_OWNER_PASSWORD, { form, headers: https });
    expect(response.statusCode).toBe(303);
    expect(cookieOf(response, OWNER_COOKIE)).toMatchObject({ secure: true, httpOnly: true });
    expect(cookieOf(response, OWNER_DEVICE_COOKIE)).toMatchObject({ secure: true });
    const page = await trusted.app.inject({ url: '/', headers: https });
    expect(cookieOf(page, SESSION_COOKIE)).toMatchObject({ secure: true });

    const untrusted = await shopWith({}, false);
    const plain = await login(untrusted, TEST_OWNER_PASSWORD, {
      form: await loginForm(untrusted, https),
      headers: https,
    });
    expect(cookieOf(plain, OWNER_COOKIE)?.secure).toBeFalsy();
  });
});

describe('weak owner credentials', () => {
  it('refuses to start with a short owner token or a malformed password hash, naming the setting', async () => {
    expect(() => parseSettings({ server: { ownerToken: 'owner-token-0123456789' } })).toThrow(
      /server\.ownerToken: must be at least 24 characters/,
    );
    await expect(
      createTestApp({ seed: false, settings: { server: { ownerToken: 'short' } } }),
    ).rejects.toThrow(/server\.ownerToken/);
    expect(() => parseSettings({ server: { ownerPasswordHash: 'my password' } })).toThrow(
      /server\.ownerPasswordHash: must be scrypt/,
    );
    expect(() => hashOwnerPassword('short')).toThrow(/at least 10 characters/);
    expect(parseSettings({ server: { ownerToken: TEST_OWNER_TOKEN } }).server.ownerToken).toBe(
      TEST_OWNER_TOKEN,
    );
  });
});
