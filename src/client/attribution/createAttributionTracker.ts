import { type AttributionValues, toAttributionFields } from '../../shared/attribution/attributionFields';
import {
  ATTRIBUTION_COOKIES,
  computeTrafficCookies,
  LEGACY_COOKIE,
  readTrafficData,
  type Visit,
} from '../../shared/attribution/computeTrafficCookies';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { Consent } from '../consent/createConsent';

/*
 * Order attribution in the browser: on each page view the traffic cookies are created
 * or refreshed, only while tracking is allowed (`attribution.allowTracking`, switched at run time by
 * `setOrderTracking`) and consent is given. Without consent yet, the landing visit (URL and referrer) is kept in
 * memory, never written, so a later consent still attributes it. Switching tracking off deletes every cookie.
 */

export interface CookieAccess {
  /** Every cookie of the page (name → raw value). */
  read(): Map<string, string>;
  /** Sets a cookie for `minutes`, where the shop's cookies live (the cookie domain is the access's concern). */
  write(name: string, value: string, minutes: number): void;
  /** Deletes every copy of a cookie. */
  remove(name: string): void;
}

export interface AttributionEnv {
  settings: PageSettings['attribution'];
  consent: Consent;
  consentCategory: string;
  cookies: CookieAccess;
  /** The page as it was when it loaded: the visit that a late consent still attributes. */
  landing: Omit<Visit, 'now'>;
  now: () => Date;
  random: () => number;
}

export interface AttributionTracker {
  /** Writes this page view's cookies if allowed; otherwise waits for consent. Call once per page. */
  start(): void;
  setOrderTracking(allow: boolean): void;
  isTracking(): boolean;
  /** The checkout fields from the cookies (empty while tracking is off). */
  getFields(): AttributionValues;
}

export function createAttributionTracker(env: AttributionEnv): AttributionTracker {
  let allowTracking = env.settings.allowTracking;
  let recorded = false;
  const allowed = () => allowTracking && env.consent.has(env.consentCategory);

  function record() {
    if (recorded || !allowed()) return;
    recorded = true;
    const { writes } = computeTrafficCookies(
      env.cookies.read(),
      { ...env.landing, now: env.now() },
      {
        lifetimeMonths: env.settings.lifetimeMonths,
        sessionMinutes: env.settings.sessionMinutes,
        cookieDomain: env.settings.cookieDomain,
        base64: env.settings.base64Cookies,
        random: env.random,
      },
    );
    for (const write of writes) env.cookies.write(write.name, write.value, write.minutes);
  }

  function removeAll() {
    const present = env.cookies.read();
    for (const name of [...ATTRIBUTION_COOKIES, ...Object.values(LEGACY_COOKIE)])
      if (present.has(name)) env.cookies.remove(name);
  }

  function update() {
    if (allowed()) record();
    else {
      // Tracking off or consent withdrawn: nothing of it may stay behind. A later consent records again.
      removeAll();
      recorded = false;
    }
  }

  return {
    start() {
      env.consent.subscribe(update);
      if (!allowTracking) removeAll();
      else record();
    },
    setOrderTracking(allow) {
      allowTracking = allow;
      update();
    },
    isTracking: allowed,
    getFields() {
      if (!allowed()) return {};
      return toAttributionFields(readTrafficData(env.cookies.read()));
    },
  };
}
