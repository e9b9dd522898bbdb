import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { SHOP_SURFACE, type SurfaceEntry } from './shopSurface';

/*
 * Bad input on every page, form and endpoint of `SHOP_SURFACE`: generated query strings, bodies, cookies,
 * headers and nonces. Whatever arrives, the answer is a 4xx `{code, message}` (JSON endpoints) or a normal
 * page or redirect, never a 5xx, and nothing rejects unhandled. Fixed seeds and bounded runs: a failure reproduces, and the file stays within a few tens of seconds.
 */

const RUNS_PER_ENTRY = 30;
const SEED = 11;

let shop: TestApp;
let cartCookie: string;
let realNonces: string[];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  shop = await createTestApp();
  const added = await shop.app.inject({
    method: 'POST',
    url: '/?wc-ajax=add_to_cart',
    payload: { product_id: '1021', quantity: '1' },
  });
  expect(added.statusCode).toBe(200);
  cartCookie = added.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  const sessionId = added.cookies.find((cookie) => cookie.name === 'shop_session')?.value ?? '';
  // Real nonces, but for another action or another session: each must be refused like junk.
  realNonces = [
    shop.app.nonces.create('cart', 'a-visitor-without-a-cart-0123456789'),
    shop.app.nonces.create('checkout', 'someone-else'),
    shop.app.nonces.create('post_password', sessionId),
    shop.app.nonces.create('wp_rest', sessionId),
    shop.app.nonces.create('set_cart_item_quantity', 'someone-else'),
  ];
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await shop?.close();
});

// ---- generators ----

const NASTY = [
  '',
  ' ',
  '%',
  '%zz',
  '%E0%A4%A',
  '\u0000',
  '\uD800',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '0x1F',
  '1.5',
  ' 7 ',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
  '../../etc/passwd',
  '😀',
  'a'.repeat(5000),
];
const junk = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.integer().map(String),
  fc.double().map(String),
);
/** What an HTTP header value may carry (visible ASCII and space): anything else never reaches a server. */
const headerSafe = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
});
const STRANGE_KEYS = ['__proto__', 'constructor', 'constructor[prototype]', 'a[b][c]', 'hasOwnProperty', ''];

function pairsFor(entry: SurfaceEntry) {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...entry.fields, ...(entry.nonceFields ?? []), 'x') },
    { weight: 1, arbitrary: fc.constantFrom(...STRANGE_KEYS) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  const nonce = (field: string) =>
    fc.tuple(fc.constant(field), fc.oneof(junk, fc.constantFrom(...realNonces)));
  return fc
    .tuple(
      fc.array(fc.tuple(key, junk), { maxLength: 8 }),
      ...(entry.nonceFields ?? []).map((field) => fc.option(nonce(field), { nil: undefined })),
    )
    .map(([pairs, ...nonces]) => [
      ...pairs,
      ...nonces.filter((pair): pair is [string, string] => pair !== undefined),
    ]);
}

/** Encodes what encodeURIComponent can (it throws on lone surrogates: those go raw, as a broken client sends). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text.replace(/[^\x21-\x7e]/g, '%');
  }
}
const formEncode = (pairs: [string, string][]) =>
  pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');

const rawQueryJunk = fc.string({
  unit: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '&', '=', '[', ']', '+', ';', 'a', '1', '%2', '&&=='),
  maxLength: 12,
});

const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
];
const body = (pairs: [string, string][]) =>
  fc.oneof(
    fc.constant({ type: 'application/x-www-form-urlencoded', payload: formEncode(pairs) }),
    rawQueryJunk.map((raw) => ({
      type: 'application/x-www-form-urlencoded',
      payload: `${formEncode(pairs)}&${raw}`,
    })),
    fc.constant({ type: 'application/json', payload: JSON.stringify(Object.fromEntries(pairs)) }),
    fc
      .jsonValue({ maxDepth: 3 })
      .map((value) => ({ type: 'application/json', payload: JSON.stringify(value) })),
    fc.tuple(fc.constantFrom(...CONTENT_TYPES), junk).map(([type, payload]) => ({ type, payload })),
    fc.constant({ type: undefined, payload: formEncode(pairs) }),
  );

const COOKIE_NAMES = [
  'shop_session',
  'woocommerce_items_in_cart',
  'woocommerce_cart_hash',
  'shop_postpass_1',
  'store_notice',
  'sbjs_current',
];
const cookieHeader = fc.oneof(
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...COOKIE_NAMES), headerSafe),
        fc.oneof(headerSafe, fc.constantFrom('', '=', '"', 'a'.repeat(100), 'x;y')),
      ),
      { maxLength: 5 },
    )
    .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('; ')),
  headerSafe,
);

const HEADER_NAMES = [
  'origin',
  'referer',
  'sec-fetch-site',
  'accept',
  'accept-language',
  'accept-encoding',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'user-agent',
  'if-none-match',
  'if-modified-since',
  'range',
  'x-http-method-override',
  'x-requested-with',
];
const headers = fc
  .array(
    fc.tuple(
      fc.constantFrom(...HEADER_NAMES),
      fc.oneof(headerSafe, fc.constantFrom('null', 'cross-site', 'https://evil.example', 'DELETE', '*/*')),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => Object.fromEntries(pairs));

