import type { AttributionValues } from '../../shared/attribution/attributionFields';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { Consent } from '../consent/createConsent';
import { type AttributionTracker, createAttributionTracker } from './createAttributionTracker';
import { documentCookies } from './documentCookies';

declare global {
  interface Window {
    /** docs/contract.md: lets a consent tool switch order tracking at run time. */
    shopAttribution?: {
      setOrderTracking(allow: boolean): void;
      getFields(): AttributionValues;
    };
  }
}

let tracker: AttributionTracker | null = null;

/** Wires the tracker to this page (called once, from entry.tsx through startTracking). */
export function startAttribution(settings: PageSettings, consent: Consent): AttributionTracker {
  tracker = createAttributionTracker({
    settings: settings.attribution,
    consent,
    consentCategory: settings.consent.attributionCategory,
    cookies: documentCookies(document, {
      hostname: location.hostname,
      cookieDomain: settings.attribution.cookieDomain,
    }),
    landing: {
      href: location.href,
      hostname: location.hostname,
      search: location.search,
      referrer: document.referrer,
      userAgent: navigator.userAgent,
    },
    now: () => new Date(),
    random: Math.random,
  });
  tracker.start();
  window.shopAttribution = {
    setOrderTracking: (allow) => tracker?.setOrderTracking(allow),
    getFields: () => tracker?.getFields() ?? {},
  };
  return tracker;
}

/** The checkout's attribution values now (empty when tracking is off or has not started). */
export function getAttributionFields(): AttributionValues {
  return tracker?.getFields() ?? {};
}
