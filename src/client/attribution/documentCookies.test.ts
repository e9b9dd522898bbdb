import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSettings } from '../../shared/settings/parseSettings';
import { createConsent } from '../consent/createConsent';
import { createAttributionTracker } from './createAttributionTracker';
import { documentCookies } from './documentCookies';

/*
 * The tracker against a cookie store that behaves as a browser's does for one page: a cookie is keyed by name,
 * domain (or host-only) and path; `document.cookie` lists every copy the page sees, oldest first; a domain
 * attribute the host cannot carry (an IP address, a name without a dot) is refused.
 */

interface StoredCookie {
  name: string;
  value: string;
  /** Null for a host-only cookie. */
  domain: string | null;
  expiresAt: number;
  created: number;
}

class BrowserCookies {
  readonly stored: StoredCookie[] = [];
  readonly written: string[] = [];
  #clock = 0;
  constructor(private readonly host: string) {}

  get cookie(): string {
    return this.stored
      .filter((each) => each.expiresAt > Date.now())
      .sort((a, b) => a.created - b.created)
      .map((each) => `${each.name}=${each.value}`)
      .join('; ');
  }

  set cookie(header: string) {
    this.written.push(header);
    const [pair = '', ...parts] = header.split(';').map((each) => each.trim());
    const at = pair.indexOf('=');
    const attributes = new Map(
      parts.map((part) => [part.split('=')[0]?.toLowerCase() ?? '', part.slice(part.indexOf('=') + 1)]),
    );
    let domain: string | null = null;
    const given = attributes.get('domain')?.replace(/^\./, '');
    if (given !== undefined) {
      const canCarry = given.includes('.') && !/^[\d.]+$/.test(given);
      if (!canCarry || !(this.host === given || this.host.endsWith(`.${given}`))) return;
      domain = given;
    }
    const expires = attributes.get('expires');
    this.add(pair.slice(0, at), pair.slice(at + 1), domain, expires ? Date.parse(expires) : Number.MAX_VALUE);
  }

