import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { MessagePage, type PageLink } from '../client/pages/MessagePage';
import { termUrl } from '../shared/catalog/urls';
import { isShopError, ShopError, type ShopErrorCode } from '../shared/errors/ShopError';
import type { ShopConfig } from '../shared/settings/settingsSchema';
import { adminPlugin } from './admin/adminPlugin';
import { adminProductsPlugin } from './admin/products/adminProductsPlugin';
import { ajaxPlugin, rewriteWcAjaxUrl, WC_AJAX_PATH } from './ajax/ajaxPlugin';
import { cartPlugin } from './cart/cartPlugin';
import { CartService } from './cart/cartService';
import { catalogPlugin } from './catalog/catalogPlugin';
import { STORED_IMAGE_BASE, STORED_IMAGE_DIR } from './catalog/images/storedImageSources';
import { checkoutPlugin } from './checkout/checkoutPlugin';
import { contentPlugin } from './content/contentPlugin';
import {
  createWriteRetryQueue,
  DEFAULT_WRITE_RETRY,
  type WriteRetryQueue,
} from './db/durableWrites/createWriteRetryQueue';
import type { CatalogRepository, Repositories } from './db/ports';
import type { ChangeNotifications } from './db/postgres/changeNotifications';
import { ERROR_STATUS } from './http/errorStatus';
import { guardUndecodableUrl, UNDECODABLE_URL_PATH } from './http/guardUndecodableUrl';
import { createLoopTurns } from './http/loopTurns';
import { insightsPlugin } from './insights/insightsPlugin';
import { createPurchaseFacts } from './insights/purchaseFacts';
import { type MailOptions, mailPlugin } from './mail/mailPlugin';
import { orderMailListener } from './mail/orderMailListener';
import { createOrderDesk, type OrderStatusListener } from './orders/orderDesk';
import { ownerPlugin } from './owner/ownerPlugin';
import { CLIENT_BASE, CLIENT_BUILD_DIR, type ClientAssets } from './render/clientAssets';
import { pagesPlugin } from './render/pagesPlugin';
import { restPlugin } from './rest/restPlugin';
import { reviewsPlugin } from './reviews/reviewsPlugin';
import { createReviewsView } from './reviews/reviewsView';
import { createSearchRecorder, type SearchRecorder } from './search/analytics/createSearchRecorder';
import { processPacer } from './search/BuildPacer';
import { createSearch } from './search/createSearch';
import type { SearchIndex } from './search/SearchIndex';
import type { SuggestionDecorator } from './search/SuggestionBuilder';
import { searchPlugin } from './search/searchPlugin';
import { RateLimiter } from './security/rateLimiter';
import { sessionPlugin } from './session/sessionPlugin';
import { siteFilesPlugin } from './siteFiles/siteFilesPlugin';
import { statsPlugin } from './stats/statsPlugin';
import type { StockAlertSenderSettings } from './stockAlerts/StockAlertSender';
import { stockAlertsPlugin } from './stockAlerts/stockAlertsPlugin';
import { swatchesPlugin } from './swatches/swatchesPlugin';
import { createApiKeyService } from './wcRest/apiKeys/apiKeyService';
import { wcRestPlugin } from './wcRest/wcRestPlugin';
import { type WebhookOptions, webhooksPlugin } from './webhooks/webhooksPlugin';

/** On close, how long writes still waiting for a busy database may hold the shutdown. */
const SHUTDOWN_WRITES_MS = 3_000;

export interface AppOptions {
  config: ShopConfig;
  repositories: Repositories;
  /** The HMAC secret for nonces and signatures (from the settings, or generated once and kept in the database). */
  secret: string;
  assets: ClientAssets;
  /** DATA_DIR: the folder of the SQLite file and of uploaded media. */
  dataDir: string;
  logger?: boolean | object;
  /** A search index that answers alone (default: an embedded MemorySearchIndex per process, rebuilt beside itself). */
  searchIndex?: SearchIndex;
  /** On PostgreSQL: the shared table index answering while this process's embedded replica builds. */
  searchFallback?: SearchIndex;
  /** On PostgreSQL: the notifications that wake the replica when another process commits a catalog change. */
  changeNotifications?: ChangeNotifications;
  /**
   * On SQLite: the built documentReadWorker, which reads and analyzes a big import's documents off the event loop
   * (left out, as when run from source, they are read on it).
   */
  searchReadWorker?: URL;
  /** Fill the suggestion slots (meta_before…content_after) of the search box's answers. */
  suggestionDecorators?: SuggestionDecorator[];
  /** Order mail's transport, clock and loop (default: from the settings; see mail/mailPlugin.ts). */
  mail?: MailOptions;
  /** Webhook delivery's poster, clock and loop (default: fetch, on a timer; see webhooks/webhooksPlugin.ts). */
  webhooks?: WebhookOptions;
  /** Told after an order's status changes in the back office; default: the customer's order mail. */
  orderStatusListener?: OrderStatusListener;
  /** The back-in-stock sender's timer and clock (default: every 5 s and after every write). */
  stockAlerts?: StockAlertSenderSettings;
}

