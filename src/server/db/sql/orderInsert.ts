import type { NewOrder } from '../ports';
import type { SqlDialect } from './dialect';

const COLUMNS = [
  'order_key',
  'status',
  'currency',
  'subtotal',
  'total',
  'payment_method',
  'billing',
  'customer_note',
  'session_id',
  'idempotency_key',
  'shipping_address',
  'shipping_method_id',
  'shipping_method_title',
  'shipping_total',
  'shipping_tax',
  'tax_total',
  'tax_label',
  'prices_include_tax',
] as const;

/**
 * An order's row, with placeholders in the engine's style; on PostgreSQL it answers the
 * new id (`RETURNING id`), on SQLite the statement's `lastInsertRowid` is that id.
 */
export function orderInsertSql(dialect: SqlDialect): string {
  let n = 0;
  const placeholders = COLUMNS.map(() => (dialect === 'sqlite' ? '?' : `$${++n}`));
  return `INSERT INTO orders (${COLUMNS.join(', ')})
       VALUES (${placeholders.join(', ')})${dialect === 'postgres' ? ' RETURNING id' : ''}`;
}

/**
 * The values of orderInsertSql's placeholders, in its column order. The subtotal is the sum of the lines; the
 * total adds the lines' tax (unless prices include it), shipping and its tax. An order without shipping or tax
 * (made outside the checkout) costs its lines.
 */
export function orderValues(order: NewOrder): unknown[] {
  const subtotal = order.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  const itemsTax = order.lines.reduce((sum, line) => sum + (line.lineTax ?? 0), 0);
  const shipping = order.shipping ?? null;
  const shippingTotal = shipping?.cost ?? 0;
  const shippingTax = shipping?.tax ?? 0;
  const pricesIncludeTax = order.pricesIncludeTax ?? false;
  const total = subtotal + (pricesIncludeTax ? 0 : itemsTax) + shippingTotal + shippingTax;
  return [
    order.orderKey,
    order.status ?? 'processing',
    order.currency,
    subtotal,
    total,
    order.paymentMethod,
    JSON.stringify(order.billing),
    order.customerNote,
    order.sessionId,
    order.idempotencyKey,
    JSON.stringify(order.shippingAddress ?? {}),
    shipping?.methodId ?? '',
    shipping?.title ?? '',
    shippingTotal,
    shippingTax,
    itemsTax + shippingTax,
    order.taxLabel ?? '',
    pricesIncludeTax ? 1 : 0,
  ];
}
