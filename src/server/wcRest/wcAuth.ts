import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ShopError } from '../../shared/errors/ShopError';
import type { ApiKey } from '../db/ports';
import { type ApiKeyService, permits } from './apiKeys/apiKeyService';

/*
 * Who may call /wp-json/wc/v3/, as WooCommerce decides it over HTTPS: an API key's consumer key and secret, in
 * `Authorization: Basic` (user = consumer key, password = secret) or in the `consumer_key` and `consumer_secret`
 * query parameters. A GET needs a key with read permission, anything else write permission.
 *
 * Keys travel in the clear, so they are taken only over HTTPS, or over plain HTTP from this machine (a script
 * on the server, tests). HTTPS is `request.protocol`: TLS on the socket, or, with `server.trustProxy`, a proxy's
 * `X-Forwarded-Proto: https`. "From this machine" is the socket's peer being a loopback address AND the request
 * carrying no forwarding header: a reverse proxy on the same host (which connects from 127.0.0.1) forwards
 * everyone's requests, so a proxied request counts as remote unless the trusted proxy says it came over HTTPS.
 * Wrong keys go through the owner's login limiter (per client across processes; 429 once locked).
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key a /wp-json/wc/v3/ request was made with (set by requireApiKey). */
    apiKey?: ApiKey;
  }
}

const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'x-real-ip',
];

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(plain) === 4) return plain.startsWith('127.');
  return plain === '::1';
}

/** Whether credentials may travel on this request: HTTPS, or plain HTTP from this machine without a proxy. */
export function isSecureEnough(request: FastifyRequest): boolean {
  if (request.protocol === 'https') return true;
  return (
    isLoopback(request.socket.remoteAddress) && FORWARDING_HEADERS.every((name) => !request.headers[name])
  );
}

/** The consumer key and secret the request carries, or null when it carries none. */
export function credentialsOf(request: FastifyRequest): { key: string; secret: string } | null {
  const [scheme = '', value = ''] = (request.headers.authorization ?? '').split(/\s+/, 2);
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (typeof query.consumer_key === 'string' && typeof query.consumer_secret === 'string')
    return { key: query.consumer_key, secret: query.consumer_secret };
  return null;
}

/** What WooCommerce answers a request without credentials, by what it tried to do. */
function refusal(method: string, collection: boolean): ShopError {
  switch (method) {
    case 'GET':
      return new ShopError(
        'woocommerce_rest_cannot_view',
        collection ? 'Sorry, you cannot list resources.' : 'Sorry, you cannot view this resource.',
      );
    case 'POST':
      return new ShopError(
        'woocommerce_rest_cannot_create',
        'Sorry, you are not allowed to create resources.',
      );
    case 'DELETE':
      return new ShopError(
        'woocommerce_rest_cannot_delete',
        'Sorry, you are not allowed to delete this resource.',
      );
    default:
      return new ShopError(
        'woocommerce_rest_cannot_edit',
        'Sorry, you are not allowed to edit this resource.',
      );
  }
}

/** The guard of every /wp-json/wc/v3/ route, run before the body is read; `method` is the effective one. */
export async function requireApiKey(
  keys: ApiKeyService,
  request: FastifyRequest,
  reply: FastifyReply,
  method: string,
): Promise<ApiKey> {
  const given = credentialsOf(request);
  if (!given && typeof (request.query as Record<string, unknown>)?.oauth_signature === 'string')
    // What WooCommerce's clients send over plain HTTP. Checking it needs the secret itself, which is not stored.
    throw new ShopError(
      'woocommerce_rest_authentication_error',
      'OAuth 1.0a signatures are not accepted: connect over HTTPS with the consumer key and secret.',
    );
  if (!given) throw refusal(method, !/\/:\w+$/.test(request.routeOptions.url ?? ''));
  if (!isSecureEnough(request))
    throw new ShopError(
      'woocommerce_rest_authentication_error',
      'API keys are accepted over HTTPS only (or over plain HTTP from the shop’s own machine).',
    );
  let key: ApiKey | null = null;
  const ok = await request.server.owner.checkLimited(request, reply, async () => {
    key = await keys.verify(given.key, given.secret);
    return key !== null;
  });
  if (!ok || key === null)
    throw new ShopError('woocommerce_rest_authentication_error', 'Consumer key or secret is invalid.');
  const found: ApiKey = key;
  const access = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  if (!permits(found.permissions, access))
    throw new ShopError(
      'woocommerce_rest_authentication_error',
      `The API key provided does not have ${access} permissions.`,
    );
  request.apiKey = found;
  return found;
}
