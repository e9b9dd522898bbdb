/* The mail an order sends, as the outbox keeps it and the order's page lists it. Times in Unix milliseconds. */

export const ORDER_MAIL_KINDS = [
  'order_received',
  'new_order',
  'order_completed',
  'order_cancelled',
  'order_refunded',
] as const;

/** `new_order` goes to the owner; every other kind to the customer. */
export type OrderMailKind = (typeof ORDER_MAIL_KINDS)[number];

export type OrderMailStatus = 'queued' | 'sent' | 'failed';

/** One message of an order, as sent or still to send. */
export interface OrderMailRecord {
  id: number;
  kind: OrderMailKind;
  orderId: number;
  recipient: string;
  subject: string;
  status: OrderMailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  sentAt: number | null;
}

/** A message written into the outbox: rendered when it is queued, so it says what the order was then. */
export interface QueuedOrderMail {
  kind: OrderMailKind;
  orderId: number;
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Every kind the outbox carries: an order's mail, and mail that belongs to no order (a back-in-stock alert, queued
 * by the stock alerts, with no order id).
 */
export const OUTBOX_MAIL_KINDS = [...ORDER_MAIL_KINDS, 'back_in_stock'] as const;
export type OutboxMailKind = (typeof OUTBOX_MAIL_KINDS)[number];

/** A message a sender has claimed and is about to send. */
export interface ClaimedOrderMail extends Omit<QueuedOrderMail, 'kind' | 'orderId'> {
  kind: OutboxMailKind;
  /** Null for mail that belongs to no order. */
  orderId: number | null;
  id: number;
  /** Attempts including this one. */
  attempts: number;
}
