import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import type { OrderDesk } from '../orders/orderDesk';
import type { ApiKeyService } from './apiKeys/apiKeyService';
import type { WcContext } from './resources';
import { registerWcOrderRoutes } from './wcOrderRoutes';
import { registerWcProductRoutes } from './wcProductRoutes';
import { registerWcReportRoutes } from './wcReportRoutes';

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
  registerWcOrderRoutes(app, apiKeys, orderDesk, contextOf);
  registerWcProductRoutes(app, apiKeys, repositories, contextOf);
  registerWcReportRoutes(app, apiKeys, repositories.orderAdmin, contextOf);
}