  add(name: string, value: string, domain: string | null, expiresAt = Number.MAX_VALUE) {
    const index = this.stored.findIndex((each) => each.name === name && each.domain === domain);
    if (index >= 0) this.stored.splice(index, 1);
    if (expiresAt > Date.now()) this.stored.push({ name, value, domain, expiresAt, created: this.#clock++ });
  }

  copies(name: string) {
    return this.stored.filter((each) => each.name === name && each.expiresAt > Date.now());
  }
}

const NOW = new Date('2026-11-22T01:00:00Z');
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function visit(browser: BrowserCookies, hostname: string, search: string, attribution: object = {}) {
  const settings = parseSettings({ attribution });
  const tracker = createAttributionTracker({
    settings: settings.attribution,
    consent: createConsent({ mode: 'none', window: {}, document: new EventTarget() as unknown as Document }),
    consentCategory: settings.consent.attributionCategory,
    cookies: documentCookies(browser, { hostname, cookieDomain: settings.attribution.cookieDomain }),
    landing: {
      href: `https://${hostname}/${search}`,
      hostname,
      search,
      referrer: '',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156',
    },
    now: () => new Date(),
    random: () => 0.5,
  });
  tracker.start();
  return tracker;
}

/** sbjs_current as WooCommerce's sourcebuster leaves it (URI-encoded fields). */
const wooCurrent = (source: string) =>
  encodeURIComponent(
    `typ=utm|||src=${source}|||mdm=email|||cmp=(none)|||cnt=(none)|||trm=(none)|||id=(none)`,
  );

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('documentCookies', () => {
  it('writes every cookie for the whole site as WooCommerce does: domain=.host (no www.), path /', () => {
    const browser = new BrowserCookies('www.shop.test');
    visit(browser, 'www.shop.test', '?utm_source=mail');
    const names = browser.stored.map((each) => each.name).sort();
    expect(names).toEqual([
      'sbjs_current',
      'sbjs_current_extra',
      'sbjs_first',
      'sbjs_first_extra',
      'sbjs_migrations',
      'sbjs_promo',
      'sbjs_session',
      'sbjs_udata',
    ]);
    for (const each of browser.stored) expect(each.domain, each.name).toBe('shop.test');
    expect(browser.written.every((header) => header.includes('; path=/'))).toBe(true);
  });

  it('keeps source cookies for 30 days per month of the lifetime setting, and the session for 30 minutes', () => {
    const expiry = (browser: BrowserCookies, name: string) => browser.copies(name)[0]?.expiresAt;
    const defaults = new BrowserCookies('shop.test');
    visit(defaults, 'shop.test', '?utm_source=mail');
    for (const name of ['sbjs_current', 'sbjs_first', 'sbjs_current_extra', 'sbjs_udata', 'sbjs_promo'])
      expect(expiry(defaults, name), name).toBe(NOW.getTime() + 6 * 30 * DAY);
    expect(expiry(defaults, 'sbjs_session')).toBe(NOW.getTime() + 30 * MINUTE);

    const configured = new BrowserCookies('shop.test');
    visit(configured, 'shop.test', '?utm_source=mail', { lifetimeMonths: 2, sessionMinutes: 45 });
    expect(expiry(configured, 'sbjs_current')).toBe(NOW.getTime() + 60 * DAY);
    expect(expiry(configured, 'sbjs_session')).toBe(NOW.getTime() + 45 * MINUTE);
  });

  it("a returning WooCommerce visitor's new campaign replaces the one in WooCommerce's domain cookie", () => {
    const browser = new BrowserCookies('shop.test');
    browser.add('sbjs_current', wooCurrent('spring'), 'shop.test');
    browser.add('sbjs_first', wooCurrent('spring'), 'shop.test');
    browser.add('sbjs_migrations', '1418474375998%3D1', 'shop.test');
    const tracker = visit(browser, 'shop.test', '?utm_source=autumn');
    expect(tracker.getFields()).toMatchObject({ source_type: 'utm', utm_source: 'autumn' });
    expect(browser.copies('sbjs_current')).toHaveLength(1);
    // The first visit stays the first.
    expect(decodeURIComponent(browser.copies('sbjs_first')[0]?.value ?? '')).toContain('src=spring');
  });

  it('reads the newest of two copies and leaves one: an older host-only copy next to a domain one goes', () => {
    const browser = new BrowserCookies('shop.test');
    browser.add('sbjs_current', wooCurrent('spring'), 'shop.test');
    browser.add('sbjs_current', wooCurrent('summer'), null);
    browser.add('sbjs_session', 'pgs%3D4%7C%7C%7Ccpg%3Dhttps%3A%2F%2Fshop.test%2F', null);
    const tracker = visit(browser, 'shop.test', '');
    // An internal page view keeps the newest source and continues the session.
    expect(tracker.getFields()).toMatchObject({ utm_source: 'summer', session_pages: '5' });
    expect(browser.copies('sbjs_current').map((each) => each.domain)).toEqual(['shop.test']);
    // A single host-only copy (written before cookies went to the domain) is read, then shadowed by the newer
    // domain copy, and goes on the next page view.
    const next = visit(browser, 'shop.test', '');
    expect(next.getFields()).toMatchObject({ utm_source: 'summer', session_pages: '6' });
    for (const name of ['sbjs_current', 'sbjs_session', 'sbjs_udata'])
      expect(browser.copies(name).map((each) => each.domain)).toEqual(['shop.test']);
  });

  it('uses the configured cookie domain, and host-only cookies where a host cannot carry a domain', () => {
    const shared = new BrowserCookies('checkout.shop.test');
    visit(shared, 'checkout.shop.test', '', { cookieDomain: 'shop.test' });
    expect(new Set(shared.stored.map((each) => each.domain))).toEqual(new Set(['shop.test']));
    // WordPress-style configuration with a leading dot means the same domain.
    const dotted = new BrowserCookies('checkout.shop.test');
    visit(dotted, 'checkout.shop.test', '', { cookieDomain: '.shop.test' });
    expect(dotted.copies('sbjs_current').map((each) => each.domain)).toEqual(['shop.test']);
    for (const host of ['127.0.0.1', 'localhost']) {
      const local = new BrowserCookies(host);
      visit(local, host, '?utm_source=mail');
      expect(local.copies('sbjs_current').map((each) => each.domain)).toEqual([null]);
      // Host-only cookies are still for the whole site.
      for (const header of local.written) expect(header).toMatch(/; path=\/; SameSite=Lax$/);
    }
    // A name that starts with digits is a name, not an address.
    const named = new BrowserCookies('www.365shop.test');
    visit(named, 'www.365shop.test', '?utm_source=mail');
    expect(named.copies('sbjs_current').map((each) => each.domain)).toEqual(['365shop.test']);
  });

  it("tracking off also deletes WooCommerce's copy when the shop shares its cookies with a parent domain", () => {
    const browser = new BrowserCookies('www.checkout.shop.test');
    browser.add('sbjs_current', wooCurrent('spring'), 'checkout.shop.test');
    browser.add('sbjs_current', wooCurrent('spring'), 'shop.test');
    visit(browser, 'www.checkout.shop.test', '', { allowTracking: false, cookieDomain: 'shop.test' });
    expect(browser.copies('sbjs_current')).toEqual([]);
  });

  it('tracking off deletes every copy: host-only, ours and WooCommerce’s', () => {
    const browser = new BrowserCookies('www.shop.test');
    browser.add('sbjs_current', wooCurrent('spring'), 'shop.test');
    browser.add('sbjs_current', wooCurrent('spring'), 'www.shop.test');
    browser.add('sbjs_current', wooCurrent('spring'), null);
    browser.add('sbjs_first_add', wooCurrent('spring'), 'shop.test');
    browser.add('other', 'kept', null);
    visit(browser, 'www.shop.test', '', { allowTracking: false });
    expect(browser.stored.map((each) => each.name)).toEqual(['other']);
  });
});
