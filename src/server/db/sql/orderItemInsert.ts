import type { NewOrderLine } from '../../../shared/orders/orderTypes';
import type { SqlDialect } from './dialect';

const COLUMNS = [
  'order_id',
  'product_id',
  'variation_id',
  'name',
  'sku',
  'attributes',
  'quantity',
  'unit_price',
  'line_total',
  'line_tax',
] as const;

/** One order line's INSERT, with placeholders in the engine's style: `?` on SQLite, `$1`, `$2`… on PostgreSQL. */
export function orderItemInsertSql(dialect: SqlDialect): string {
  const placeholders = COLUMNS.map((_column, index) => (dialect === 'sqlite' ? '?' : `$${index + 1}`));
  return `INSERT INTO order_items (${COLUMNS.join(', ')})
       VALUES (${placeholders.join(', ')})`;
}

/** The values of orderItemInsertSql's placeholders, in its column order, so both engines store a line alike. */
export function orderItemValues(orderId: number, line: NewOrderLine): unknown[] {
  return [
    orderId,
    line.productId,
    line.variationId,
    line.name,
    line.sku,
    JSON.stringify(line.attributes),
    line.quantity,
    line.unitPrice,
    line.unitPrice * line.quantity,
    line.lineTax ?? 0,
  ];
}
