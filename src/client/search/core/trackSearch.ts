import type { AnalyticsEvent } from './createSearchStore';

/** The analytics globals the page may have (Google's gtag.js and Tag Manager). */
export interface AnalyticsTarget {
  gtag?: (...args: unknown[]) => void;
  dataLayer?: unknown[];
  location: { origin: string };
}

/**
 * SPEC.md §7 call 12: events for searches with and without results, and a site-search page view of the form
 * /?s={query}&post_type=product&dgwt_wcas=1, sent to gtag or pushed to dataLayer when present.
 */
export function trackSearch(target: AnalyticsTarget, event: AnalyticsEvent): void {
  const { query } = event;
  const pagePath = `/?s=${encodeURIComponent(query)}&post_type=product&dgwt_wcas=1`;
  if (event.kind === 'pageview') {
    const params = {
      page_location: `${target.location.origin}${pagePath}`,
      page_path: pagePath,
      search_term: query,
    };
    if (target.gtag) target.gtag('event', 'page_view', params);
    else target.dataLayer?.push({ event: 'page_view', ...params });
    return;
  }
  const name = event.kind === 'results' ? 'search_with_results' : 'search_no_results';
  const params = { event_category: 'shop_search', event_label: query, search_term: query };
  if (target.gtag) target.gtag('event', name, params);
  else target.dataLayer?.push({ event: name, ...params });
}
