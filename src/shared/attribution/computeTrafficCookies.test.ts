import fc from 'fast-check';
import sbjs from 'sourcebuster';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COOKIE, computeTrafficCookies, readTrafficData, type Visit } from './computeTrafficCookies';
import { decodeData, encodeData, FIELD_DELIMITER } from './cookieCodec';
import { readQuery } from './parseUri';

/*
 * Differential test: the `sourcebuster` package (the library WooCommerce's copy was forked from) is the oracle.
 * Both run the same generated visits against their own cookie jar, with the same clock, and must leave the same
 * cookie values. Deliberate differences, listed in the README: the two extra cookies are named `_extra`
 * (docs/contract.md) where the library says `_add`; the main cookies carry WooCommerce's four extra fields (id, plt, fmt,
 * tct); the promo code is random on both sides, so only its form is compared. Where WooCommerce's copy departs from
 * the package (an empty `utm_content=` / `utm_term=` is kept), the oracle's result is corrected to the copy's.
 */

const SHOP_HOST = 'shop.example.com';
const MINUTE = 60_000;

/** A minimal document.cookie: name=value pairs with expiry, as a browser keeps them for one site. */
class CookieJar {
  #cookies = new Map<string, { value: string; expiresAt: number }>();
  constructor(private readonly now: () => number) {}
  get cookie(): string {
    return [...this.live()].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  set cookie(header: string) {
    const [pair = '', ...attributes] = header.split(';');
    const at = pair.indexOf('=');
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1);
    const expires = attributes.map((each) => each.trim()).find((each) => each.startsWith('expires='));
    const expiresAt = expires ? Date.parse(expires.slice('expires='.length)) : Number.POSITIVE_INFINITY;
    if (expiresAt <= this.now()) this.#cookies.delete(name);
    else this.#cookies.set(name, { value, expiresAt });
  }
  /** A new value for a live cookie, keeping its expiry. */
  replace(name: string, value: string) {
    const cookie = this.#cookies.get(name);
    if (cookie) cookie.value = value;
  }
  setMinutes(name: string, value: string, minutes: number) {
    this.#cookies.set(name, { value, expiresAt: this.now() + minutes * MINUTE });
  }
  live(): Map<string, string> {
    const now = this.now();
    const live = new Map<string, string>();
    // Second-resolution expiry, as a cookie's expires attribute has.
    for (const [name, cookie] of this.#cookies)
      if (Math.floor(cookie.expiresAt / 1000) * 1000 > now) live.set(name, cookie.value);
    return live;
  }
}

interface GeneratedVisit {
  path: string;
  query: [string, string | null][];
  referrer: string;
  /** Minutes since the previous visit of the same visitor. */
  gap: number;
}

const paramName = fc.constantFrom(
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'gclid',
  'yclid',
  'page',
  'ref',
);
const paramValue = fc.oneof(
  fc.constantFrom('', 'newsletter', 'cpc', 'spring sale', 'a%20b', 'x=y', '%zz', 'Ünïcode', "it's(1)"),
  fc.string({ maxLength: 12 }).map((text) => encodeURIComponent(text)),
);
const referrer = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    'https://www.google.com/',
    'https://www.google.co.uk/search?q=linen',
    'https://google.de/',
    'https://www.bing.com/search?q=linen+shirt',
    'https://bing.com/',
    'https://search.yahoo.com/search?p=mug',
    'https://www.yandex.ru/search/?text=mug',
    'https://yandex.com/',
    'https://go.mail.ru/search?q=x',
    'https://nova.rambler.ru/search?query=x',
    'https://search.aol.com/aol/search?q=x',
    'https://www.ask.com/web?q=x',
    'https://www.about.com/?q=linen',
    'https://about.com/',
    'https://globososo.com/search?q=mug',
    'https://www.globososo.com/',
    'https://search.tut.by/?query=mug',
    'https://tut.by/news/',
    'https://t.co/abc123',
    'https://plus.url.google.com/url?q=x',
    'https://blog.example.org/posts/linen?ref=1',
    'http://news.site.net/',
    `https://${SHOP_HOST}/product/mug/`,
    `https://www.${SHOP_HOST}/cart/`,
    `https://sub.${SHOP_HOST}/`,
  ),
  fc.webUrl({ withQueryParameters: true }),
);
const visit: fc.Arbitrary<GeneratedVisit> = fc.record({
  path: fc.constantFrom('/', '/shop/', '/product/cafe-au-lait-mug/', '/checkout/'),
  query: fc.array(fc.tuple(paramName, fc.option(paramValue)), { maxLength: 3 }),
  referrer,
  gap: fc.constantFrom(0, 1, 10, 29, 31, 60, 24 * 60, 200 * 24 * 60),
});

