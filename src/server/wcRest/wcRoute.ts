import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ShopError } from '../../shared/errors/ShopError';
import { parseRestInput } from '../rest/parseRestInput';
import { effectiveRestMethod, REST_METHODS, type RestMethod } from '../rest/restMethod';
import type { ApiKeyService } from './apiKeys/apiKeyService';
import { requireApiKey } from './wcAuth';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export const WC_REST_BASE = '/wp-json/wc/v3';

/**
 * Registers one /wp-json/wc/v3/ route for every method, as restRoute does for wp/v2 (a method the route lacks is
 * `rest_no_route`; `X-HTTP-Method-Override` on POST), but guarded by an API key instead of a cookie nonce: the
 * key is checked in onRequest, before the body is read, so a refused write costs no bytes.
 */
export function wcRoute(
  app: FastifyInstance,
  keys: ApiKeyService,
  path: string,
  handlers: Partial<Record<RestMethod, Handler>>,
) {
  app.route({
    method: [...REST_METHODS],
    url: `${WC_REST_BASE}${path}`,
    config: { restMethods: Object.keys(handlers) },
    onRequest: async function wcApiKey(request, reply) {
      const method = effectiveRestMethod(request);
      // An unknown method is answered rest_no_route by the handler; it needs no key to learn that.
      if (!handlers[method as RestMethod]) return;
      await requireApiKey(keys, request, reply, method);
    },
    handler: async function wcDispatch(request, reply) {
      reply.header('cache-control', 'no-store');
      const handler = handlers[effectiveRestMethod(request) as RestMethod];
      if (!handler)
        throw new ShopError('rest_no_route', 'No route was found matching the URL and request method.');
      return handler(request, reply);
    },
  });
}

/** The request's body as an object (JSON, or form fields), for parsing; an absent body is {}. */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** Query parameters with the credentials left out, so no key is echoed into a link. */
function publicQuery(request: FastifyRequest): URLSearchParams {
  const params = new URLSearchParams(request.url.split('?', 2)[1] ?? '');
  params.delete('consumer_key');
  params.delete('consumer_secret');
  return params;
}

/**
 * A list with WooCommerce's pagination headers: `X-WP-Total`, `X-WP-TotalPages`, and `Link` with `rel="prev"` /
 * `rel="next"` repeating the query (never the consumer key or secret) with another `page`. A page past the last
 * is an empty list, as WooCommerce answers it.
 */
export function sendWcPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  origin: string,
  { items, total, page, perPage }: { items: T[]; total: number; page: number; perPage: number },
) {
  const totalPages = Math.ceil(total / perPage);
  const path = request.url.split('?', 1)[0] ?? '';
  const pageUrl = (target: number) => {
    const params = publicQuery(request);
    params.set('page', String(target));
    return `${origin}${path}?${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1 && totalPages > 0) links.push(`<${pageUrl(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
  reply.header('X-WP-Total', String(total)).header('X-WP-TotalPages', String(totalPages));
  if (links.length > 0) reply.header('Link', links.join(', '));
  return reply.send(items);
}

/** parseRestInput for WooCommerce routes (same `rest_invalid_param` code WordPress and WooCommerce use). */
export function parseWcInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  return parseRestInput(schema, input);
}