/** Builds the shop's Fastify app without listening, so tests can `inject` requests into it. */
export async function buildApp({
  config,
  repositories,
  secret,
  assets,
  dataDir,
  logger = false,
  searchIndex,
  searchReadWorker,
  searchFallback,
  changeNotifications,
  suggestionDecorators,
  mail,
  webhooks,
  orderStatusListener,
  stockAlerts,
}: AppOptions): Promise<FastifyInstance> {
  const sendError = createErrorSender(repositories.catalog);
  const app = Fastify({
    logger,
    // A slug may be 200 characters, several times that percent-encoded; longer segments get a 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    trustProxy: config.server.trustProxy,
    bodyLimit: 1024 * 1024,
    // `/?wc-ajax=name` becomes an ordinary route owned by the ajax plugin (docs/contract.md "Endpoints").
    rewriteUrl: (request) => rewriteWcAjaxUrl(guardUndecodableUrl(request.url ?? '/')),
    // What the router still refuses (an over-long path segment) gets our error format, not Fastify's JSON. No
    // hook has run, so there is no visitor to render a page for: pages get the plain-text form of sendError.
    frameworkErrors: function unroutable(error, request, reply) {
      void sendError(
        request,
        reply,
        'invalid_request',
        error.statusCode ?? 400,
        'That address is not valid.',
      );
    },
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

  // Before every other hook: a request that must wait for its turn has done no work yet (http/loopTurns.ts).
  // While a build runs beside the search index, a turn's requests run their share next to its runs (BuildPacer).
  const loopTurns = createLoopTurns({
    sliceMs: () => Math.max(config.server.loopSliceMs, processPacer.requestSliceMs()),
  });
  app.addHook('onRequest', function takeTurn(_request, _reply, done) {
    const turn = loopTurns.take();
    if (turn === undefined) done();
    else void turn.then(() => done());
  });

  // One limiter for every abuse limit, shared by all processes through the database.
  app.decorate('rateLimiter', new RateLimiter(repositories.rateLimits, secret));
  // Writes made after a shopper's answer (search analytics, the owner's purchase facts): retried while the database
  // is busy, dropped only past its bounds, each drop counted (GET /healthz) and logged without its values.
  const durableWrites = createWriteRetryQueue({
    ...DEFAULT_WRITE_RETRY,
    onDrop: (drop) => app.log.warn(drop, 'a write was dropped'),
  });
  app.decorate('durableWrites', durableWrites);
  // Search analytics: batched through the retry queue, capped per client with the shared limiter.
  const searchAnalytics = createSearchRecorder({
    repository: repositories.search,
    rateLimiter: app.rateLimiter,
    durableWrites,
    perMinute: config.server.stats.recordedSearchesPerMinute,
  });
  app.decorate('searchAnalytics', searchAnalytics);
  app.addHook('onClose', async () => {
    // Let waiting writes land before the database closes, but never hold a shutdown on a database that stays busy.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      searchAnalytics.flush().then(() => durableWrites.idle()),
      new Promise((resolve) => {
        timer = setTimeout(resolve, SHUTDOWN_WRITES_MS);
      }),
    ]);
    clearTimeout(timer);
  });
  const cartService = new CartService(repositories.catalog);
  const search = await createSearch({
    config,
    repositories,
    secret,
    index: searchIndex,
    fallback: searchFallback,
    wakeUps: changeNotifications,
    readWorker: searchReadWorker,
    decorators: suggestionDecorators,
    onError: (error, message) => app.log.warn({ err: error }, message),
  });
  // Before the repositories close: a background build or the fallback's upkeep may still be writing.
  app.addHook('onClose', () => search.service.close());
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(sessionPlugin, {
    repositories,
    secret,
    ttlHours: config.server.sessionTtlHours,
    newSessionsPerHour: config.server.newSessionsPerHour,
  });
  await app.register(ownerPlugin, { config, repositories, secret });
  await app.register(mailPlugin, { config, repositories, dataDir, mail });
  await app.register(webhooksPlugin, { config, repositories, webhooks });
  await app.register(ajaxPlugin);
  await app.register(pagesPlugin, { config, assets, repositories, cartService, changeNotifications });
  // Pages kept with a lagging index's answers are dropped once it caught up (pagesPlugin.ts `rendersFromIndex`).
  app.pageCache.indexCaughtUp(search.service.indexedThrough);
  const stopFollowingIndex = search.service.onIndexed((through) => app.pageCache.indexCaughtUp(through));
  app.addHook('onClose', async () => stopFollowingIndex());
  await app.register(fastifyStatic, {
    root: CLIENT_BUILD_DIR,
    prefix: CLIENT_BASE,
    // Vite names every built file by its content hash.
    immutable: true,
    maxAge: '1y',
    // scripts/precompress.mjs writes .br/.gz siblings at build time; caches must key them by encoding.
    preCompressed: true,
    setHeaders: (response) => response.setHeader('vary', 'accept-encoding'),
    index: false,
  });

  // Product images the import stored resized (catalog-images/{key}-{width}.webp), named by content source.
  mkdirSync(join(dataDir, STORED_IMAGE_DIR), { recursive: true });
  await app.register(fastifyStatic, {
    root: join(dataDir, STORED_IMAGE_DIR),
    prefix: STORED_IMAGE_BASE,
    decorateReply: false,
    index: false,
    maxAge: '1d',
  });

  const reviewsView = createReviewsView(repositories.reviews, config.reviews);
  await app.register(catalogPlugin, {
    repositories,
    config,
    search: search.service,
    reviewsView,
    facets: search.facets,
  });
  await app.register(reviewsPlugin, { repositories, config, reviewsView });
  await app.register(searchPlugin, {
    repositories,
    config,
    search: search.service,
    suggestions: search.suggestions,
  });
  const purchaseFacts = createPurchaseFacts({ repositories, search: search.service, durableWrites });
  await app.register(cartPlugin, { repositories, cartService, config, purchaseFacts });
  await app.register(checkoutPlugin, { repositories, config, purchaseFacts });
  await app.register(stockAlertsPlugin, { repositories, config, secret, reviewsView, sender: stockAlerts });
  await app.register(contentPlugin, { repositories, secret });
  await app.register(siteFilesPlugin, { config, repositories });
  await app.register(swatchesPlugin, { repositories });
  // The `/wp-json/` index lists the REST routes registered after this plugin (statistics): keep it before them.
  await app.register(restPlugin, { config, repositories, dataDir });
  // After the REST plugin, whose multipart parser the CSV upload shares.
  await app.register(adminProductsPlugin, { repositories, config, dataDir });
  await app.register(statsPlugin, { repositories, config, secret });
  await app.register(insightsPlugin, { repositories, config, secret });
  const orderDesk = createOrderDesk({
    orders: repositories.orderAdmin,
    listener: orderStatusListener ?? orderMailListener(app.mail),
    extraNotes: (orderId) => app.mail.notesForOrder(orderId),
    logError: (error, message) => app.log.error({ err: error }, message),
  });
  const apiKeys = createApiKeyService(repositories.apiKeys);
  await app.register(adminPlugin, {
    config,
    orderDesk,
    apiKeys,
    webhookDesk: app.webhooks.desk,
    reviews: repositories.reviews,
  });
  await app.register(wcRestPlugin, { config, repositories, orderDesk, apiKeys });

  app.all(UNDECODABLE_URL_PATH, async function undecodableUrl() {
    throw new ShopError('invalid_request', 'That address is not valid.');
  });

  app.get('/healthz', async function healthz(_request, reply) {
    try {
      await repositories.ping();
      return reply.header('cache-control', 'no-store').send({
        status: 'ok',
        droppedWrites: durableWrites.dropped(),
        cappedWrites: { searchQueries: searchAnalytics.capped() },
        deferredRequests: loopTurns.deferred(),
        searchIndex: search.service.ready ? 'ready' : 'building',
        // SQLite: the documents of big imports read off the event loop, and the reads that thread failed.
        ...(search.readThread && { searchReadThread: search.readThread.stats() }),
      });
    } catch {
      return reply
        .status(503)
        .header('cache-control', 'no-store')
        .send({
          status: 'unavailable',
          droppedWrites: durableWrites.dropped(),
          cappedWrites: { searchQueries: searchAnalytics.capped() },
        });
    }
  });

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
    /** Fire-and-forget writes of a shopper's request, retried while the database is busy (db/durableWrites). */
    durableWrites: WriteRetryQueue;
    /** Search analytics: batched, capped per client (search/analytics). */
    searchAnalytics: SearchRecorder;
  }
}

