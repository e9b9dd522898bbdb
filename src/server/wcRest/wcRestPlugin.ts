import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import type { OrderDesk } from '../orders/orderDesk';
import type { ApiKeyService } from './apiKeys/apiKeyService';
import type { WcContext } from './resources';
import { registerWcOrderRoutes } from './wcOrderRoutes';
import { registerWcProductRoutes } from './wcProductRoutes';
import { registerWcReportRoutes } from './wcReportRoutes';
import { WC_REST_BASE } from './wcRoute';

/*
 * The WooCommerce REST API v3 under /wp-json/wc/v3/ (docs/rest-api.md "WooCommerce REST API v3"), so tools made
 * for WooCommerce (shipping labels, accounting, automations) work unchanged: the shapes are in resources/, who may
 * call in wcAuth.ts, the rules are the back office's (the order desk, the catalog's owner methods).
 */

interface WcRestPluginOptions {
  config: ShopConfig;
  repositories: Repositories;
  orderDesk: OrderDesk;
  apiKeys: ApiKeyService;
}

export async function wcRestPlugin(app: FastifyInstance, options: WcRestPluginOptions) {
  const { config, repositories, orderDesk, apiKeys } = options;
  const configuredOrigin = config.server.mail.shopUrl?.replace(/\/$/, '') ?? null;
  /** Links in answers: the shop's public origin when the settings give it, else the request's own. */
  const contextOf = (request: FastifyRequest): WcContext & { currencySymbol: string } => ({
    decimals: config.shop.currency.decimals,
    origin: configuredOrigin ?? `${request.protocol}://${request.host}`,
    currencySymbol: config.shop.currency.symbol,
  });
  // The namespace's index, public as WordPress's are: tools call it to check that the API is there.
  const routes = new Map<string, string[]>();
  app.addHook('onRoute', function collectWcRoute(route) {
    if (!route.url.startsWith(`${WC_REST_BASE}/`)) return;
    const path = route.url.slice('/wp-json'.length).replace(/:(\w+)/g, '(?P<$1>[^/]+)');
    routes.set(path, route.config?.restMethods ?? []);
  });
  app.get(WC_REST_BASE, async function wcNamespaceIndex(request, reply) {
    reply.header('cache-control', 'no-store');
    return {
      namespace: 'wc/v3',
      routes: Object.fromEntries(
        [...routes].map(([path, methods]) => [path, { namespace: 'wc/v3', methods }]),
      ),
      _links: { up: [{ href: `${contextOf(request).origin}/wp-json/` }] },
    };
  });
  registerWcOrderRoutes(app, apiKeys, orderDesk, contextOf);
  registerWcProductRoutes(app, apiKeys, repositories, contextOf);
  registerWcReportRoutes(app, apiKeys, repositories.orderAdmin, contextOf);
}
