import type { PageSettings } from '../../shared/settings/settingsSchema';
import { createRestClient, type ShopRestClient } from './createRestClient';
import { isRestError } from './RestError';
import { readPreloadedResponses } from './readPreloadedResponses';

let pageClient: ShopRestClient | null = null;

/**
 * The page's one REST client, made from its `rest` settings on first use. Every browser call to the REST root goes
 * through it, so they all share the nonce and its refresh: a visitor whose session began after the page was
 * rendered (an add to cart without a page load) has a page nonce the server no longer accepts, and only a client
 * that fetches a fresh one and retries keeps that visitor's request from being lost.
 */
export function getShopRestClient(rest: PageSettings['rest']): ShopRestClient {
  pageClient ??= createRestClient({
    // Unbound on purpose: `window.fetch` called as another object's method throws "Illegal invocation".
    fetch: (input, init) => window.fetch(input, init),
    root: rest.root,
    nonce: rest.nonce,
    nonceEndpoint: rest.nonceEndpoint,
    preloaded: readPreloadedResponses(document),
  });
  return pageClient;
}

/** Whether `url` is under the REST root (same origin), e.g. `/wp-json/stats/v1/hit` under `/wp-json/`. */
export function isRestUrl(url: string, root: string, base = window.location.href): boolean {
  const target = new URL(url, base);
  const rootUrl = new URL(root, base);
  if (target.origin !== rootUrl.origin) return false;
  if (rootUrl.search) return target.pathname === rootUrl.pathname && target.searchParams.has('rest_route');
  return target.pathname.startsWith(rootUrl.pathname);
}

/**
 * A `fetch` for modules written against fetch (the statistics tracker): requests under the REST root go through
 * the page's REST client (nonce, one refresh and retry, `_locale`), everything else straight to the network. It
 * answers like fetch: an error status is a Response, only a network failure rejects.
 */
export function createRestAwareFetch(rest: PageSettings['rest']): typeof fetch {
  return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!isRestUrl(url, rest.root)) return window.fetch(input, init);
    try {
      return (await getShopRestClient(rest)({
        url,
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers).entries()),
        body: init.body ?? undefined,
        credentials: init.credentials,
        signal: init.signal ?? undefined,
        parse: false,
      })) as Response;
    } catch (error) {
      if (error instanceof Response) return error;
      if (isRestError(error) && error.code === 'fetch_error') throw new TypeError('Failed to fetch');
      throw error;
    }
  }) as typeof fetch;
}