function requestFor(entry: SurfaceEntry) {
  return fc
    .record({
      pairs: pairsFor(entry),
      rawQuery: fc.option(rawQueryJunk, { nil: undefined }),
      cookie: fc.oneof(
        fc.constant(undefined),
        entry.withCart ? fc.constant('cart') : fc.constant(undefined),
        cookieHeader,
      ),
      headers,
    })
    .chain(({ pairs, rawQuery, cookie, headers }) =>
      (entry.method === 'POST' ? body(pairs) : fc.constant(undefined)).map((sent) => {
        const query = [entry.method === 'GET' ? formEncode(pairs) : '', rawQuery ?? '']
          .filter(Boolean)
          .join('&');
        const url = query ? `${entry.url}${entry.url.includes('?') ? '&' : '?'}${query}` : entry.url;
        const allHeaders: Record<string, string> = { ...headers };
        if (cookie !== undefined) allHeaders.cookie = cookie === 'cart' ? cartCookie : cookie;
        if (sent?.type) allHeaders['content-type'] = sent.type;
        return { method: entry.method, url, headers: allHeaders, payload: sent?.payload };
      }),
    );
}

// ---- the answer every request must get ----

type Kind = SurfaceEntry['answers'];

function expectProperAnswer(kind: Kind, response: LightMyRequestResponse, what: string) {
  expect(
    response.statusCode,
    `${what} answered ${response.statusCode}: ${response.body.slice(0, 300)}`,
  ).toBeLessThan(500);
  if (response.statusCode < 400) return;
  const type = String(response.headers['content-type'] ?? '');
  if (kind === 'json') {
    expect(type, what).toMatch(/^application\/json/);
    const answer = JSON.parse(response.body) as { code?: unknown; message?: unknown };
    expect(typeof answer.code, `${what}: ${response.body}`).toBe('string');
    expect(typeof answer.message, `${what}: ${response.body}`).toBe('string');
  } else {
    expect(type, `${what}: ${response.body.slice(0, 200)}`).toMatch(/^text\/html/);
    expect(response.body, what).toMatch(/^<!doctype html>/);
  }
}

describe('bad input never breaks the shop', () => {
  SHOP_SURFACE.forEach((entry, index) => {
    it(`${entry.method} ${entry.url} (${entry.name})`, async () => {
      await fc.assert(
        fc.asyncProperty(requestFor(entry), async (request) => {
          const response = await shop.app.inject(request);
          expectProperAnswer(entry.answers, response, `${request.method} ${request.url}`);
        }),
        { seed: SEED + index, numRuns: RUNS_PER_ENTRY, endOnFailure: true },
      );
    });
  });

  it('answers undecodable and odd paths in the shop’s own format', async () => {
    const prefixes = [
      '/',
      '/product/',
      '/shop/page/',
      '/product-category/',
      '/brand/',
      '/images/',
      '/wc-ajax/',
    ];
    const segment = fc.string({
      unit: fc.constantFrom(
        '%',
        '%zz',
        '%E0%A4%A',
        '%C0%AE',
        '%2F',
        '%00',
        '%25',
        'a',
        'Z',
        '9',
        '.',
        '-',
        '~',
        '/',
      ),
      minLength: 1,
      maxLength: 10,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...prefixes),
        segment,
        fc.constantFrom('', '/', '/page/2/', '?s=%&orderby=%zz'),
        fc.constantFrom('GET', 'POST'),
        async (prefix, middle, suffix, method) => {
          const url = `${prefix}${middle}${suffix}`;
          const response = await shop.app.inject({ method: method as 'GET' | 'POST', url });
          expectProperAnswer(prefix === '/wc-ajax/' ? 'json' : 'page', response, `${method} ${url}`);
        },
      ),
      { seed: SEED, numRuns: 150, endOnFailure: true },
    );
  });

  it('no handler rejected unhandled along the way', () => {
    expect(unhandled).toEqual([]);
  });
});

describe('known bad requests get the right refusal', () => {
  it('a malformed percent-encoded path is a 400 page, or a 400 {code, message} on an ajax path', async () => {
    const page = await shop.app.inject('/product/%E0%A4%A/');
    expect(page.statusCode).toBe(400);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('That address is not valid.');
    const ajax = await shop.app.inject({ method: 'POST', url: '/wc-ajax/add_to_cart%' });
    expect(ajax.statusCode).toBe(400);
    expect(ajax.json()).toEqual({ code: 'invalid_request', message: 'That address is not valid.' });
  });

  it('an over-long path segment is a 414 in the shop’s format, not the router’s JSON', async () => {
    const ajax = await shop.app.inject(`/wc-ajax/${'a'.repeat(1200)}`);
    expect(ajax.statusCode).toBe(414);
    expect(ajax.json()).toEqual({ code: 'invalid_request', message: 'That address is not valid.' });
    const page = await shop.app.inject(`/product/${'a'.repeat(1200)}/`);
    expect(page.statusCode).toBe(414);
    expect(page.body).toContain('That address is not valid.');
  });

  it('a slug of 200 characters, percent-encoded, still reaches its route', async () => {
    const response = await shop.app.inject(`/product/${encodeURIComponent('é'.repeat(200))}/`);
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('That product does not exist');
  });

  it('bodies that cannot be read are 4xx with {code, message}', async () => {
    const cases: [string, string | Buffer, number][] = [
      ['application/json', '{"product_id":', 400],
      ['multipart/form-data', 'x', 415],
      ['application/x-www-form-urlencoded', `product_id=${'1'.repeat(70 * 1024)}`, 413],
    ];
    for (const [type, payload, status] of cases) {
      const response = await shop.app.inject({
        method: 'POST',
        url: '/?wc-ajax=add_to_cart',
        headers: { 'content-type': type },
        payload,
      });
      expect(response.statusCode, type).toBe(status);
      expect(Object.keys(response.json()), type).toEqual(['code', 'message']);
    }
  });
});
