import type { FastifyBaseLogger } from 'fastify';
import type { ClaimedWebhookDelivery } from '../../shared/webhooks/webhookTypes';
import type { WebhookRepository } from '../db/ports';
import { OutboxLoop, retryDelay } from '../outbox/OutboxLoop';
import type { WebhookPayloadBuilder } from './webhookPayload';
import { fetchWebhookPoster, WEBHOOK_TIMEOUT_MS, type WebhookPoster } from './webhookRequest';

const MINUTE = 60_000;
/** The waits after the 1st, 2nd, 3rd and 4th failed attempt; the 5th failure gives the event up. */
export const WEBHOOK_RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
/** Failed attempts in a row (any events) that disable a webhook, as WooCommerce does. */
export const WEBHOOK_MAX_FAILURES = 5;
/** Well over one attempt (its timeout), so only a sender that died mid-delivery lets a claim go. */
const CLAIM_LEASE_MS = WEBHOOK_TIMEOUT_MS + MINUTE;
const CLAIM_BATCH = 10;
const CLOSE_FLUSH_MS = 3_000;

export interface WebhookSenderOptions {
  webhooks: WebhookRepository;
  buildPayload: WebhookPayloadBuilder;
  /** X-WC-Webhook-Source ('' leaves it out). */
  source: string;
  post?: WebhookPoster;
  now?: () => number;
  autoSend?: boolean;
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

const SILENT = { error() {}, warn() {} };

/**
 * Delivers the webhook outbox: claims due deliveries (each by one sender, in any process, on both engines),
 * builds and keeps each body at its first attempt, POSTs the batch in parallel (a hanging receiver holds only its
 * own delivery, for the timeout), logs every attempt, retries with growing waits and gives up after the fifth.
 * Nothing here runs inside a shopper's request: a checkout only writes the outbox row.
 */
export class WebhookSender {
  readonly #options: WebhookSenderOptions;
  readonly #post: WebhookPoster;
  readonly #now: () => number;
  readonly #log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  readonly #loop: OutboxLoop;

  constructor(options: WebhookSenderOptions) {
    this.#options = options;
    this.#post = options.post ?? fetchWebhookPoster();
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? SILENT;
    this.#loop = new OutboxLoop({
      drain: () => this.#sendDue(),
      autoSend: options.autoSend ?? true,
      pollMs: options.pollMs ?? 5_000,
      onError: (error) => this.#log.error({ err: error }, 'webhooks: delivery pass failed'),
    });
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop(CLOSE_FLUSH_MS);
  }

  /** Something was queued: deliver now rather than at the next poll. */
  kick(): void {
    this.#loop.kick();
  }

  /** Delivers what is due now; answers how many deliveries succeeded. */
  flush(): Promise<number> {
    return this.#loop.flush();
  }

  async #sendDue(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const now = this.#now();
      const claimed = await this.#options.webhooks.claimDue(now, now + CLAIM_LEASE_MS, CLAIM_BATCH);
      if (claimed.length === 0) return delivered;
      const results = await Promise.all(claimed.map((delivery) => this.#deliver(delivery)));
      delivered += results.filter(Boolean).length;
    }
  }

  async #deliver(delivery: ClaimedWebhookDelivery): Promise<boolean> {
    const { webhooks } = this.#options;
    const webhook = await webhooks.get(delivery.webhookId);
    if (!webhook) return false; // deleted meanwhile: its deliveries went with it
    const body =
      delivery.payload ??
      (await webhooks.freezePayload(
        delivery.id,
        JSON.stringify(await this.#options.buildPayload(delivery.topic, delivery.resourceId)),
      ));
    const attemptedAt = this.#now();
    const response = await this.#post({
      webhook,
      topic: delivery.topic,
      deliveryId: delivery.id,
      body,
      source: this.#options.source,
    });
    const retryAt =
      response.error === null || delivery.attempts >= WEBHOOK_MAX_ATTEMPTS
        ? null
        : this.#now() + retryDelay(WEBHOOK_RETRY_DELAYS_MS, delivery.attempts);
    if (response.error !== null)
      this.#log.warn(
        {
          webhookId: webhook.id,
          deliveryId: delivery.id,
          attempt: delivery.attempts,
          status: response.status,
        },
        retryAt === null ? 'webhooks: giving up a delivery' : 'webhooks: delivery failed, will retry',
      );
    await webhooks.recordAttempt(
      {
        deliveryId: delivery.id,
        webhookId: webhook.id,
        attempt: delivery.attempts,
        attemptedAt,
        responseStatus: response.status,
        durationMs: response.durationMs,
        error: response.error,
        retryAt,
      },
      WEBHOOK_MAX_FAILURES,
    );
    return response.error === null;
  }
}
