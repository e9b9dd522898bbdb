import type { FastifyReply, FastifyRequest } from 'fastify';
import { ShopError } from '../../shared/errors/ShopError';
import { effectiveRestMethod } from './restMethod';

/** The nonce action of the page settings' `rest.nonce`, WordPress's name for it. */
export const REST_NONCE_ACTION = 'wp_rest';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * preHandler for every `/wp-json/` route (other plugins' too: `preHandler: checkRestNonce`). A state change needs
 * a valid `X-WP-Nonce` (or `_wpnonce`) bound to the visitor's own session id (a request without one never passes);
 * a read needs none, but a nonce that is
 * sent must be valid, as in WordPress, so a stale page learns it must refresh. 403 `rest_cookie_invalid_nonce`
 * is what the REST client reacts to by fetching a new nonce and retrying once.
 */
export async function checkRestNonce(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // API clients (an application password, the owner token) prove themselves on every request with a header no
  // cross-site page can make a browser send, so they need no cookie nonce; wrong credentials are a 401.
  if (request.server.owner.hasCredentials(request)) {
    await request.server.owner.requireOwner(request, reply);
    return;
  }
  const header = request.headers['x-wp-nonce'];
  const query = (request.query as Record<string, unknown> | undefined)?._wpnonce;
  const nonce = typeof header === 'string' ? header : typeof query === 'string' ? query : undefined;
  if (nonce === undefined && SAFE_METHODS.has(effectiveRestMethod(request))) return;
  if (!request.server.nonces.verify(nonce, REST_NONCE_ACTION, request.visitor)) {
    throw new ShopError('rest_cookie_invalid_nonce', 'Cookie check failed');
  }
}
