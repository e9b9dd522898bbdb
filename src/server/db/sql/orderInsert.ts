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
] as const;

/**
 * An order's row, placed as `processing`, with placeholders in the engine's style; on PostgreSQL it answers the
 * new id (`RETURNING id`), on SQLite the statement's `lastInsertRowid` is that id.
 */
export function orderInsertSql(dialect: SqlDialect): string {
  let n = 0;
  const placeholders = COLUMNS.map((column) =>
    column === 'status' ? "'processing'" : dialect === 'sqlite' ? '?' : `$${++n}`,
  );
  return `INSERT INTO orders (${COLUMNS.join(', ')})
       VALUES (${placeholders.join(', ')})${dialect === 'postgres' ? ' RETURNING id' : ''}`;
}

/** The values of orderInsertSql's placeholders, in its column order; the totals are the sum of the lines. */
export function orderValues(order: NewOrder): unknown[] {
  const subtotal = order.lines.reduce((sum, line) => sum + line.unitPrice * line.quantity, 0);
  return [
    order.orderKey,
    order.currency,
    subtotal,
    subtotal,
    order.paymentMethod,
    JSON.stringify(order.billing),
    order.customerNote,
    order.sessionId,
    order.idempotencyKey,
  ];
}