function urlOf(each: GeneratedVisit): { href: string; search: string } {
  const search = each.query.length
    ? `?${each.query.map(([name, value]) => (value === null ? name : `${name}=${value}`)).join('&')}`
    : '';
  return { href: `https://${SHOP_HOST}${each.path}${search}`, search };
}

/** Runs the library in a fake browser against its jar. */
function runOracle(jar: CookieJar, each: GeneratedVisit, userAgent: string) {
  const { href, search } = urlOf(each);
  const location = { href, hostname: SHOP_HOST, search };
  vi.stubGlobal('document', {
    get cookie() {
      return jar.cookie;
    },
    set cookie(value: string) {
      jar.cookie = value;
    },
    location,
    referrer: each.referrer,
  });
  vi.stubGlobal('window', { location });
  vi.stubGlobal('navigator', { userAgent });
  // WooCommerce's call: lifetime in months, session in minutes, time zone offset 0 (the first-visit date in UTC).
  const hadFirst = jar.live().has(COOKIE.first);
  sbjs.init({ lifetime: 6, session_length: 30, timezone_offset: '0', promocode: true });
  vi.unstubAllGlobals();
  asWooCommerceCopy(jar, search, hadFirst);
  /** The fields as the library decodes them for its callers (WooCommerce's checkout reads these). */
  return structuredClone(sbjs.get);
}

/**
 * WooCommerce's copy of the library keeps a parameter that is present but empty (`utm_content=`, `utm_term=`) as an
 * empty value; the package writes `(none)` (and for `utm_term`, a Yandex referrer's search text). The source the
 * oracle just wrote is corrected to the copy's, in `sbjs_current` and, when this visit created it, `sbjs_first`.
 */
function asWooCommerceCopy(jar: CookieJar, search: string, hadFirst: boolean) {
  const params = readQuery(search.replace(/^\?/, ''));
  const keys = [
    ['utm_content', 'cnt'],
    ['utm_term', 'trm'],
  ].flatMap(([param, key]) => (params.get(param ?? '') === '' ? [key] : []));
  if (keys.length === 0) return;
  for (const name of hadFirst ? [COOKIE.current] : [COOKIE.current, COOKIE.first]) {
    const raw = jar.live().get(name);
    if (raw === undefined) continue;
    const fields = decodeData(raw)
      .split(FIELD_DELIMITER)
      .map((field) => (keys.includes(field.split('=')[0] ?? '') ? `${field.split('=')[0]}=` : field));
    jar.replace(name, encodeData(fields.join(FIELD_DELIMITER)));
  }
}

function runOurs(jar: CookieJar, each: GeneratedVisit, userAgent: string, now: number) {
  const { href, search } = urlOf(each);
  const current: Visit = {
    href,
    hostname: SHOP_HOST,
    search,
    referrer: each.referrer,
    userAgent,
    now: new Date(now),
  };
  const { writes } = computeTrafficCookies(jar.live(), current, {
    lifetimeMonths: 6,
    sessionMinutes: 30,
    cookieDomain: null,
    base64: false,
    random: Math.random,
  });
  for (const write of writes) jar.setMinutes(write.name, write.value, write.minutes);
}

