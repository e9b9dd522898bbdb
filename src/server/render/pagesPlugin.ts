import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { IslandMarkup } from '../../client/Island';
import type { Notice } from '../../client/theme/Notices';
import { isStoreNoticeDismissed } from '../../client/theme/storeNoticeCookie';
import type { CartView } from '../../shared/cart/cartTypes';
import type { Term } from '../../shared/catalog/types';
import { toPageSettings } from '../../shared/settings/parseSettings';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { CartService } from '../cart/cartService';
import type { Repositories } from '../db/ports';
import type { ChangeNotifications } from '../db/postgres/changeNotifications';
import { REVIEW_NONCE_ACTION } from '../reviews/reviewsView';
import { STOCK_ALERT_NONCE_ACTION } from '../stockAlerts/stockAlertsPlugin';
import { themePageState } from '../theme/themePageState';
import { createCardMarkup } from './cardMarkup';
import type { ClientAssets } from './clientAssets';
import { headerMenuMarkup } from './islandMarkup';
import { etagMatches, pageCacheKey, pickEncoding } from './pageCache/cacheKey';
import { type CachedPage, PageCache } from './pageCache/PageCache';
import { createPageChangeFollower, type PageChangeFollower } from './pageCache/pageChangeFollower';
import { ANY_CHANGE, pageTag } from './pageCache/pageTags';
import { type PageDocument, renderPage } from './renderPage';

interface PageOptions {
  status?: number;
  notices?: Notice[];
  searchQuery?: string;
  /**
   * When the render cache answers this page later instead of the handler: what the handler does on every visit
   * besides rendering (a search results page records the search).
   */
  onCacheHit?: (request: FastifyRequest) => void;
}

interface PagesPluginOptions {
  config: ShopConfig;
  assets: ClientAssets;
  repositories: Repositories;
  cartService: CartService;
  /** PostgreSQL's wake-up at each catalog commit: the cache reads the change log at the next request. */
  changeNotifications?: Pick<ChangeNotifications, 'subscribe'>;
}

/** What a cacheable request is rendered as, decided before its handler runs. */
interface SharedRender {
  key: string;
  /** The change-log position the cache reflected when the render began. */
  renderedFrom: number;
  /** What the page shows (pageCache/pageTags.ts), declared by its handler through `dependsOn`. */
  tags: Set<string>;
  /** The lowest position of an in-memory index the page shows answers of, when behind `renderedFrom`. */
  indexedAt?: number;
}

declare module 'fastify' {
  interface FastifyReply {
    sendPage(page: PageDocument, options?: PageOptions): Promise<FastifyReply>;
  }
  interface FastifyRequest {
    /** The visitor's cart, priced against the current catalog; loaded once per request. */
    cartView(): Promise<CartView>;
    /** Set while the page is rendered for the render cache (the same for every anonymous visitor). */
    sharedRender: SharedRender | null;
  }
  interface FastifyInstance {
    /**
     * The render cache of anonymous pages and the change log it follows (docs/scale-out.md), and the shop's
     * categories (`listTerms('product_cat')`) read once per change-log position, for every page that needs them.
     */
    pageCache: {
      cache: PageCache<FastifyRequest>;
      changes: PageChangeFollower;
      categories(): Promise<Term[]>;
      /** The in-memory indexes take in the change log up to `through` now (`rendersFromIndex`). */
      indexCaughtUp(through: number): void;
      /** How far they have, as last told. */
      indexedThrough(): number;
    };
  }
  interface FastifyContextConfig {
    /** The route's pages are the same for every anonymous visitor: the render cache may answer them. */
    pageCache?: boolean;
  }
}

/**
 * The nonce actions of forms on cacheable pages: their nonce field is empty in the cached page and the browser
 * asks `form-nonce` for the visitor's own just before the form is sent.
 */
const FORM_NONCE_ACTIONS = [REVIEW_NONCE_ACTION, STOCK_ALERT_NONCE_ACTION] as const;

