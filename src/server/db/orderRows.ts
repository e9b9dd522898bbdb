import type { BillingDetails, Order, OrderLine } from '../../shared/orders/orderTypes';

/* An order as the `orders` and `order_items` rows hold it, read back the same way on both engines. */

export interface OrderRow {
  id: number;
  order_key: string;
  status: Order['status'];
  currency: string;
  subtotal: number;
  total: number;
  payment_method: string;
  billing: string;
  customer_note: string;
  created_at: string;
}

export interface OrderItemRow {
  product_id: number;
  variation_id: number | null;
  name: string;
  sku: string | null;
  attributes: string;
  quantity: number;
  unit_price: number;
  line_total: number;
}

export function orderFromRows(row: OrderRow, items: readonly OrderItemRow[]): Order {
  const lines = items.map(
    (line): OrderLine => ({
      productId: line.product_id,
      variationId: line.variation_id,
      name: line.name,
      sku: line.sku,
      attributes: JSON.parse(line.attributes) as Record<string, string>,
      quantity: line.quantity,
      unitPrice: line.unit_price,
      lineTotal: line.line_total,
    }),
  );
  return {
    id: row.id,
    orderKey: row.order_key,
    status: row.status,
    currency: row.currency,
    subtotal: row.subtotal,
    total: row.total,
    paymentMethod: row.payment_method,
    billing: JSON.parse(row.billing) as BillingDetails,
    customerNote: row.customer_note,
    createdAt: row.created_at,
    lines,
  };
}
