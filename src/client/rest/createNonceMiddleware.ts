import { isRestError } from './RestError';
import type { RestMiddleware, RestRequest } from './restTypes';

export interface NonceMiddleware extends RestMiddleware {
  /** The current nonce; replaced after a refresh, so later requests send the new one. */
  nonce: string | null;
}

const INVALID_NONCE = 'rest_cookie_invalid_nonce';

/** The error's code, also from a raw 403 Response (requests made with `parse: false`). */
async function errorCode(error: unknown): Promise<string | null> {
  if (isRestError(error)) return error.code;
  if (typeof Response !== 'undefined' && error instanceof Response && error.status === 403) {
    const body = (await error
      .clone()
      .json()
      .catch(() => null)) as { code?: unknown } | null;
    return typeof body?.code === 'string' ? body.code : null;
  }
  return null;
}

function withNonce(options: RestRequest, nonce: string | null): RestRequest {
  const headers = Object.fromEntries(
    Object.entries(options.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'x-wp-nonce'),
  );
  return { ...options, headers: nonce ? { ...headers, 'X-WP-Nonce': nonce } : headers };
}

/**
 * Sends the nonce as `X-WP-Nonce` (unless the request carries its own). When the server answers
 * `rest_cookie_invalid_nonce` (an expired page, a new session), it fetches a fresh nonce from the nonce
 * endpoint and retries exactly once; requests failing together share one refresh.
 */
export function createNonceMiddleware(
  initialNonce: string | null,
  refresh: { fetch: typeof fetch; nonceEndpoint: string | null },
): NonceMiddleware {
  let refreshing: Promise<string> | null = null;
  const fetchNonce = () => {
    refreshing ??= (async () => {
      const { fetch: fetchImpl } = refresh;
      const response = await fetchImpl(refresh.nonceEndpoint as string, { credentials: 'include' });
      if (!response.ok) throw new Error(`The nonce endpoint answered ${response.status}`);
      return (await response.text()).trim();
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  };

  const middleware = async function nonceMiddleware(
    options: RestRequest,
    next: (o: RestRequest) => Promise<unknown>,
  ) {
    const ownNonce = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'x-wp-nonce');
    const first = ownNonce ? options : withNonce(options, middleware.nonce);
    try {
      return await next(first);
    } catch (error) {
      if (!refresh.nonceEndpoint || (await errorCode(error)) !== INVALID_NONCE) throw error;
      let fresh: string;
      try {
        fresh = await fetchNonce();
      } catch {
        throw error;
      }
      middleware.nonce = fresh;
      return next(withNonce(options, fresh));
    }
  } as NonceMiddleware;
  middleware.nonce = initialNonce;
  return middleware;
}
