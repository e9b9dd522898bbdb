import type { WebhookAttemptResult, WebhookInput, WebhookTopic } from '../../../shared/webhooks/webhookTypes';
import type { WebhookRepository } from '../ports';
import { claimDueSql } from '../sql/outboxClaim';
import {
  CLAIM_DELIVERIES,
  COUNT_FAILURE,
  DELETE_WEBHOOK,
  ENQUEUE_WEBHOOK_EVENT,
  INSERT_ATTEMPT,
  INSERT_WEBHOOK,
  MARK_DELIVERED,
  MARK_FAILED,
  MARK_RETRY,
  PRUNE_ATTEMPTS,
  PRUNE_DELIVERIES,
  RESET_FAILURES,
  SELECT_ATTEMPTS,
  SELECT_WEBHOOK,
  SELECT_WEBHOOKS,
  SET_PAYLOAD,
  UPDATE_WEBHOOK,
  webhookEventParams,
} from '../sql/webhookSql';
import { deliveryOutcome, toClaimedDelivery, toWebhook, toWebhookAttempt } from '../webhookRows';
import { queryNamed } from './namedQuery';
import { inTransaction, type PgPool } from './openPostgres';

const CLAIM_DELIVERIES_PG = claimDueSql('postgres', CLAIM_DELIVERIES);

export class PgWebhookRepository implements WebhookRepository {
  #pool: PgPool;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async list() {
    return (await queryNamed(this.#pool, SELECT_WEBHOOKS, {})).map(toWebhook);
  }

  async get(id: number) {
    const [row] = await queryNamed(this.#pool, SELECT_WEBHOOK, { id });
    return row ? toWebhook(row) : null;
  }

  async create(input: WebhookInput, now: number) {
    const [row] = await queryNamed(this.#pool, INSERT_WEBHOOK, { ...input, now });
    return toWebhook(row as Record<string, unknown>);
  }

  async update(id: number, input: WebhookInput, now: number) {
    const [row] = await queryNamed(this.#pool, UPDATE_WEBHOOK, { ...input, id, now });
    return row ? toWebhook(row) : null;
  }

  async delete(id: number) {
    return (await queryNamed(this.#pool, `${DELETE_WEBHOOK} RETURNING id`, { id })).length > 0;
  }

  async enqueue(topic: WebhookTopic, resourceId: number, now: number) {
    return (
      await queryNamed(
        this.#pool,
        `${ENQUEUE_WEBHOOK_EVENT} RETURNING id`,
        webhookEventParams(topic, resourceId, now),
      )
    ).length;
  }

  async claimDue(now: number, leaseUntil: number, limit: number) {
    const rows = await queryNamed(this.#pool, CLAIM_DELIVERIES_PG, { now, leaseUntil, limit });
    return rows.map(toClaimedDelivery).sort((a, b) => a.id - b.id);
  }

  async freezePayload(deliveryId: number, payload: string) {
    const [row] = await queryNamed<{ payload: string }>(this.#pool, SET_PAYLOAD, { id: deliveryId, payload });
    return String(row?.payload ?? payload);
  }

  async recordAttempt(result: WebhookAttemptResult, maxFailures: number) {
    await inTransaction(this.#pool, async (client) => {
      await queryNamed(client, INSERT_ATTEMPT, { ...result });
      const outcome = deliveryOutcome(result);
      if (outcome === 'delivered') {
        await queryNamed(client, MARK_DELIVERED, { ...result });
        await queryNamed(client, RESET_FAILURES, { webhookId: result.webhookId });
      } else {
        await queryNamed(client, outcome === 'retry' ? MARK_RETRY : MARK_FAILED, { ...result });
        await queryNamed(client, COUNT_FAILURE, { webhookId: result.webhookId, maxFailures });
      }
      await queryNamed(client, PRUNE_ATTEMPTS, { webhookId: result.webhookId });
      await queryNamed(client, PRUNE_DELIVERIES, { webhookId: result.webhookId });
    });
  }

  async attempts(webhookId: number, limit: number) {
    return (await queryNamed(this.#pool, SELECT_ATTEMPTS, { webhookId, limit })).map(toWebhookAttempt);
  }
}
