import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { MessagePage } from '../client/pages/MessagePage';
import { isShopError, type ShopErrorCode } from '../shared/errors/ShopError';
import type { ShopConfig } from '../shared/settings/settingsSchema';
import { ajaxPlugin, rewriteWcAjaxUrl, WC_AJAX_PATH } from './ajax/ajaxPlugin';
import { cartPlugin } from './cart/cartPlugin';
import { CartService } from './cart/cartService';
import { catalogPlugin } from './catalog/catalogPlugin';
import { checkoutPlugin } from './checkout/checkoutPlugin';
import { contentPlugin } from './content/contentPlugin';
import type { Repositories } from './db/repositories';
import { ERROR_STATUS } from './http/errorStatus';
import { CLIENT_BASE, CLIENT_BUILD_DIR, type ClientAssets } from './render/clientAssets';
import { pagesPlugin } from './render/pagesPlugin';
import { createSearch } from './search/createSearch';
import { searchPlugin } from './search/searchPlugin';
import { sessionPlugin } from './session/sessionPlugin';

export interface AppOptions {
  config: ShopConfig;
  repositories: Repositories;
  /** The HMAC secret for nonces and signatures (from the settings, or generated once and kept in the database). */
  secret: string;
  assets: ClientAssets;
  logger?: boolean | object;
}

/** Builds the shop's Fastify app without listening, so tests can `inject` requests into it. */
export async function buildApp({
  config,
  repositories,
  secret,
  assets,
  logger = false,
}: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: config.server.trustProxy,
    bodyLimit: 1024 * 1024,
    // `/?wc-ajax=name` becomes an ordinary route owned by the ajax plugin (CONTRACT.md "Endpoints").
    rewriteUrl: (request) => rewriteWcAjaxUrl(request.url ?? '/'),
  });

  // Set before any plugin is registered: encapsulated plugins inherit the handlers their parent has then.
  app.setNotFoundHandler(async function notFound(request, reply) {
    return sendError(request, reply, 'not_found', 404, 'The page you are looking for does not exist.');
  });
  app.setErrorHandler(async function errorHandler(error: FastifyError, request, reply) {
    if (isShopError(error))
      return sendError(request, reply, error.code, ERROR_STATUS[error.code], error.message, error.details);
    // Fastify's own client errors (bad JSON, unsupported media type, body too large) keep their 4xx status.
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(request, reply, 'invalid_request', error.statusCode, error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(
      request,
      reply,
      'internal_error',
      500,
      'Something went wrong on our side. Please try again.',
    );
  });

  const cartService = new CartService(repositories.catalog);
  const search = await createSearch({ config, repositories, secret });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(sessionPlugin, { repositories, secret, ttlHours: config.server.sessionTtlHours });
  await app.register(ajaxPlugin);
  await app.register(pagesPlugin, { config, assets, repositories, cartService });
  await app.register(fastifyStatic, {
    root: CLIENT_BUILD_DIR,
    prefix: CLIENT_BASE,
    // Vite names every built file by its content hash.
    immutable: true,
    maxAge: '1y',
    index: false,
  });

  await app.register(catalogPlugin, { repositories, config, search: search.service });
  await app.register(searchPlugin, {
    repositories,
    config,
    search: search.service,
    suggestions: search.suggestions,
  });
  await app.register(cartPlugin, { repositories, cartService, config });
  await app.register(checkoutPlugin, { repositories, config });
  await app.register(contentPlugin, { repositories, secret });

  app.get('/healthz', async function healthz(_request, reply) {
    try {
      await repositories.ping();
      return reply.header('cache-control', 'no-store').send({ status: 'ok' });
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  return app;
}

type ResponseKind = 'rest' | 'ajax' | 'page';

function responseKind(request: FastifyRequest): ResponseKind {
  const path = request.url.split('?')[0] ?? '';
  if (path.startsWith('/wp-json/')) return 'rest';
  if (path.startsWith(WC_AJAX_PATH) || path === '/ajax' || path === '/healthz') return 'ajax';
  return 'page';
}

/** The one place errors become responses: `{code, message, data}` for REST, `{code, message}` for ajax, a page otherwise. */
async function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ShopErrorCode,
  status: number,
  message: string,
  details: Record<string, unknown> = {},
) {
  reply.status(status).header('cache-control', 'no-store');
  switch (responseKind(request)) {
    case 'rest':
      return reply.send({ code, message, data: { status, ...details } });
    case 'ajax':
      return reply.send({ code, message, ...(Object.keys(details).length > 0 ? { data: details } : {}) });
    case 'page': {
      const title =
        status === 404 ? 'Page not found' : status >= 500 ? 'Something went wrong' : 'We could not do that';
      if (!request.visitor) return reply.type('text/plain; charset=utf-8').send(`${title}: ${message}`);
      return reply.sendPage(
        { title, noindex: true, body: <MessagePage title={title} message={message} /> },
        { status },
      );
    }
  }
}
