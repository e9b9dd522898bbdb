/* Webhooks as the back office and the sender see them. Times in Unix milliseconds. */

/** The topics the shop delivers: `resource.event`, named as WooCommerce names them. */
export const WEBHOOK_TOPICS = [
  'order.created',
  'order.updated',
  'product.updated',
  'product.deleted',
] as const;
export type WebhookTopic = (typeof WEBHOOK_TOPICS)[number];

export const WEBHOOK_TOPIC_LABELS: Record<WebhookTopic, string> = {
  'order.created': 'Order created',
  'order.updated': 'Order updated',
  'product.updated': 'Product updated',
  'product.deleted': 'Product deleted',
};

/** active: delivers; paused: the owner stopped it; disabled: stopped by the shop after repeated failures. */
export const WEBHOOK_STATUSES = ['active', 'paused', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

export const WEBHOOK_STATUS_LABELS: Record<WebhookStatus, string> = {
  active: 'Active',
  paused: 'Paused',
  disabled: 'Disabled',
};

/** The only API version the payloads follow (WooCommerce's REST API v3). */
export const WEBHOOK_API_VERSION = 'wp_api_v3';

export interface Webhook {
  id: number;
  name: string;
  status: WebhookStatus;
  topic: WebhookTopic;
  deliveryUrl: string;
  secret: string;
  apiVersion: string;
  /** Failed attempts in a row since the last success. */
  failureCount: number;
  createdAt: number;
  updatedAt: number;
}

/** What the owner sets; the secret is never blank by the time it is stored. */
export interface WebhookInput {
  name: string;
  status: WebhookStatus;
  topic: WebhookTopic;
  deliveryUrl: string;
  secret: string;
}

/** One row of a webhook's delivery log: one attempt to POST one event. */
export interface WebhookAttempt {
  id: number;
  /** The X-WC-Webhook-Delivery-ID the attempt carried (the same for every retry of one event). */
  deliveryId: number;
  topic: WebhookTopic;
  resourceId: number;
  attempt: number;
  attemptedAt: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out). */
  responseStatus: number | null;
  durationMs: number;
  /** Why it failed, in words; null for a 2xx answer. */
  error: string | null;
}

/** A queued event a sender has claimed: the webhook's id and the delivery's state. */
export interface ClaimedWebhookDelivery {
  id: number;
  webhookId: number;
  topic: WebhookTopic;
  resourceId: number;
  /** The body as first sent; null until the first attempt builds it. */
  payload: string | null;
  /** Attempts including this one. */
  attempts: number;
}

/** The outcome of one attempt, as the sender records it. */
export interface WebhookAttemptResult {
  deliveryId: number;
  webhookId: number;
  attempt: number;
  attemptedAt: number;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  /** For a failure: when to try again, or null to give up on this event. */
  retryAt: number | null;
}
