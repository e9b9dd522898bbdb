import { composeRestClient, type RestClient } from './composeRestClient';
import { createFetchHandler } from './createFetchHandler';
import { createNonceMiddleware, type NonceMiddleware } from './createNonceMiddleware';
import { createPreloadingMiddleware } from './createPreloadingMiddleware';
import { createRootUrlMiddleware } from './createRootUrlMiddleware';
import { fetchAllMiddleware } from './fetchAllMiddleware';
import { httpV1Middleware } from './httpV1Middleware';
import { mediaUploadMiddleware } from './mediaUploadMiddleware';
import type { PreloadedResponses } from './restTypes';
import { userLocaleMiddleware } from './userLocaleMiddleware';

interface RestClientOptions {
  /** The platform's fetch (tests pass a fake); it is called unbound. */
  fetch: typeof fetch;
  /** `rest.root` of the page settings: `/wp-json/`, or `/?rest_route=/` on WordPress without pretty permalinks. */
  root: string;
  /** `rest.nonce` of the page settings. */
  nonce: string | null;
  /** `rest.nonceEndpoint`: answers a fresh nonce as text (null: never refresh). */
  nonceEndpoint: string | null;
  /** Responses the server rendered into the page, served once each without a request. */
  preloaded?: PreloadedResponses;
}

export interface ShopRestClient extends RestClient {
  readonly nonceMiddleware: NonceMiddleware;
}

/**
 * The platform REST client, WordPress api-fetch's middlewares in WordPress's order: media upload recovery, preloaded
 * answers, nonce (with one refresh), root URL, `_locale=user`, method override, then `per_page=-1`.
 * It works unchanged against a WordPress site: everything it needs comes from these options.
 */
export function createRestClient(options: RestClientOptions): ShopRestClient {
  const nonceMiddleware = createNonceMiddleware(options.nonce, {
    fetch: options.fetch,
    nonceEndpoint: options.nonceEndpoint,
  });
  const client = composeRestClient(
    [
      mediaUploadMiddleware,
      ...(options.preloaded ? [createPreloadingMiddleware(options.preloaded)] : []),
      nonceMiddleware,
      createRootUrlMiddleware(options.root),
      userLocaleMiddleware,
      httpV1Middleware,
      fetchAllMiddleware,
    ],
    createFetchHandler(options.fetch),
  );
  return Object.assign(client, { nonceMiddleware });
}
