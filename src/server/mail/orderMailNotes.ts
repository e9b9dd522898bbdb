import type { OrderMailKind, OrderMailRecord } from '../../shared/orders/orderMail';

const KIND_NAMES: Record<OrderMailKind, string> = {
  order_received: 'Order received',
  new_order: 'New order',
  order_completed: 'Order completed',
  order_cancelled: 'Order cancelled',
  order_refunded: 'Order refunded',
};

export interface OrderMailNote {
  /** When it happened: sent, or queued for one not sent yet (Unix milliseconds). */
  at: number;
  text: string;
}

function when(at: number, locale: string): string {
  try {
    return `${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
  } catch {
    return new Date(at).toISOString();
  }
}

/**
 * What the order's page says about its mail, one note per message: "Order received email sent to a@b.c on …",
 * or that it is waiting (and why the last try failed), or that sending it gave up.
 */
export function orderMailNotes(records: readonly OrderMailRecord[], locale = 'en-US'): OrderMailNote[] {
  return records.map((record) => {
    const name = `${KIND_NAMES[record.kind]} email`;
    if (record.status === 'sent' && record.sentAt !== null) {
      return {
        at: record.sentAt,
        text: `${name} sent to ${record.recipient} on ${when(record.sentAt, locale)}.`,
      };
    }
    if (record.status === 'failed') {
      return {
        at: record.createdAt,
        text: `${name} to ${record.recipient} could not be sent after ${record.attempts} attempts: ${record.lastError ?? 'unknown error'}.`,
      };
    }
    const lastTry =
      record.attempts > 0
        ? ` (attempt ${record.attempts} failed: ${record.lastError ?? 'unknown error'})`
        : '';
    return { at: record.createdAt, text: `${name} to ${record.recipient} is waiting to be sent${lastTry}.` };
  });
}
