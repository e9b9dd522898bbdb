import type { AnalyticsEvent } from './createSearchStore';

/** The analytics globals the page may have (Google's gtag.js and Tag Manager). */
interface AnalyticsTarget {
  gtag?: (...args: unknown[]) => void;
  dataLayer?: unknown[];
  location: { origin: string };
}

/** `search.analytics.modules`: `gtag` calls gtag.js, `ga4` pushes to the Tag Manager / GA4 dataLayer. */
export type AnalyticsModule = 'ga4' | 'gtag';

/**
 * As FiboSearch does: events for searches with and without results, and a site-search page view of the form
 * /?s={query}&post_type=product&dgwt_wcas=1. With no modules named, the event goes to gtag when present, else
 * to dataLayer; naming modules sends it to exactly those, so a shop with both globals counts a search once in
 * the tool it chose.
 */
export function trackSearch(
  target: AnalyticsTarget,
  event: AnalyticsEvent,
  modules: readonly AnalyticsModule[] = [],
): void {
  const toGtag = modules.length === 0 ? !!target.gtag : modules.includes('gtag');
  const toDataLayer = modules.length === 0 ? !target.gtag : modules.includes('ga4');
  const send = (name: string, params: Record<string, string>) => {
    if (toGtag) target.gtag?.('event', name, params);
    if (toDataLayer) target.dataLayer?.push({ event: name, ...params });
  };
  const { query } = event;
  const pagePath = `/?s=${encodeURIComponent(query)}&post_type=product&dgwt_wcas=1`;
  if (event.kind === 'pageview') {
    const params = {
      page_location: `${target.location.origin}${pagePath}`,
      page_path: pagePath,
      search_term: query,
    };
    send('page_view', params);
    return;
  }
  const name = event.kind === 'results' ? 'search_with_results' : 'search_no_results';
  const params = { event_category: 'shop_search', event_label: query, search_term: query };
  send(name, params);
}
