/*
 * The consent layer shared by order attribution and statistics (docs/contract.md `consent.mode`):
 * `none` allows everything; `api` asks WordPress's consent API (`window.wp_has_consent(category)`, changes
 * announced by the `wp_listen_for_consent_change` event); `banner` is our own cookie banner, whose choice is kept in
 * the `shop_cookie_consent` cookie (strictly necessary, so it needs no consent itself).
 */

declare global {
  interface Window {
    /** WordPress's consent API, when a consent plugin is on the page. */
    wp_has_consent?: (category: string) => boolean;
  }
}

export type ConsentMode = 'none' | 'api' | 'banner';

const CONSENT_COOKIE = 'shop_cookie_consent';
const CONSENT_CHANGE_EVENT = 'wp_listen_for_consent_change';

interface ConsentEnv {
  mode: ConsentMode;
  /** The page's window: `wp_has_consent` lives there. */
  window: Pick<Window, 'wp_has_consent'>;
  document: Pick<Document, 'cookie' | 'addEventListener' | 'removeEventListener'>;
}

export interface Consent {
  readonly mode: ConsentMode;
  has(category: string): boolean;
  /** The banner's choice (mode `banner`); any mode accepts it, so a test or an integration can grant consent. */
  choose(allow: boolean): void;
  /** True in banner mode until the visitor chose. */
  needsChoice(): boolean;
  subscribe(listener: () => void): () => void;
}

export function createConsent(env: ConsentEnv): Consent {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const bannerChoice = () =>
    /(?:^|;\s*)shop_cookie_consent=(allow|deny)(?:;|$)/.exec(env.document.cookie)?.[1];
  if (env.mode === 'api') env.document.addEventListener(CONSENT_CHANGE_EVENT, notify);

  return {
    mode: env.mode,
    has(category) {
      if (env.mode === 'none') return true;
      if (env.mode === 'banner') return bannerChoice() === 'allow';
      const hasConsent = env.window.wp_has_consent;
      // No consent plugin on the page means no consent was given.
      return typeof hasConsent === 'function' && hasConsent(category) === true;
    },
    choose(allow) {
      const year = 365 * 24 * 60 * 60;
      env.document.cookie = `${CONSENT_COOKIE}=${allow ? 'allow' : 'deny'}; max-age=${year}; path=/; SameSite=Lax`;
      notify();
    },
    needsChoice() {
      return env.mode === 'banner' && bannerChoice() === undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
