import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Notice } from '../../client/theme/Notices';
import type { CartView } from '../../shared/cart/cartTypes';
import { toPageSettings } from '../../shared/settings/parseSettings';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { CartService } from '../cart/cartService';
import type { Repositories } from '../db/ports';
import { themePageState } from '../theme/themePageState';
import type { ClientAssets } from './clientAssets';
import { type PageDocument, renderPage } from './renderPage';

export interface PageOptions {
  status?: number;
  notices?: Notice[];
  searchQuery?: string;
}

export interface PagesPluginOptions {
  config: ShopConfig;
  assets: ClientAssets;
  repositories: Repositories;
  cartService: CartService;
}

declare module 'fastify' {
  interface FastifyReply {
    sendPage(page: PageDocument, options?: PageOptions): Promise<FastifyReply>;
  }
  interface FastifyRequest {
    /** The visitor's cart, priced against the current catalog; loaded once per request. */
    cartView(): Promise<CartView>;
  }
}

/** Renders pages for every feature: the layout, the visitor's cart in the header and the per-page settings. */
export const pagesPlugin = fp(
  async function pagesPlugin(app: FastifyInstance, options: PagesPluginOptions) {
    const baseSettings = toPageSettings(options.config);

    app.decorateRequest('cartView', function cartView(this: FastifyRequest) {
      const cached = (this as FastifyRequest & { cartViewPromise?: Promise<CartView> }).cartViewPromise;
      if (cached) return cached;
      const promise = this.visitor.cart().then((cart) => options.cartService.view(cart));
      (this as FastifyRequest & { cartViewPromise?: Promise<CartView> }).cartViewPromise = promise;
      return promise;
    });

    app.decorateReply(
      'sendPage',
      async function sendPage(this: FastifyReply, page: PageDocument, pageOptions: PageOptions = {}) {
        const request = this.request;
        const settings = {
          ...baseSettings,
          cart: {
            ...baseSettings.cart,
            storageKey:
              baseSettings.cart.storageKey ?? storageKeyFor(`${request.protocol}://${request.host}`),
            qtyNonce: app.nonces.create('set_cart_item_quantity', request.visitor),
          },
          rest: { ...baseSettings.rest, nonce: app.nonces.create('wp_rest', request.visitor) },
          stats: { ...baseSettings.stats, ...app.statsPageSettings?.(request, pageOptions.status ?? 200) },
        };
        const [cart, categories, theme] = await Promise.all([
          request.cartView(),
          options.repositories.catalog.listTerms('product_cat'),
          themePageState(request, baseSettings, page, options.repositories),
        ]);
        const html = renderPage(
          page,
          {
            cart,
            categories,
            searchQuery: pageOptions.searchQuery,
            notices: pageOptions.notices,
            theme,
          },
          settings,
          options.assets,
        );
        // Every page carries the visitor's cart and nonces bound to its own session id: never a shared cache.
        return this.status(pageOptions.status ?? 200)
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'private, no-cache')
          .send(html);
      },
    );
  },
  { name: 'shop-pages', fastify: '5.x', dependencies: ['shop-session'] },
);

/** CONTRACT.md "Cookies and storage": a short hash of the shop's base URL keys the browser's fragment storage. */
export function storageKeyFor(baseUrl: string): string {
  return createHash('md5').update(baseUrl).digest('hex').slice(0, 12);
}