const ORACLE_NAME: Record<string, string> = {
  sbjs_current_add: COOKIE.currentExtra,
  sbjs_first_add: COOKIE.firstExtra,
};

/** Decoded values keyed by our names, with what is allowed to differ taken out. */
function comparable(cookies: Map<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of cookies) {
    let value = decodeData(raw);
    if (name === COOKIE.current || name === COOKIE.first)
      value = value.replace(/\|\|\|id=.*\|\|\|plt=.*\|\|\|fmt=.*\|\|\|tct=.*$/s, '');
    if (name === COOKIE.promo) value = /^code=\d{6}$/.test(value) ? 'code=<6 digits>' : value;
    result[ORACLE_NAME[name] ?? name] = value;
  }
  return result;
}

describe('computeTrafficCookies against sourcebuster', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('leaves the same cookies as the library for generated visitors (fixed seed)', {
    timeout: 60_000,
  }, () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    let visits = 0;
    const types = new Map<string, number>();
    fc.assert(
      fc.property(
        fc.array(visit, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('Mozilla/5.0 (X11; Linux x86_64) Chrome/156', 'Mozilla/5.0 (iPhone) Mobile/15E148'),
        (journey, userAgent) => {
          let now = Date.UTC(2026, 0, 15, 10, 0, 0);
          const oracleJar = new CookieJar(() => now);
          const ourJar = new CookieJar(() => now);
          for (const each of journey) {
            now += each.gap * MINUTE;
            vi.setSystemTime(now);
            runOracle(oracleJar, each, userAgent);
            runOurs(ourJar, each, userAgent, now);
            visits += 1;
            const type = /typ=(\w+)/.exec(decodeData(oracleJar.live().get(COOKIE.current) ?? ''))?.[1];
            types.set(String(type), (types.get(String(type)) ?? 0) + 1);
            expect(comparable(ourJar.live())).toEqual(comparable(oracleJar.live()));
          }
        },
      ),
      { seed: 20261122, numRuns: 800 },
    );
    expect(visits).toBeGreaterThan(2000);
    // Every kind of source was exercised, not only the easy ones.
    for (const type of ['utm', 'organic', 'referral', 'typein']) expect(types.get(type)).toBeGreaterThan(100);
  });
});

/** One page view by a visitor whose browser already holds `cookies` (raw values), on both sides. */
function visitBoth(each: Omit<GeneratedVisit, 'gap' | 'path'>, cookies: Record<string, string> = {}) {
  const now = Date.UTC(2026, 0, 15, 10, 0, 0);
  vi.setSystemTime(now);
  const oracleJar = new CookieJar(() => now);
  const ourJar = new CookieJar(() => now);
  for (const [name, value] of Object.entries(cookies)) {
    oracleJar.setMinutes(name, value, 60);
    ourJar.setMinutes(name, value, 60);
  }
  const userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156';
  const journey = { ...each, path: '/', gap: 0 };
  const decoded = runOracle(oracleJar, journey, userAgent);
  runOurs(ourJar, journey, userAgent, now);
  const ours = readTrafficData(ourJar.live());
  const withoutExtraFields = ({ id, plt, fmt, tct, ...rest }: Record<string, string>) => rest;
  return {
    ours: comparable(ourJar.live()),
    oracle: comparable(oracleJar.live()),
    oursDecoded: {
      current: withoutExtraFields(ours.current),
      first: withoutExtraFields(ours.first),
      current_add: ours.currentExtra,
      first_add: ours.firstExtra,
      session: ours.session,
      udata: ours.udata,
    },
    oracleDecoded: {
      current: decoded.current,
      first: decoded.first,
      current_add: decoded.current_add,
      first_add: decoded.first_add,
      session: decoded.session,
      udata: decoded.udata,
    },
    current: ours.current,
  };
}

