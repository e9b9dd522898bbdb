/*
 * Order statuses as WooCommerce names them, their labels, and which of them hold the order's items out of stock.
 */

export const ORDER_STATUSES = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
};

/**
 * Moving an order into one of these gives its items back to stock (once: the order records it). Failed keeps them
 * as WooCommerce does: a failed payment is usually retried.
 */
export const STOCK_RELEASING_STATUSES: ReadonlySet<OrderStatus> = new Set(['cancelled', 'refunded']);

/**
 * The orders a sales report counts, as WooCommerce's reports do: paid or being paid (processing, completed) and
 * waiting for payment that was promised (on-hold: bank transfer, check). Pending, failed, cancelled and refunded
 * orders are not sales.
 */
export const SALES_STATUSES: readonly OrderStatus[] = ['processing', 'completed', 'on-hold'];

export function isOrderStatus(value: string): value is OrderStatus {
  return (ORDER_STATUSES as readonly string[]).includes(value);
}

/** The automatic note a status change leaves on the order. */
export function statusChangeNote(from: OrderStatus, to: OrderStatus): string {
  return `Status changed from ${ORDER_STATUS_LABELS[from]} to ${ORDER_STATUS_LABELS[to]}.`;
}

/** "Where the buyer came from" in one phrase, as WooCommerce's order attribution shows it. */
export function orderSourceLabel(sourceType: string | null, utmSource: string | null): string {
  const source = utmSource ? utmSource.charAt(0).toUpperCase() + utmSource.slice(1) : '';
  switch (sourceType) {
    case null:
      return 'Unknown';
    case 'typein':
      return 'Direct';
    case 'organic':
      return source ? `Organic: ${source}` : 'Organic search';
    case 'referral':
      return source ? `Referral: ${source}` : 'Referral';
    case 'utm':
      return source ? `Source: ${source}` : 'Campaign';
    case 'admin':
      return 'Web admin';
    default:
      return 'Unknown';
  }
}
