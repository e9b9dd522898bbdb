import type { PageSettings } from '../../shared/settings/settingsSchema';
import { type Consent, createConsent } from './createConsent';
import { mountConsentBanner } from './mountConsentBanner';

let consent: Consent | null = null;

/** The page's one consent object, shared by attribution and statistics; mounts the banner in `banner` mode. */
export function pageConsent(settings: PageSettings): Consent {
  if (consent) return consent;
  consent = createConsent({ mode: settings.consent.mode, window, document });
  if (consent.mode === 'banner') mountConsentBanner(document, consent);
  return consent;
}
