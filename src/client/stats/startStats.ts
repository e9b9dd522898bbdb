import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { Consent } from '../consent/createConsent';
import { createRestAwareFetch } from '../rest/shopRestClient';
import { createStatsTracker, type StatsTracker } from './createStatsTracker';

/** Wires the statistics tracker to the page: fetch, timers, activity, history navigation and link clicks. */
export function startStats(settings: PageSettings, consent: Consent): StatsTracker {
  const tracker = createStatsTracker({
    settings: settings.stats,
    consent,
    consentCategory: settings.consent.category,
    // Hits and pings go to the REST root: through the page's REST client, as every REST call does.
    fetch: createRestAwareFetch(settings.rest),
    location: () => window.location,
    referrer: document.referrer,
    doNotTrack: navigator.doNotTrack === '1' || (window as { doNotTrack?: string }).doNotTrack === '1',
    now: Date.now,
    setInterval: (run, ms) => window.setInterval(run, ms),
    clearInterval: (handle) => window.clearInterval(handle as number),
    console,
  });
  for (const type of ['click', 'keydown', 'scroll'] as const)
    window.addEventListener(type, () => tracker.activity(), { passive: true, capture: true });

  // SPEC.md §4: hits re-run on history navigation. pushState and replaceState fire no event, so they are wrapped.
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method].bind(history);
    history[method] = (...args: Parameters<History['pushState']>) => {
      original(...args);
      tracker.urlChanged();
    };
  }
  window.addEventListener('popstate', () => tracker.urlChanged());

  const onLinkClick = (event: MouseEvent) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!(link instanceof HTMLAnchorElement)) return;
    tracker.linkClicked({
      href: link.href,
      id: link.id,
      className: link.className,
      text: link.textContent ?? '',
      button: event.button,
    });
  };
  document.addEventListener('click', onLinkClick, { capture: true });
  // The middle button opens a link in a new tab without a click event.
  document.addEventListener('auxclick', onLinkClick, { capture: true });
  tracker.start();
  return tracker;
}
