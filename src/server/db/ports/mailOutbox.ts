import type { ClaimedOrderMail, OrderMailRecord, QueuedOrderMail } from '../../../shared/orders/orderMail';

/** The durable outbox of order mail (migration 0020): written when an order event happens, emptied by senders. */
export interface MailOutboxRepository {
  /**
   * Queues the message, due at once. One message of a kind per order: answers false (and writes nothing) when the
   * order already has one, so an event handled twice (two owners, two processes) mails once.
   */
  enqueue(mail: QueuedOrderMail, now: number): Promise<boolean>;
  /**
   * Claims up to `limit` queued messages due at `now`, counting an attempt on each and moving it out of reach of
   * other senders until `leaseUntil` (a sender that dies mid-send only delays its messages). Atomic on both
   * engines: concurrent senders, in one process or several, never claim the same message.
   */
  claimDue(now: number, leaseUntil: number, limit: number): Promise<ClaimedOrderMail[]>;
  markSent(id: number, now: number): Promise<void>;
  /** Records a failed send: retried at `retryAt`, or given up (status failed) when it is null. */
  markFailed(id: number, error: string, retryAt: number | null): Promise<void>;
  /** The order's mail, oldest first. */
  forOrder(orderId: number): Promise<OrderMailRecord[]>;
}
