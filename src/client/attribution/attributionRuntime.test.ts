// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSettings, toPageSettings } from '../../shared/settings/parseSettings';
import { createConsent } from '../consent/createConsent';
import { getAttributionFields, startAttribution } from './attributionRuntime';

/*
 * The tracker wired to a real page: the landing URL, referrer and user agent it attributes come from the page,
 * the cookies land in document.cookie, and a consent tool switches it through window.shopAttribution.
 */

/** Moves the test page to `url` (happy-dom's own control; a page's script cannot do this without navigating). */
function setPageUrl(url: string) {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

const EXPIRED = 'Thu, 01 Jan 1970 00:00:00 GMT';
const LANDING = 'https://www.shop.example.com/product/mug/?utm_source=newsletter&utm_medium=email';

function openPage(url: string, referrer = '') {
  setPageUrl(url);
  Object.defineProperty(document, 'referrer', { value: referrer, configurable: true });
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone) Mobile/15E148');
}

function cookieNames(): string[] {
  return document.cookie
    .split(';')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter(Boolean);
}

function start(settings: Record<string, unknown> = {}, consentMode: 'none' | 'banner' = 'none') {
  const page = toPageSettings(parseSettings({ ...settings, consent: { mode: consentMode } }));
  const consent = createConsent({ mode: consentMode, window, document });
  return { tracker: startAttribution(page, consent), consent };
}

afterEach(() => {
  setPageUrl('https://www.shop.example.com/');
  for (const domain of ['', '; domain=.shop.example.com', '; domain=.example.com']) {
    for (const name of cookieNames()) {
      // biome-ignore lint/suspicious/noDocumentCookie: clearing the test page's cookies between tests
      document.cookie = `${name}=; expires=${EXPIRED}; path=/${domain}`;
    }
  }
  vi.restoreAllMocks();
});

describe('startAttribution', () => {
  it("attributes the page's landing URL and user agent, and shares the values with the checkout", () => {
    openPage(LANDING);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    start();
    expect(cookieNames()).toEqual(expect.arrayContaining(['sbjs_current', 'sbjs_first', 'sbjs_session']));
    const fields = getAttributionFields();
    expect(fields).toMatchObject({
      source_type: 'utm',
      utm_source: 'newsletter',
      utm_medium: 'email',
      current_page: LANDING,
      session_entry: LANDING,
      user_agent: 'Mozilla/5.0 (iPhone) Mobile/15E148',
      device_type: 'Mobile',
      session_pages: '1',
    });
    // The promo code is drawn from Math.random: 100000 + floor(0.5 * 900000).
    expect(fields.promo_code).toBe('550000');
    expect(window.shopAttribution?.getFields()).toEqual(fields);
  });

  it("attributes the page's referrer: a search engine makes an organic visit", () => {
    openPage('https://shop.example.com/', 'https://www.bing.com/search?q=linen+mug');
    start();
    expect(getAttributionFields()).toMatchObject({
      source_type: 'organic',
      utm_source: 'bing',
      referrer: 'https://www.bing.com/search?q=linen+mug',
    });
  });

  it('writes the cookies for the configured cookie domain, readable from its other hosts', () => {
    openPage('https://shop.example.com/?utm_source=ads');
    start({ attribution: { cookieDomain: 'example.com' } });
    setPageUrl('https://blog.example.com/');
    expect(cookieNames()).toContain('sbjs_current');
  });

  it('lets a consent tool switch order tracking off and on at run time', () => {
    openPage(LANDING);
    const { tracker } = start();
    window.shopAttribution?.setOrderTracking(false);
    expect(tracker.isTracking()).toBe(false);
    expect(cookieNames().filter((name) => name.startsWith('sbjs_'))).toEqual([]);
    expect(window.shopAttribution?.getFields()).toEqual({});
    expect(getAttributionFields()).toEqual({});
    window.shopAttribution?.setOrderTracking(true);
    expect(getAttributionFields()).toMatchObject({ source_type: 'utm', utm_source: 'newsletter' });
  });

  it('writes nothing while tracking is off in the settings, and removes what an earlier page left', () => {
    openPage(LANDING);
    // biome-ignore lint/suspicious/noDocumentCookie: an earlier page's cookie, set as a browser would
    document.cookie = 'sbjs_current=typ%3Dtypein; path=/';
    start({ attribution: { allowTracking: false } });
    expect(cookieNames().filter((name) => name.startsWith('sbjs_'))).toEqual([]);
    expect(getAttributionFields()).toEqual({});
  });

  it('waits for consent, then attributes the landing visit', () => {
    openPage(LANDING);
    const { consent } = start({}, 'banner');
    expect(cookieNames().filter((name) => name.startsWith('sbjs_'))).toEqual([]);
    setPageUrl('https://www.shop.example.com/cart/');
    consent.choose(true);
    expect(getAttributionFields()).toMatchObject({ source_type: 'utm', session_entry: LANDING });
  });

  it('gives the checkout no fields, and no error, before the tracker has started', async () => {
    vi.resetModules();
    const fresh = await import('./attributionRuntime');
    expect(fresh.getAttributionFields()).toEqual({});
  });
});