type ResponseKind = 'rest' | 'ajax' | 'page';

function responseKind(request: FastifyRequest): ResponseKind {
  const url = request.url.startsWith(UNDECODABLE_URL_PATH) ? request.originalUrl : request.url;
  const path = url.split('?')[0] ?? '';
  if (path.startsWith('/wp-json/')) return 'rest';
  if (path.startsWith(WC_AJAX_PATH) || path === '/ajax' || path === '/healthz') return 'ajax';
  // The owner's insights data: JSON and CSV, so errors are `{code, message}`.
  if (path.startsWith('/insights/api/') || path.startsWith('/insights/export/')) return 'ajax';
  return 'page';
}

/**
 * The one place errors become responses: `{code, message, data}` for REST, `{code, message}` for ajax, a page
 * otherwise. A missing page offers the shop's top categories beside its search form.
 */
function createErrorSender(catalog: CatalogRepository) {
  async function categoryLinks(): Promise<PageLink[]> {
    const categories = await catalog.listTerms('product_cat').catch(() => []);
    return categories
      .filter((term) => term.parentId === null)
      .slice(0, 8)
      .map((term) => ({ href: termUrl(term), label: term.name }));
  }

  return async function sendError(
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
        const links = status === 404 ? await categoryLinks() : [];
        return reply.sendPage(
          { title, noindex: true, body: <MessagePage title={title} message={message} links={links} /> },
          { status },
        );
      }
    }
  };
}
