import {
  type ClaimedWebhookDelivery,
  WEBHOOK_STATUSES,
  WEBHOOK_TOPICS,
  type Webhook,
  type WebhookAttempt,
  type WebhookStatus,
  type WebhookTopic,
} from '../../shared/webhooks/webhookTypes';

/* Row mappers of the webhook tables (migration 0026), shared by both adapters; columns in db/sql/webhookSql.ts. */

function toTopic(value: unknown): WebhookTopic {
  const topic = String(value);
  if (!(WEBHOOK_TOPICS as readonly string[]).includes(topic))
    throw new Error(`Unknown webhook topic ${topic}`);
  return topic as WebhookTopic;
}

function toStatus(value: unknown): WebhookStatus {
  const status = String(value);
  if (!(WEBHOOK_STATUSES as readonly string[]).includes(status))
    throw new Error(`Unknown webhook status ${status}`);
  return status as WebhookStatus;
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

export function toWebhook(row: Record<string, unknown>): Webhook {
  return {
    id: Number(row.id),
    name: String(row.name),
    status: toStatus(row.status),
    topic: toTopic(row.topic),
    deliveryUrl: String(row.deliveryUrl),
    secret: String(row.secret),
    apiVersion: String(row.apiVersion),
    failureCount: Number(row.failureCount),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}

export function toClaimedDelivery(row: Record<string, unknown>): ClaimedWebhookDelivery {
  return {
    id: Number(row.id),
    webhookId: Number(row.webhookId),
    topic: toTopic(row.topic),
    resourceId: Number(row.resourceId),
    payload: row.payload === null || row.payload === undefined ? null : String(row.payload),
    attempts: Number(row.attempts),
  };
}

export function toWebhookAttempt(row: Record<string, unknown>): WebhookAttempt {
  return {
    id: Number(row.id),
    deliveryId: Number(row.deliveryId),
    topic: toTopic(row.topic),
    resourceId: Number(row.resourceId),
    attempt: Number(row.attempt),
    attemptedAt: Number(row.attemptedAt),
    responseStatus: numberOrNull(row.responseStatus),
    durationMs: Number(row.durationMs),
    error: row.error === null || row.error === undefined ? null : String(row.error),
  };
}

/** The statement that settles a delivery after an attempt, by its outcome. */
export function deliveryOutcome(result: {
  responseStatus: number | null;
  error: string | null;
  retryAt: number | null;
}) {
  if (result.error === null) return 'delivered' as const;
  return result.retryAt === null ? ('failed' as const) : ('retry' as const);
}
