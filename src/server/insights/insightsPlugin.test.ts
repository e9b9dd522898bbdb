import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { TEST_OWNER_TOKEN } from '../../../test-support/testOwner';
import { hashOwnerPassword } from '../owner/ownerCredentials';
import { OWNER_COOKIE } from '../owner/ownerPlugin';
import { SESSION_COOKIE } from '../session/VisitorSession';

/*
 * The owner's insights over HTTP: the login (password hash or token, rate limited), the session
 * cookie, logout, the JSON and CSV endpoints behind it, and nothing public-cacheable or indexable.
 */

const PASSWORD = 'correct horse battery staple';
const TOKEN = TEST_OWNER_TOKEN;

let shop: TestApp;
beforeEach(async () => {
  shop = await createTestApp({
    settings: { server: { ownerPasswordHash: hashOwnerPassword(PASSWORD), ownerToken: TOKEN } },
  });
});
afterEach(async () => {
  await shop.close();
});

/** The login form and the visitor cookie its nonce is bound to (minted for the form). */
async function loginForm() {
  const page = await shop.app.inject({ method: 'GET', url: '/admin/login?next=/insights/' });
  const nonce = /name="_wpnonce" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const minted = page.cookies.find((each) => each.name === SESSION_COOKIE);
  return { page, nonce, visitor: `${SESSION_COOKIE}=${minted?.value}` };
}

async function login(password: string, ip = '198.51.100.7') {
  const { nonce, visitor } = await loginForm();
  const response = await shop.app.inject({
    method: 'POST',
    url: '/admin/login',
    remoteAddress: ip,
    headers: { cookie: visitor, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ password, _wpnonce: nonce }).toString(),
  });
  return Object.assign(response, { visitor });
}

/** The browser's cookies after a login: the owner's session (when it was set) and the visitor's. */
const sessionCookie = (response: { cookies: { name: string; value: string }[]; visitor: string }) => {
  const cookie = response.cookies.find((each) => each.name === OWNER_COOKIE);
  return cookie ? `${OWNER_COOKIE}=${cookie.value}; ${response.visitor}` : '';
};

describe('the login', () => {
  it('shows a noindex, never-cached login form to a stranger', async () => {
    const { page, nonce } = await loginForm();
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    expect(page.body).toContain('Owner login');
    expect(page.body).not.toContain('Sources and revenue');
    expect(nonce).not.toBe('');
  });

  it('refuses a wrong password with a clear error and no cookie', async () => {
    const response = await login('wrong');
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('That password or token is not right.');
    expect(sessionCookie(response)).toBe('');
  });

  it('admits the password and the token with an HttpOnly, SameSite=Strict session', async () => {
    for (const secret of [PASSWORD, TOKEN]) {
      const response = await login(secret);
      expect(response.statusCode).toBe(303);
      const cookie = response.cookies.find((each) => each.name === OWNER_COOKIE);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
      const page = await shop.app.inject({
        method: 'GET',
        url: '/insights/',
        headers: { cookie: sessionCookie(response) },
      });
      expect(page.body).toContain('Sources and revenue');
      expect(page.headers['cache-control']).toBe('no-store');
    }
  });

  it('refuses a forged or expired-looking cookie', async () => {
    const forged = await shop.app.inject({
      method: 'GET',
      url: '/insights/api/visitors',
      headers: { cookie: `${OWNER_COOKIE}=${'f'.repeat(43)}` },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'unauthorized' });
  });

  it('stops checking after five wrong attempts from one client (429), other clients unaffected', async () => {
    for (let attempt = 0; attempt < 5; attempt++) expect((await login('nope')).statusCode).toBe(401);
    const blocked = await login(PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.body).toContain('Too many wrong attempts');
    expect(sessionCookie(blocked)).toBe('');
    expect((await login(PASSWORD, '198.51.100.8')).statusCode).toBe(303);
  });

  it('refuses a login without the form nonce', async () => {
    const response = await shop.app.inject({
      method: 'POST',
      url: '/admin/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `password=${encodeURIComponent(PASSWORD)}`,
    });
    expect(response.statusCode).toBe(403);
  });

  it('logs out: the cookie is cleared', async () => {
    const cookie = sessionCookie(await login(PASSWORD));
    const page = await shop.app.inject({ method: 'GET', url: '/insights/', headers: { cookie } });
    const nonce =
      /action="\/insights\/logout"[\s\S]*?name="_wpnonce" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const out = await shop.app.inject({
      method: 'POST',
      url: '/insights/logout',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_wpnonce=${nonce}`,
    });
    expect(out.statusCode).toBe(303);
    expect(out.cookies.find((each) => each.name === OWNER_COOKIE)?.value).toBe('');
  });
});

describe('the JSON and CSV endpoints', () => {
  it('answer the owner token as a bearer, with the range', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/insights/api/sources?range=custom&from=2026-01-01&to=2026-01-07',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      range: { from: '2026-01-01', to: '2026-01-07' },
      sources: { rows: [] },
    });
  });

  it('refuse a bad range with 400', async () => {
    const response = await shop.app.inject({
      method: 'GET',
      url: '/insights/api/visitors?range=custom&from=2026-02-10&to=2026-02-01',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_request' });
  });

  it('export a table as CSV with formula-like cells defused', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await shop.query(
      `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
         referrer_host, source_type, source, browser, os, device_type)
       VALUES (0, ?, 'v', '=HYPERLINK("x")', 'page', 0, '', '', '', 'typein', '(direct)', 'C', 'L', 'desktop')`,
      [today],
    );
    const response = await shop.app.inject({
      method: 'GET',
      url: '/insights/export/pages.csv?range=7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.body).toBe('page,count\r\n"\'=HYPERLINK(""x"")",1\r\n');
  });
});

describe('the synonym from the zero-result inbox', () => {
  it('needs the owner and the nonce, then saves the group in the search rules', async () => {
    const anonymous = await shop.app.inject({
      method: 'POST',
      url: '/insights/synonym',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'query=anorak&synonym=hoodie',
    });
    expect(anonymous.statusCode).toBe(401);
    const cookie = sessionCookie(await login(PASSWORD));
    const withoutNonce = await shop.app.inject({
      method: 'POST',
      url: '/insights/synonym',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'query=anorak&synonym=hoodie',
    });
    expect(withoutNonce.statusCode).toBe(403);
    // The form's nonce, as the page renders it for a zero-result row (bound to the visitor's session id).
    const visitorId = cookie.split(`${SESSION_COOKIE}=`)[1] ?? '';
    const response = await shop.app.inject({
      method: 'POST',
      url: '/insights/synonym',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        query: 'anorak',
        synonym: 'hoodie',
        range: '7',
        _wpnonce: shop.app.nonces.create('insights_synonym', visitorId),
      }).toString(),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/insights/?range=7#searches');
    const rules = await shop.repositories.search.getRules();
    expect(rules?.synonyms.some((group) => group.includes('anorak') && group.includes('hoodie'))).toBe(true);
  });
});