describe('computeTrafficCookies against sourcebuster, case by case', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** Referrers whose host, path or query the library reads in an unusual way, and the engines' edge cases. */
  const referrers: [string, string][] = [
    ['https://user:secret@blog.example.org/posts/?ref=1', 'referral'],
    ['https://blog.example.org:8443/posts/?ref=1', 'referral'],
    ['https://blog.example.org/p/.hidden?x', 'referral'],
    ['https://blog.example.org/v1.2/posts/linen', 'referral'],
    ['https://blog.example.org/files.//?page=2', 'referral'],
    ['https://blog.example.org/?text=hi', 'referral'],
    ['https://yandex.ru/search/?text=mug', 'organic'],
    ['https://yandex.ru/?text=', 'organic'],
    ['https://myyandex.ru/?text=mug', 'referral'],
    ['https://yandex.shop-reviews.example/?text=mug', 'referral'],
    ['https://www.google.shop-reviews.org/', 'referral'],
    ['https://www.bing.com/search?Q=linen', 'organic'],
    ['https://T.CO/abc123', 'referral'],
  ];
  for (const [referrer, type] of referrers) {
    it(`a new visitor from ${referrer} (${type})`, () => {
      const result = visitBoth({ query: [], referrer });
      expect(result.current.typ).toBe(type);
      expect(result.ours).toEqual(result.oracle);
      expect(result.oursDecoded).toEqual(result.oracleDecoded);
    });
  }

  it('a campaign from a search page takes the search text as its term only from Yandex', () => {
    for (const referrer of [
      'https://yandex.ru/search/?text=mug',
      'https://www.google.com/search?text=mug',
      'https://myyandex.ru/?text=mug',
      'https://yandex.shop-reviews.example/?text=mug',
    ]) {
      const result = visitBoth({ query: [['utm_source', 'mail']], referrer });
      expect(result.current.trm, referrer).toBe(referrer.startsWith('https://yandex.ru') ? 'mug' : '(none)');
      expect(result.ours).toEqual(result.oracle);
    }
  });

  it("decodes escaped characters in a campaign's values as the library does", () => {
    const result = visitBoth({
      query: [
        ['utm_source', 'news%21letter'],
        ['utm_campaign', 'it%27s%20%28new%29%7E%2A'],
      ],
      referrer: '',
    });
    expect(result.current).toMatchObject({ src: 'news!letter', cmp: "it's (new)~*" });
    expect(result.oursDecoded).toEqual(result.oracleDecoded);
  });

  /** Cookies as the library wrote them before its delimiter became `|||` (no migrations cookie yet). */
  const singlePipe = (fields: string) => encodeData(fields);
  const oldCookies = {
    sbjs_first: singlePipe('typ=organic|src=google|mdm=organic|cmp=(none)|cnt=(none)|trm=(none)'),
    sbjs_current: singlePipe('typ=utm|src=mail|mdm=email|cmp=a||b|cnt=(none)|trm=(none)'),
    sbjs_udata: singlePipe('vst=3|uip=(none)|uag=Old'),
    sbjs_promo: singlePipe('code=123456'),
  };

  it('migrates cookies from the single-pipe delimiter as the library does, with a session running', () => {
    const result = visitBoth(
      { query: [], referrer: '' },
      { ...oldCookies, sbjs_session: singlePipe('pgs=3|cpg=https://shop.example.com/old/') },
    );
    expect(result.current).toMatchObject({ typ: 'utm', src: 'mail', cmp: 'a||b' });
    expect(result.ours).toEqual(result.oracle);
    expect(result.oursDecoded).toEqual(result.oracleDecoded);
  });

  it('migrates cookies from the single-pipe delimiter as the library does, in a new session', () => {
    const result = visitBoth({ query: [], referrer: '' }, oldCookies);
    expect(result.oursDecoded.udata.vst).toBe('4');
    expect(result.oursDecoded.session.pgs).toBe('1');
    expect(result.ours).toEqual(result.oracle);
    expect(result.oursDecoded).toEqual(result.oracleDecoded);
  });
});

