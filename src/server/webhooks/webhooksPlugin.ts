import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { WebhookSender } from './WebhookSender';
import { createWebhookDesk, type WebhookDesk } from './webhookDesk';
import { webhookPayloadBuilder } from './webhookPayload';
import { pingWebhook, type WebhookPoster } from './webhookRequest';

/** How the app delivers webhooks; every field optional (tests pass a clock, a poster, no loop). */
export interface WebhookOptions {
  post?: WebhookPoster;
  ping?: (webhook: { id: number; deliveryUrl: string }) => Promise<string | null>;
  now?: () => number;
  /** Deliver right after a change and on a timer (default true). */
  autoSend?: boolean;
  pollMs?: number;
}

interface WebhooksPluginOptions {
  config: ShopConfig;
  repositories: Repositories;
  webhooks?: WebhookOptions;
}

/** `app.webhooks`: the owner's desk and the sender every process runs. */
export interface ShopWebhooks {
  desk: WebhookDesk;
  /** Deliver what is due now rather than at the next poll (never waits). */
  kick(): void;
  /** Delivers what is due now; answers how many deliveries succeeded. */
  flush(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: ShopWebhooks;
  }
}

/**
 * Requests after which something may have been queued (an order placed, a status or product changed, by a page,
 * a form or the REST API): the sender is kicked once they are answered, so delivery follows at once without the
 * shopper's request waiting for it. The timer catches everything else (other processes, retries).
 */
function mayHaveQueued(method: string, url: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  return (
    url.startsWith('/checkout') ||
    url.startsWith('/admin/') ||
    url.startsWith('/wp-json/wc/') ||
    url.startsWith('/wc-ajax/')
  );
}

export const webhooksPlugin = fp(
  async function webhooksPlugin(
    app: FastifyInstance,
    { config, repositories, webhooks = {} }: WebhooksPluginOptions,
  ) {
    const shopUrl = config.server.mail.shopUrl;
    const sender = new WebhookSender({
      webhooks: repositories.webhooks,
      buildPayload: webhookPayloadBuilder(repositories, config),
      source: shopUrl ? `${shopUrl.replace(/\/$/, '')}/` : '',
      post: webhooks.post,
      now: webhooks.now,
      autoSend: webhooks.autoSend,
      pollMs: webhooks.pollMs,
      log: app.log,
    });
    const desk = createWebhookDesk({
      webhooks: repositories.webhooks,
      ping: webhooks.ping ?? ((webhook) => pingWebhook(webhook)),
      onChange: () => sender.kick(),
      now: webhooks.now,
    });
    app.decorate('webhooks', {
      desk,
      kick: () => sender.kick(),
      flush: () => sender.flush(),
    } satisfies ShopWebhooks);
    app.addHook('onResponse', async function kickWebhooks(request, reply) {
      if (reply.statusCode < 400 && mayHaveQueued(request.method, request.url)) sender.kick();
    });
    app.addHook('onReady', async () => {
      sender.start();
      sender.kick(); // what a previous run (or a crash) left queued
    });
    app.addHook('onClose', async () => sender.stop());
  },
  { name: 'shop-webhooks', fastify: '5.x' },
);
