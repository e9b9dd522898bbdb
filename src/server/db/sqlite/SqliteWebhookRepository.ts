import type { WebhookAttemptResult, WebhookInput, WebhookTopic } from '../../../shared/webhooks/webhookTypes';
import type { SqliteDatabase } from '../openDatabase';
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
import { writeWhenFree } from './withoutBusyWait';

const CLAIM_DELIVERIES_SQLITE = claimDueSql('sqlite', CLAIM_DELIVERIES);

/*
 * Every write here waits out a lock held elsewhere (an import, another process) without holding the process
 * (writeWhenFree): a busy answer comes before anything was written, so the statement or transaction is tried again.
 */
export class SqliteWebhookRepository implements WebhookRepository {
  #db: SqliteDatabase;

  constructor(db: SqliteDatabase) {
    this.#db = db;
  }

  async list() {
    return (this.#db.prepare(SELECT_WEBHOOKS).all() as Record<string, unknown>[]).map(toWebhook);
  }

  async get(id: number) {
    const row = this.#db.prepare(SELECT_WEBHOOK).get({ id }) as Record<string, unknown> | undefined;
    return row ? toWebhook(row) : null;
  }

  async create(input: WebhookInput, now: number) {
    return toWebhook(
      (await writeWhenFree(this.#db, () =>
        this.#db.prepare(INSERT_WEBHOOK).get({ ...input, now }),
      )) as Record<string, unknown>,
    );
  }

  async update(id: number, input: WebhookInput, now: number) {
    const row = (await writeWhenFree(this.#db, () =>
      this.#db.prepare(UPDATE_WEBHOOK).get({ ...input, id, now }),
    )) as Record<string, unknown> | undefined;
    return row ? toWebhook(row) : null;
  }

  async delete(id: number) {
    return (await writeWhenFree(this.#db, () => this.#db.prepare(DELETE_WEBHOOK).run({ id }))).changes > 0;
  }

  async enqueue(topic: WebhookTopic, resourceId: number, now: number) {
    return (
      await writeWhenFree(this.#db, () =>
        this.#db.prepare(ENQUEUE_WEBHOOK_EVENT).run(webhookEventParams(topic, resourceId, now)),
      )
    ).changes;
  }

  async claimDue(now: number, leaseUntil: number, limit: number) {
    const rows = (await writeWhenFree(this.#db, () =>
      this.#db.prepare(CLAIM_DELIVERIES_SQLITE).all({ now, leaseUntil, limit }),
    )) as Record<string, unknown>[];
    return rows.map(toClaimedDelivery).sort((a, b) => a.id - b.id);
  }

  async freezePayload(deliveryId: number, payload: string) {
    return String(
      await writeWhenFree(this.#db, () =>
        this.#db.prepare(SET_PAYLOAD).pluck().get({ id: deliveryId, payload }),
      ),
    );
  }

  async recordAttempt(result: WebhookAttemptResult, maxFailures: number) {
    // IMMEDIATE: busy at BEGIN, before the attempt is written, so trying it again cannot write it twice.
    await writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() => {
          this.#db.prepare(INSERT_ATTEMPT).run(result);
          const outcome = deliveryOutcome(result);
          if (outcome === 'delivered') {
            this.#db.prepare(MARK_DELIVERED).run(result);
            this.#db.prepare(RESET_FAILURES).run(result);
          } else {
            this.#db.prepare(outcome === 'retry' ? MARK_RETRY : MARK_FAILED).run(result);
            this.#db.prepare(COUNT_FAILURE).run({ webhookId: result.webhookId, maxFailures });
          }
          this.#db.prepare(PRUNE_ATTEMPTS).run(result);
          this.#db.prepare(PRUNE_DELIVERIES).run(result);
        })
        .immediate(),
    );
  }

  async attempts(webhookId: number, limit: number) {
    return (this.#db.prepare(SELECT_ATTEMPTS).all({ webhookId, limit }) as Record<string, unknown>[]).map(
      toWebhookAttempt,
    );
  }
}