describe('computeTrafficCookies beyond the library', () => {
  const base: Visit = {
    href: `https://${SHOP_HOST}/?utm_id=42&utm_source_platform=meta`,
    hostname: SHOP_HOST,
    search: '?utm_id=42&utm_source_platform=meta',
    referrer: '',
    userAgent: 'UA',
    now: new Date('2026-11-22T01:02:03Z'),
  };
  const options = {
    lifetimeMonths: 6,
    sessionMinutes: 30,
    cookieDomain: null,
    base64: false,
    random: () => 0,
  };

  it("starts a utm visit on WooCommerce's extra parameters and stores them", () => {
    const { data } = computeTrafficCookies(new Map(), base, options);
    expect(data.current).toMatchObject({ typ: 'utm', src: '(none)', id: '42', plt: 'meta', fmt: '(none)' });
    expect(data.currentExtra).toEqual({ fd: '2026-11-22 01:02:03', ep: base.href, rf: '(none)' });
    expect(data.promo).toEqual({ code: '100000' });
  });

  it("keeps an empty utm_content and utm_term empty, as WooCommerce's copy of the library does", () => {
    const search = '?utm_source=mail&utm_content=&utm_term=&utm_id=';
    const { data } = computeTrafficCookies(
      new Map(),
      // A Yandex referrer: the package would take its search text for the term; the copy keeps the empty one.
      {
        ...base,
        href: `https://${SHOP_HOST}/${search}`,
        search,
        referrer: 'https://yandex.ru/search/?text=mug',
      },
      options,
    );
    expect(data.current).toMatchObject({ typ: 'utm', src: 'mail', cnt: '', trm: '', id: '(none)' });
    expect(data.first).toMatchObject({ cnt: '', trm: '' });
    // Absent parameters are still `(none)`, and a Yandex referrer still gives the term when utm_term is absent.
    const absent = computeTrafficCookies(
      new Map(),
      {
        ...base,
        href: `https://${SHOP_HOST}/?utm_source=mail`,
        search: '?utm_source=mail',
        referrer: 'https://yandex.ru/search/?text=mug',
      },
      options,
    );
    expect(absent.data.current).toMatchObject({ cnt: '(none)', trm: 'mug' });
  });

  it('counts about, globo and tut.by searches as organic, and their pages without a query as referrals', () => {
    const sourceOf = (referrer: string) =>
      computeTrafficCookies(
        new Map(),
        { ...base, href: `https://${SHOP_HOST}/`, search: '', referrer },
        options,
      ).data.current;
    expect(sourceOf('https://www.about.com/?q=linen')).toMatchObject({
      typ: 'organic',
      src: 'about',
      mdm: 'organic',
    });
    expect(sourceOf('https://globososo.com/search?q=mug')).toMatchObject({ typ: 'organic', src: 'globo' });
    expect(sourceOf('https://search.tut.by/?query=mug')).toMatchObject({ typ: 'organic', src: 'tut.by' });
    // Each engine's own parameter: tut.by searches with `query`, not `q`.
    expect(sourceOf('https://search.tut.by/?q=mug')).toMatchObject({ typ: 'referral', src: 'search.tut.by' });
    expect(sourceOf('https://about.com/')).toMatchObject({
      typ: 'referral',
      src: 'about.com',
      mdm: 'referral',
    });
  });

  it("starts a utm visit on each of WooCommerce's extra parameters alone, and stores every one", () => {
    const sourceOf = (search: string) =>
      computeTrafficCookies(new Map(), { ...base, href: `https://${SHOP_HOST}/${search}`, search }, options)
        .data.current;
    for (const name of ['utm_id', 'utm_source_platform', 'utm_creative_format', 'utm_marketing_tactic'])
      expect(sourceOf(`?${name}=x`).typ, name).toBe('utm');
    expect(
      sourceOf(
        '?utm_id=7&utm_source_platform=meta&utm_creative_format=banner&utm_marketing_tactic=remarketing',
      ),
    ).toMatchObject({ id: '7', plt: 'meta', fmt: 'banner', tct: 'remarketing' });
  });

  it('counts a page of the shop as internal whatever the case of the configured cookie domain', () => {
    const { data } = computeTrafficCookies(
      new Map(),
      { ...base, href: `https://${SHOP_HOST}/`, search: '', referrer: `https://${SHOP_HOST}/cart/` },
      { ...options, cookieDomain: 'Shop.Example.COM' },
    );
    expect(data.current).toMatchObject({ typ: 'typein', src: '(direct)' });
  });

  it("keeps the visitor's promo code from one page view to the next", () => {
    const first = computeTrafficCookies(new Map(), base, { ...options, random: () => 0 });
    const jar = new Map(first.writes.map((write) => [write.name, write.value]));
    const next = computeTrafficCookies(
      jar,
      { ...base, href: `https://${SHOP_HOST}/shop/`, search: '' },
      { ...options, random: () => 0.5 },
    );
    expect(next.data.promo).toEqual({ code: '100000' });
    expect(next.writes.map((write) => write.name)).not.toContain(COOKIE.promo);
  });

  it('reads no fields at all from a browser without attribution cookies', () => {
    expect(readTrafficData(new Map())).toEqual({
      current: {},
      currentExtra: {},
      first: {},
      firstExtra: {},
      session: {},
      udata: {},
      promo: {},
    });
  });

  it('writes base64 values when asked and reads both forms', () => {
    const { writes } = computeTrafficCookies(new Map(), base, { ...options, base64: true });
    const current = writes.find((write) => write.name === COOKIE.current)?.value ?? '';
    expect(current).toMatch(/^[A-Za-z0-9+/]+$/);
    // A later page view reads the base64 cookies: the session continues.
    const jar = new Map(writes.map((write) => [write.name, write.value]));
    const next = computeTrafficCookies(
      jar,
      { ...base, href: `https://${SHOP_HOST}/shop/`, search: '' },
      options,
    );
    expect(next.data.current.typ).toBe('utm');
    expect(next.data.session.pgs).toBe('2');
  });

  it("carries a WooCommerce visitor's `_add` cookies over to the `_extra` names", () => {
    const legacy = new Map([
      ['sbjs_first', 'typ%3Dorganic%7C%7C%7Csrc%3Dgoogle'],
      ['sbjs_current', 'typ%3Dorganic%7C%7C%7Csrc%3Dgoogle'],
      [
        'sbjs_first_add',
        'fd%3D2025-01-01%2000%3A00%3A00%7C%7C%7Cep%3Dhttps%3A%2F%2Fold%2F%7C%7C%7Crf%3D%28none%29',
      ],
      [
        'sbjs_current_add',
        'fd%3D2025-02-02%2000%3A00%3A00%7C%7C%7Cep%3Dhttps%3A%2F%2Fold%2F%7C%7C%7Crf%3D%28none%29',
      ],
      ['sbjs_migrations', '1418474375998%3D1'],
    ]);
    const visit = { ...base, href: `https://${SHOP_HOST}/`, search: '' };
    const { data, writes } = computeTrafficCookies(legacy, visit, options);
    expect(data.current).toMatchObject({ typ: 'organic', src: 'google' });
    expect(data.firstExtra.fd).toBe('2025-01-01 00:00:00');
    expect(data.currentExtra.fd).toBe('2025-02-02 00:00:00');
    expect(writes.map((write) => write.name)).toContain(COOKIE.firstExtra);
  });

  it('survives malformed and oversized cookies without throwing', () => {
    const junk = new Map([
      ['sbjs_current', '%E0%A4%A'],
      ['sbjs_udata', 'vst%3Dabc'],
      ['sbjs_session', 'x'.repeat(5000)],
      ['sbjs_first', '====='],
    ]);
    const { data } = computeTrafficCookies(
      junk,
      { ...base, search: '', href: `https://${SHOP_HOST}/` },
      options,
    );
    expect(data.udata.vst).toBe('1');
    expect(data.session.pgs).toBe('2');
  });
});
