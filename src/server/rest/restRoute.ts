import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ShopError } from '../../shared/errors/ShopError';
import { checkRestNonce } from './checkRestNonce';
import { effectiveRestMethod, REST_METHODS, type RestMethod } from './restMethod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The methods a REST route answers (its others are `rest_no_route`), for the index at /wp-json/. */
    restMethods?: string[];
  }
}

type RestHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type RouteHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Registers one REST route for every method, dispatching on the effective method (`X-HTTP-Method-Override`
 * arrives as POST), so a method the route lacks is WordPress's 404 `rest_no_route` rather than a page's 404,
 * and the nonce is checked before any handler runs.
 */
export function restRoute(
  app: FastifyInstance,
  url: string,
  handlers: Partial<Record<RestMethod, RestHandler>>,
  options: {
    bodyLimit?: number;
    /**
     * Who may use some of the methods (e.g. `{methods: ['POST'], check: app.owner.requireOwner}`), checked before
     * the body is read: a refused upload costs no bytes.
     */
    guard?: { methods: RestMethod[]; check: RouteHook };
  } = {},
) {
  const { guard, ...routeOptions } = options;
  app.route({
    method: [...REST_METHODS],
    url,
    ...routeOptions,
    ...(guard && {
      onRequest: async function restGuard(request: FastifyRequest, reply: FastifyReply) {
        if (guard.methods.includes(effectiveRestMethod(request) as RestMethod))
          await guard.check(request, reply);
      },
    }),
    // What the index at /wp-json/ lists: the methods the route answers, not the ones it only refuses.
    config: { restMethods: Object.keys(handlers) },
    preHandler: checkRestNonce,
    handler: async function restDispatch(request, reply) {
      const handler = handlers[effectiveRestMethod(request) as RestMethod];
      if (!handler) {
        throw new ShopError('rest_no_route', 'No route was found matching the URL and request method.');
      }
      reply.header('cache-control', 'no-store');
      return handler(request, reply);
    },
  });
}
