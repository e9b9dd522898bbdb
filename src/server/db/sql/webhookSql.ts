import type { WebhookTopic } from '../../../shared/webhooks/webhookTypes';
import type { OutboxClaim } from './outboxClaim';

/*
 * The webhook outbox's statements both engines run (named `@params`; PostgreSQL's adapters go through queryNamed).
 * ENQUEUE_WEBHOOK_EVENT is the one statement every change that webhooks report runs inside its own transaction.
 */

/**
 * Queues one delivery per active webhook of `@topic` for the resource `@resourceId`. Casts: PostgreSQL cannot
 * infer a parameter's type from an INSERT … SELECT's select list.
 */
export const ENQUEUE_WEBHOOK_EVENT = `INSERT INTO webhook_deliveries (webhook_id, topic, resource_id, next_attempt_at, created_at)
  SELECT id, topic, CAST(@resourceId AS BIGINT), CAST(@now AS BIGINT), CAST(@now AS BIGINT)
  FROM webhooks WHERE status = 'active' AND topic = @topic`;

export function webhookEventParams(topic: WebhookTopic, resourceId: number, now = Date.now()) {
  return { topic, resourceId, now };
}

export const WEBHOOK_COLUMNS = `id, name, status, topic, delivery_url AS "deliveryUrl", secret,
  api_version AS "apiVersion", failure_count AS "failureCount", created_at AS "createdAt", updated_at AS "updatedAt"`;

export const CLAIMED_DELIVERY_COLUMNS = `id, webhook_id AS "webhookId", topic, resource_id AS "resourceId", payload,
  attempts`;

/** The outbox claim (db/sql/outboxClaim.ts) of deliveries whose webhook is active: a paused one's wait. */
export const CLAIM_DELIVERIES: OutboxClaim = {
  table: 'webhook_deliveries',
  returning: CLAIMED_DELIVERY_COLUMNS,
  join: 'JOIN webhooks w ON w.id = d.webhook_id',
  where: "w.status = 'active'",
};

export const ATTEMPT_COLUMNS = `a.id, a.delivery_id AS "deliveryId", d.topic, d.resource_id AS "resourceId",
  a.attempt, a.attempted_at AS "attemptedAt", a.response_status AS "responseStatus", a.duration_ms AS "durationMs",
  a.error`;

export const INSERT_WEBHOOK = `INSERT INTO webhooks (name, status, topic, delivery_url, secret, created_at, updated_at)
  VALUES (@name, @status, @topic, @deliveryUrl, @secret, @now, @now) RETURNING ${WEBHOOK_COLUMNS}`;

/** A status set by the owner also forgets past failures (re-activating a disabled webhook starts afresh). */
export const UPDATE_WEBHOOK = `UPDATE webhooks SET name = @name, status = @status, topic = @topic,
  delivery_url = @deliveryUrl, secret = @secret, updated_at = @now,
  failure_count = CASE WHEN status = @status THEN failure_count ELSE 0 END
  WHERE id = @id RETURNING ${WEBHOOK_COLUMNS}`;

export const SELECT_WEBHOOK = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = @id`;
export const SELECT_WEBHOOKS = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY id`;
export const DELETE_WEBHOOK = 'DELETE FROM webhooks WHERE id = @id';

export const SET_PAYLOAD = `UPDATE webhook_deliveries SET payload = COALESCE(payload, @payload) WHERE id = @id
  RETURNING payload`;

export const INSERT_ATTEMPT = `INSERT INTO webhook_attempts
  (webhook_id, delivery_id, attempt, attempted_at, response_status, duration_ms, error)
  VALUES (@webhookId, @deliveryId, @attempt, @attemptedAt, @responseStatus, @durationMs, @error)`;

/** The newest attempts of a webhook are kept (as WooCommerce keeps 25 delivery logs); older ones go. */
export const ATTEMPTS_KEPT = 25;
export const PRUNE_ATTEMPTS = `DELETE FROM webhook_attempts WHERE webhook_id = @webhookId AND id <= (
  SELECT id FROM webhook_attempts WHERE webhook_id = @webhookId ORDER BY id DESC LIMIT 1 OFFSET ${ATTEMPTS_KEPT})`;

/** A settled delivery (and its body) goes once its attempts have left the log: what is kept stays bounded. */
export const PRUNE_DELIVERIES = `DELETE FROM webhook_deliveries WHERE webhook_id = @webhookId AND status <> 'queued'
  AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id)`;

export const MARK_DELIVERED = `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = @attemptedAt
  WHERE id = @deliveryId`;
export const MARK_RETRY = 'UPDATE webhook_deliveries SET next_attempt_at = @retryAt WHERE id = @deliveryId';
export const MARK_FAILED = "UPDATE webhook_deliveries SET status = 'failed' WHERE id = @deliveryId";

export const RESET_FAILURES = 'UPDATE webhooks SET failure_count = 0 WHERE id = @webhookId';
/**
 * Counts a failed attempt; the one that makes `@maxFailures` in a row disables an active webhook (a paused one
 * stays paused). One statement, so two senders failing at once count two.
 */
export const COUNT_FAILURE = `UPDATE webhooks SET failure_count = failure_count + 1,
  status = CASE WHEN status = 'active' AND failure_count + 1 >= @maxFailures THEN 'disabled' ELSE status END
  WHERE id = @webhookId`;

export const SELECT_ATTEMPTS = `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts a
  JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE a.webhook_id = @webhookId ORDER BY a.id DESC LIMIT @limit`;
