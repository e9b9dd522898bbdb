import type {
  ClaimedWebhookDelivery,
  Webhook,
  WebhookAttempt,
  WebhookAttemptResult,
  WebhookInput,
  WebhookTopic,
} from '../../../shared/webhooks/webhookTypes';

/*
 * Webhooks and their durable outbox (migration 0026). Deliveries are queued by the changes themselves, inside their
 * transactions (ENQUEUE_WEBHOOK_EVENT in db/sql/webhookSql.ts); `enqueue` here is for a change that has no
 * transaction of its own in this codebase.
 */
export interface WebhookRepository {
  list(): Promise<Webhook[]>;
  get(id: number): Promise<Webhook | null>;
  create(input: WebhookInput, now: number): Promise<Webhook>;
  /** Null when there is no such webhook. */
  update(id: number, input: WebhookInput, now: number): Promise<Webhook | null>;
  /** Deletes the webhook with its queued deliveries and log; false when there was none. */
  delete(id: number): Promise<boolean>;
  /** Queues the event for every active webhook of the topic; answers how many deliveries were queued. */
  enqueue(topic: WebhookTopic, resourceId: number, now: number): Promise<number>;
  /**
   * Claims up to `limit` queued deliveries due at `now` whose webhook is active, counting an attempt on each and
   * moving it out of other senders' reach until `leaseUntil`. Atomic on both engines (SQLite's write lock,
   * PostgreSQL's FOR UPDATE SKIP LOCKED): concurrent senders never claim the same delivery.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<ClaimedWebhookDelivery[]>;
  /** Keeps `payload` as the delivery's body unless one is kept already; answers the kept body. */
  freezePayload(deliveryId: number, payload: string): Promise<string>;
  /**
   * Records one attempt in the log and its outcome in one transaction: a 2xx marks the delivery delivered and
   * resets the webhook's failure count; anything else schedules the retry (or gives up) and counts a failure,
   * disabling the webhook at `maxFailures` in a row. The log keeps the webhook's newest ATTEMPTS_KEPT attempts;
   * a settled delivery goes with its last logged attempt.
   */
  recordAttempt(result: WebhookAttemptResult, maxFailures: number): Promise<void>;
  /** The webhook's delivery log, newest first. */
  attempts(webhookId: number, limit: number): Promise<WebhookAttempt[]>;
}