/**
 * The longest a request waits for another's render of the same page: a render is settled when its request is
 * answered or aborted, so this only bounds a request that never is (a reply taken over by its handler).
 */
const WAIT_FOR_RENDER_MS = 3_000;

function settledOrAfter(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Routes whose pages the render cache may answer are marked with this route config. */
export const PAGE_CACHE_ROUTE = { config: { pageCache: true } } as const;

/**
 * A page that must not go into the render cache after all (a password-protected post): call before anything of the
 * visitor (a nonce) is rendered into it.
 */
export function skipPageCache(request: FastifyRequest): void {
  request.sharedRender = null;
  request.visitor.shared = false;
}

/**
 * Declares what the page being rendered shows (tags of pageCache/pageTags.ts), so the render cache drops it on
 * exactly the changes of those; a cached page that declares nothing is dropped by every catalog change.
 */
export function dependsOn(request: FastifyRequest, tags: Iterable<string>): void {
  const shared = request.sharedRender;
  if (!shared) return;
  for (const tag of tags) shared.tags.add(tag);
}

/**
 * The page being rendered shows answers of an in-memory index (search results, filter counts) that has taken in the
 * change log up to `position`. A big import is taken into the search index beside the answering one a second or two
 * after the cache has read it: a page rendered meanwhile shows the old matches and counts, as every render would
 * until then, so it is kept for that while and dropped when the index catches up (`app.pageCache.indexCaughtUp`);
 * before, it was kept until the next change of its tags.
 */
export function rendersFromIndex(request: FastifyRequest, position: number): void {
  const shared = request.sharedRender;
  if (shared && position < shared.renderedFrom)
    shared.indexedAt = Math.min(shared.indexedAt ?? position, position);
}

/** Renders pages for every feature: the layout, the visitor's cart in the header and the per-page settings. */
export const pagesPlugin = fp(
  async function pagesPlugin(app: FastifyInstance, options: PagesPluginOptions) {
    const baseSettings = toPageSettings(options.config);
    const cacheSettings = options.config.server.pageCache;
    const cache = new PageCache<FastifyRequest>(cacheSettings.maxBytes);
    // Settings are read once at start-up: a change is a new process, with an empty cache and other ETags.
    const changes = createPageChangeFollower(options.repositories.pageVersions, cache, {
      wakeUps: cache.enabled ? options.changeNotifications : undefined,
    });
    app.addHook('onClose', async () => changes.close());
    /** How far the in-memory indexes have caught up, and the positions pages kept were rendered from behind it. */
    let indexedThrough = Number.NEGATIVE_INFINITY;
    const keptBehind = new Set<number>();
    app.decorate('pageCache', {
      cache,
      changes,
      categories: async () => (await currentCatalogParts()).categories,
      indexCaughtUp(through: number) {
        indexedThrough = Math.max(indexedThrough, through);
        const stale = [...keptBehind].filter((position) => position < indexedThrough);
        for (const position of stale) keptBehind.delete(position);
        cache.dropTagged(stale.map(pageTag.indexedAt));
      },
      indexedThrough: () => indexedThrough,
    });
    /** Tags and keeping of a page showing a lagging index's answers: not kept once the index caught up meanwhile. */
    const indexLag = (shared: SharedRender) => {
      const at = shared.indexedAt;
      if (at === undefined) return { tags: [], keep: true };
      if (at < indexedThrough) return { tags: [], keep: false };
      keptBehind.add(at);
      return { tags: [pageTag.indexedAt(at)], keep: true };
    };
    const publicCacheControl =
      `public, max-age=0, s-maxage=${cacheSettings.cdnMaxAgeSeconds}` +
      `, stale-while-revalidate=${cacheSettings.staleWhileRevalidateSeconds}`;
    const emptyCart = () => options.cartService.view([]);
    // Product cards, rendered once per product version for every page that lists them (cardMarkup.tsx).
    const cards = createCardMarkup(baseSettings);
    // The shop's categories (read) and the header menu (its island rendered) once per change-log position, cache on
    // or off: they are the same on every page until the catalog changes.
    let catalogParts: { version: number; categories: Promise<Term[]>; menu: Promise<IslandMarkup> } | null =
      null;
    const readParts = () => {
      const categories = options.repositories.catalog.listTerms('product_cat');
      return { categories, menu: categories.then((each) => headerMenuMarkup(each, baseSettings)) };
    };
    async function currentCatalogParts() {
      const current = await changes.sync();
      if (current === null) return readParts();
      if (catalogParts?.version !== current) {
        const entry = { version: current, ...readParts() };
        catalogParts = entry;
        entry.menu.catch(() => {
          if (catalogParts === entry) catalogParts = null;
        });
      }
      return catalogParts;
    }
    const headerMenu = async () => (await currentCatalogParts()).menu;
    // A write through this process shows on its next page at once; other processes see it within the interval.
    // A callback hook: it runs after every response, and an async one costs a promise each time.
    app.addHook('onResponse', function staleAfterWrite(request, _reply, done) {
      if (request.method !== 'GET' && request.method !== 'HEAD') changes.markStale();
      done();
    });

    app.decorateRequest('sharedRender', null);
    app.decorateRequest('cartView', function cartView(this: FastifyRequest) {
      if (this.visitor.shared) return emptyCart();
      const cached = (this as FastifyRequest & { cartViewPromise?: Promise<CartView> }).cartViewPromise;
      if (cached) return cached;
      const promise = this.visitor.cart().then((cart) => options.cartService.view(cart));
      (this as FastifyRequest & { cartViewPromise?: Promise<CartView> }).cartViewPromise = promise;
      return promise;
    });

    /** The variant of the shared page this visitor sees, or null when the page would show something of theirs. */
    function sharedVariant(request: FastifyRequest): string | null {
      if (app.owner.isOwner(request)) return null;
      // While the shop is "coming soon" its banner talks to each visitor's session (its REST nonce, its dismissal):
      // a shop not open yet has no traffic to spare renders for.
      if (baseSettings.theme.comingSoon.enabled) return null;
      return isStoreNoticeDismissed(request.cookies, baseSettings.theme.storeNotice.id)
        ? 'notice-dismissed'
        : '';
    }

    function sendCached(reply: FastifyReply, entry: CachedPage<FastifyRequest>, outcome: 'hit' | 'miss') {
      const request = reply.request;
      reply
        .header('cache-control', publicCacheControl)
        .header('etag', entry.etag)
        .header('vary', 'accept-encoding')
        .header('x-shop-cache', outcome);
      if (etagMatches(request.headers['if-none-match'], entry.etag)) return reply.status(304).send();
      const encoding = pickEncoding(request.headers['accept-encoding']);
      const body = encoding === 'br' ? entry.br : encoding === 'gzip' ? entry.gzip : null;
      reply.status(200).header('content-type', 'text/html; charset=utf-8');
      if (encoding && body) return reply.header('content-encoding', encoding).send(body);
      return reply.send(entry.html);
    }

    if (cache.enabled) {
      /**
       * The renders of shared pages under way, by cache key, each settled once its request is answered. A request
       * for a page another one is rendering waits for that render and is answered from the cache (when it stored the
       * page): a popular page dropped by a change is rendered once, not once per visitor arriving meanwhile.
       */
      const rendering = new Map<string, Promise<void>>();
      const renderDone = new WeakMap<FastifyRequest, () => void>();
      const settleRender = async (request: FastifyRequest) => renderDone.get(request)?.();
      app.addHook('onResponse', settleRender);
      app.addHook('onRequestAbort', settleRender);

      app.addHook('onRequest', async function answerFromPageCache(request, reply) {
        if (request.method !== 'GET' || request.routeOptions.config?.pageCache !== true) return;
        const variant = sharedVariant(request);
        if (variant === null) return;
        const key = pageCacheKey(request, variant);
        const renderedFrom = await changes.sync();
        if (renderedFrom === null) return;
        const inFlight = rendering.get(key);
        if (inFlight) await settledOrAfter(inFlight, WAIT_FOR_RENDER_MS);
        const entry = cache.get(key);
        if (entry) {
          entry.onHit?.(request);
          return sendCached(reply, entry, 'hit');
        }
        if (!rendering.has(key)) {
          // This request renders it. One that waited already renders its own if the page was not stored (a cookie
          // set, an error): it never waits twice.
          let settle = () => {};
          const render = new Promise<void>((resolve) => {
            settle = resolve;
          });
          rendering.set(key, render);
          renderDone.set(request, () => {
            if (rendering.get(key) === render) rendering.delete(key);
            settle();
          });
        }
        request.sharedRender = { key, renderedFrom, tags: new Set() };
        request.visitor.shared = true;
      });
    }

    app.ajax.siteAjax('form-nonce', {
      schema: z.object({ for: z.enum(FORM_NONCE_ACTIONS, 'Unknown form') }),
      methods: ['GET'],
      // The visitor's own nonce for a form of a cached page, as text (like `rest-nonce`); never stored by anyone.
      async handle(input, request, reply) {
        return reply
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'private, no-store')
          .send(app.nonces.create(input.for, request.visitor));
      },
    });

    app.decorateReply(
      'sendPage',
      async function sendPage(this: FastifyReply, page: PageDocument, pageOptions: PageOptions = {}) {
        const request = this.request;
        const status = pageOptions.status ?? 200;
        // Only the page a cacheable route answers normally is shared; an error or notice page is the visitor's.
        if (request.sharedRender && status !== 200) skipPageCache(request);
        const shared = request.sharedRender;
        const settings = {
          ...baseSettings,
          cart: {
            ...baseSettings.cart,
            storageKey:
              baseSettings.cart.storageKey ?? storageKeyFor(`${request.protocol}://${request.host}`),
            // Shared pages carry no nonce: the mini-cart fragments carry the visitor's own.
            qtyNonce: shared ? null : app.nonces.create('set_cart_item_quantity', request.visitor),
          },
          // Shared pages carry none: the REST client asks `rest.nonceEndpoint` when a write is refused.
          rest: {
            ...baseSettings.rest,
            nonce: shared ? null : app.nonces.create('wp_rest', request.visitor),
          },
          stats: { ...baseSettings.stats, ...app.statsPageSettings?.(request, status) },
        };
        const [cart, menuMarkup, theme] = await Promise.all([
          request.cartView(),
          headerMenu(),
          themePageState(request, baseSettings, page, options.repositories),
        ]);
        const html = renderPage(
          page,
          {
            cart,
            headerMenu: menuMarkup,
            searchQuery: pageOptions.searchQuery,
            notices: pageOptions.notices,
            theme,
          },
          settings,
          options.assets,
          cards.markup,
        );
        // A handler that set a cookie made the answer this visitor's own after all.
        if (shared && !this.hasHeader('set-cookie')) {
          const lag = indexLag(shared);
          return sendCached(
            this,
            cache.set(shared.key, html, {
              tags: [...(shared.tags.size > 0 ? shared.tags : [ANY_CHANGE]), ...lag.tags],
              renderedFrom: shared.renderedFrom,
              onHit: pageOptions.onCacheHit,
              keep: lag.keep,
            }),
            'miss',
          );
        }
        // Every other page carries the visitor's cart and nonces bound to its own session id: never a shared cache.
        // As bytes: encoded once, where a string is measured for its length and then encoded again.
        return this.status(status)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'private, no-cache')
          .send(Buffer.from(html));
      },
    );
  },
  { name: 'shop-pages', fastify: '5.x', dependencies: ['shop-session'] },
);

/** docs/contract.md "Cookies and storage": a short hash of the shop's base URL keys the browser's fragment storage. */
function storageKeyFor(baseUrl: string): string {
  return createHash('md5').update(baseUrl).digest('hex').slice(0, 12);
}
