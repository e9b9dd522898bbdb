import type { PageSettings } from '../../shared/settings/settingsSchema';
import { startAttribution } from '../attribution/attributionRuntime';
import { pageConsent } from '../consent/pageConsent';
import { startStats } from '../stats/startStats';

/** Starts the page's visitor tracking (order attribution, statistics) under one consent layer. */
export function startTracking(settings: PageSettings | null) {
  if (!settings) {
    // a missing settings object is logged as an error, and nothing is tracked.
    console.error('Tracking: the #shop-settings object is missing, so no visit is recorded.');
    return;
  }
  const consent = pageConsent(settings);
  startAttribution(settings, consent);
  startStats(settings, consent);
}
