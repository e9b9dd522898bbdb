import { describe, expect, it } from 'vitest';
import { decodeCookieValue } from '../../shared/attribution/cookieCodec';
import { parseSettings } from '../../shared/settings/parseSettings';
import { type Consent, createConsent } from '../consent/createConsent';
import { type AttributionEnv, type CookieAccess, createAttributionTracker } from './createAttributionTracker';

/** An in-memory cookie store that records what the tracker writes. */
function fakeCookies(initial: Record<string, string> = {}): CookieAccess & { jar: Map<string, string> } {
  const jar = new Map(Object.entries(initial));
  return {
    jar,
    read: () => new Map(jar),
    write: (name, value) => void jar.set(name, value),
    remove: (name) => void jar.delete(name),
  };
}

/** WordPress's consent API as a page would have it: a function plus the change event on document. */
function fakeConsentApi() {
  const granted = new Set<string>();
  const target = new EventTarget();
  const consent = createConsent({
    mode: 'api',
    window: { wp_has_consent: (category) => granted.has(category) },
    document: {
      cookie: '',
      addEventListener: target.addEventListener.bind(target),
      removeEventListener: target.removeEventListener.bind(target),
    } as unknown as Document,
  });
  return {
    consent,
    grant(category: string) {
      granted.add(category);
      target.dispatchEvent(new Event('wp_listen_for_consent_change'));
    },
    revoke(category: string) {
      granted.delete(category);
      target.dispatchEvent(new Event('wp_listen_for_consent_change'));
    },
  };
}

const LANDING = {
  href: 'https://shop.test/product/mug/?utm_source=newsletter&utm_medium=email',
  hostname: 'shop.test',
  search: '?utm_source=newsletter&utm_medium=email',
  referrer: 'https://mail.example.org/inbox',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156',
};

function tracker(consent: Consent, cookies: CookieAccess, attribution: Record<string, unknown> = {}) {
  const settings = parseSettings({ attribution });
  const env: AttributionEnv = {
    settings: settings.attribution,
    consent,
    consentCategory: settings.consent.attributionCategory,
    cookies,
    landing: LANDING,
    now: () => new Date('2026-11-22T01:00:00Z'),
    random: () => 0.5,
  };
  return createAttributionTracker(env);
}

const noneMode = () =>
  createConsent({ mode: 'none', window: {}, document: new EventTarget() as unknown as Document });

describe('createAttributionTracker', () => {
  it('writes the traffic cookies on a page view and maps them to the checkout fields', () => {
    const cookies = fakeCookies();
    const attribution = tracker(noneMode(), cookies);
    attribution.start();
    expect(decodeCookieValue(cookies.jar.get('sbjs_current') ?? '')).toMatch(
      /^typ=utm\|\|\|src=newsletter\|\|\|mdm=email\|\|\|/,
    );
    expect(attribution.getFields()).toMatchObject({
      source_type: 'utm',
      utm_source: 'newsletter',
      utm_medium: 'email',
      referrer: LANDING.referrer,
      session_entry: LANDING.href,
      session_start_time: '2026-11-22 01:00:00',
      session_pages: '1',
      session_count: '1',
      device_type: 'Desktop',
      promo_code: '550000',
    });
  });

  it('deletes every attribution cookie when tracking is off, also a WooCommerce `_add` one', () => {
    const cookies = fakeCookies({ sbjs_current: 'x', sbjs_first_add: 'y', sbjs_udata: 'z', other: 'kept' });
    const attribution = tracker(noneMode(), cookies, { allowTracking: false });
    attribution.start();
    expect([...cookies.jar.keys()]).toEqual(['other']);
    expect(attribution.getFields()).toEqual({});

    attribution.setOrderTracking(true);
    expect(cookies.jar.has('sbjs_current')).toBe(true);
    attribution.setOrderTracking(false);
    expect([...cookies.jar.keys()]).toEqual(['other']);
  });

  it('writes nothing before consent, then attributes the landing page and referrer once consent arrives', () => {
    const api = fakeConsentApi();
    const cookies = fakeCookies();
    const attribution = tracker(api.consent, cookies);
    attribution.start();
    expect(cookies.jar.size).toBe(0);
    expect(attribution.getFields()).toEqual({});

    api.grant('statistics');
    expect(cookies.jar.size).toBe(0);
    api.grant('marketing');
    expect(attribution.getFields()).toMatchObject({
      source_type: 'utm',
      utm_source: 'newsletter',
      session_entry: LANDING.href,
      referrer: LANDING.referrer,
    });

    api.revoke('marketing');
    expect(cookies.jar.size).toBe(0);
  });

  it('counts the page once when a consent tool switches tracking on again on the same page', () => {
    const cookies = fakeCookies();
    const attribution = tracker(noneMode(), cookies);
    attribution.start();
    attribution.setOrderTracking(true);
    expect(attribution.getFields()).toMatchObject({ session_pages: '1', session_count: '1' });
  });

  it("keeps an earlier visit's cookies out of the checkout until this page has consent", () => {
    const cookies = fakeCookies();
    tracker(noneMode(), cookies).start();
    const api = fakeConsentApi();
    const attribution = tracker(api.consent, cookies);
    attribution.start();
    expect(cookies.jar.has('sbjs_current')).toBe(true);
    expect(attribution.getFields()).toEqual({});
    api.grant('marketing');
    expect(attribution.getFields()).toMatchObject({ source_type: 'utm', session_pages: '2' });
  });
});
