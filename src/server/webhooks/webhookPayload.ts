import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { WebhookTopic } from '../../shared/webhooks/webhookTypes';
import type { Repositories } from '../db/ports';
import { loadWcOrder, loadWcProduct, type WcContext } from '../wcRest/resources';

/*
 * A webhook's body: the resource in the REST API v3's shape (the same serializers as /wp-json/wc/v3/), built when
 * the delivery is first attempted, as WooCommerce builds it when its queued delivery runs. A deleted resource is
 * just `{"id": …}`, as WooCommerce sends it; so is a resource gone by the time its delivery runs.
 */

export type WebhookPayloadBuilder = (topic: WebhookTopic, resourceId: number) => Promise<unknown>;

export function wcContextOf(config: ShopConfig): WcContext & { currencySymbol: string } {
  return {
    decimals: config.shop.currency.decimals,
    origin: (config.server.mail.shopUrl ?? '').replace(/\/$/, ''),
    currencySymbol: config.shop.currency.symbol,
  };
}

export function webhookPayloadBuilder(
  repositories: Pick<Repositories, 'orderAdmin' | 'catalog'>,
  config: ShopConfig,
): WebhookPayloadBuilder {
  const context = wcContextOf(config);
  return async (topic, resourceId) => {
    const [resource, event] = topic.split('.');
    if (event === 'deleted') return { id: resourceId };
    const body =
      resource === 'order'
        ? await loadWcOrder(repositories, resourceId, context)
        : await loadWcProduct(repositories, resourceId, context);
    return body ?? { id: resourceId };
  };
}
