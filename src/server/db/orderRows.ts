import { purchasableQuantity } from '../../shared/catalog/purchasable';
import { ShopError } from '../../shared/errors/ShopError';
import type { BillingDetails, Order, OrderAddress, OrderLine } from '../../shared/orders/orderTypes';
import type { CartLine } from './ports';

/* An order as the `orders` and `order_items` rows hold it, written and read back the same way on both engines. */

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
  shipping_address: string;
  shipping_method_id: string;
  shipping_method_title: string;
  shipping_total: number;
  shipping_tax: number;
  tax_total: number;
  tax_label: string;
  prices_include_tax: number | boolean;
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
  line_tax: number;
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
      lineTotal: Number(line.line_total),
      lineTax: Number(line.line_tax),
    }),
  );
  // Orders made before addresses had a state, and before shipping existed, read with the fields they lack.
  const billing = {
    state: '',
    ...(JSON.parse(row.billing) as Omit<BillingDetails, 'state'>),
  } as BillingDetails;
  const storedShipping = JSON.parse(row.shipping_address || '{}') as Partial<OrderAddress>;
  const { email: _email, phone: _phone, ...billingAddress } = billing;
  return {
    id: row.id,
    orderKey: row.order_key,
    status: row.status,
    currency: row.currency,
    subtotal: row.subtotal,
    total: row.total,
    paymentMethod: row.payment_method,
    billing,
    shippingAddress:
      Object.keys(storedShipping).length > 0 ? { ...billingAddress, ...storedShipping } : billingAddress,
    shipping: row.shipping_method_id
      ? {
          methodId: row.shipping_method_id,
          title: row.shipping_method_title,
          cost: Number(row.shipping_total),
          tax: Number(row.shipping_tax),
        }
      : null,
    taxTotal: Number(row.tax_total),
    taxLabel: row.tax_label || 'Tax',
    pricesIncludeTax: Boolean(Number(row.prices_include_tax)),
    customerNote: row.customer_note,
    createdAt: row.created_at,
    lines,
  };
}

/** The stock of a line's product or variation, read inside the order's transaction. */
export interface StockRow {
  id: number;
  parent_id: number | null;
  stock_status: string;
  stock_quantity: number | null;
  status: string;
}

/** Refuses a line whose product is gone or lacks the stock (checked again inside the order's transaction). */
export function assertPurchasable(
  line: { name: string; quantity: number },
  row: StockRow | undefined,
): asserts row is StockRow {
  if (row?.status !== 'publish') {
    throw new ShopError('not_purchasable', `“${line.name}” can no longer be bought.`);
  }
  const available = purchasableQuantity({ stockStatus: row.stock_status, stockQuantity: row.stock_quantity });
  if (available !== null && available < line.quantity) {
    throw new ShopError(
      'out_of_stock',
      available > 0
        ? `Only ${available} of “${line.name}” left in stock.`
        : `“${line.name}” is out of stock.`,
    );
  }
}

/**
 * One cart makes one order: the cart the order was priced from must still be the session's cart when its lock is
 * held. Another submit of the same cart that got there first has emptied it; a tab that changed it meanwhile has
 * made the prices stale.
 */
export function assertCartUnchanged(priced: readonly CartLine[], locked: readonly CartLine[]): void {
  if (locked.length === 0) {
    throw new ShopError('empty_cart', 'Your cart is empty, so there is nothing to order.');
  }
  const shape = (cart: readonly CartLine[]) =>
    JSON.stringify(
      cart.map((line) => [line.key, line.quantity]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  if (shape(priced) !== shape(locked)) {
    throw new ShopError(
      'cart_changed',
      'Your cart changed while you were checking out. Please review your order.',
    );
  }
}

/** A checkout form's key found on another session's order: the form was not this visitor's. */
export function foreignIdempotencyKey(): ShopError {
  return new ShopError('invalid_checkout', 'This checkout form has already been used. Please try again.');
}
