import type { KeyValueStorage } from './core/createHistoryStore';
import type { SearchEnv, ShopSearchHooks } from './core/createSearchStore';
import { type AnalyticsModule, trackSearch } from './core/trackSearch';

declare global {
  interface Window {
    /** docs/contract.md "Search box behaviour": the integrator's hooks (onError, onSelect, onSubmit). */
    shopSearch?: ShopSearchHooks;
    gtag?: (...args: unknown[]) => void;
    dataLayer?: unknown[];
  }
}

function localStorageOrNull(): KeyValueStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage blocked by the browser's privacy settings: the box works without history.
    return null;
  }
}

/**
 * The real browser behind the core's env. Everything touches `window` lazily, so the same store can be built
 * while the server renders the page.
 */
export function createBrowserSearchEnv(options: {
  analytics: { enabled: boolean; modules: readonly AnalyticsModule[] };
  submitForm(): void;
}): SearchEnv {
  return {
    fetch: (input, init) => window.fetch(input, { credentials: 'same-origin', ...init }),
    storage: localStorageOrNull(),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    navigate(url, { newTab }) {
      if (newTab) window.open(url, '_blank', 'noopener');
      else window.location.assign(url);
    },
    submitForm: options.submitForm,
    hooks: () => (typeof window === 'undefined' ? undefined : window.shopSearch),
    track: options.analytics.enabled
      ? (event) => trackSearch(window, event, options.analytics.modules)
      : undefined,
  };
}
