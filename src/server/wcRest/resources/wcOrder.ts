import type { OrderDetail, OrderNote } from '../../../shared/orders/orderAdminTypes';
import type { Order, OrderAddress } from '../../../shared/orders/orderTypes';
import { paymentMethodTitle } from '../../../shared/orders/paymentMethods';
import { type WcContext, wcDates, wcMoney } from './wcFormat';

/*
 * An order in WooCommerce's REST API v3 shape (GET /wp-json/wc/v3/orders/{id}, and the body of order webhooks).
 * Pure: the order as the shop keeps it in, JSON out. Fields the shop has no notion of (coupons, fees, refunds,
 * the customer's IP) are present with WooCommerce's empty values so clients that read them find them.
 */

export interface WcAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
}

export interface WcBilling extends WcAddress {
  email: string;
  phone: string;
}

export interface WcMeta {
  id: number;
  key: string;
  value: unknown;
}

export interface WcLineItem {
  /** The line's position in the order (1, 2, …): the shop's lines have no id of their own. */
  id: number;
  name: string;
  product_id: number;
  variation_id: number;
  quantity: number;
  tax_class: string;
  /** Before tax, as WooCommerce keeps line amounts. */
  subtotal: string;
  subtotal_tax: string;
  total: string;
  total_tax: string;
  taxes: unknown[];
  meta_data: WcMeta[];
  sku: string;
  /** The unit price before tax, a number as WooCommerce sends it. */
  price: number;
  parent_name: string | null;
}

export interface WcShippingLine {
  id: number;
  method_title: string;
  method_id: string;
  instance_id: string;
  total: string;
  total_tax: string;
  taxes: unknown[];
  meta_data: WcMeta[];
}

export interface WcOrder {
  id: number;
  parent_id: number;
  number: string;
  order_key: string;
  created_via: string;
  version: string;
  status: Order['status'];
  currency: string;
  date_created: string | null;
  date_created_gmt: string | null;
  date_modified: string | null;
  date_modified_gmt: string | null;
  discount_total: string;
  discount_tax: string;
  shipping_total: string;
  shipping_tax: string;
  cart_tax: string;
  total: string;
  total_tax: string;
  prices_include_tax: boolean;
  customer_id: number;
  customer_ip_address: string;
  customer_user_agent: string;
  customer_note: string;
  billing: WcBilling;
  shipping: WcAddress & { phone: string };
  payment_method: string;
  payment_method_title: string;
  transaction_id: string;
  date_paid: string | null;
  date_paid_gmt: string | null;
  date_completed: string | null;
  date_completed_gmt: string | null;
  cart_hash: string;
  meta_data: WcMeta[];
  line_items: WcLineItem[];
  tax_lines: unknown[];
  shipping_lines: WcShippingLine[];
  fee_lines: unknown[];
  coupon_lines: unknown[];
  refunds: unknown[];
  currency_symbol: string;
}

export interface WcOrderNote {
  id: number;
  /** `system` for the shop's own notes (status changes, mail), `owner` for notes the owner or an API key wrote. */
  author: string;
  date_created: string | null;
  date_created_gmt: string | null;
  note: string;
  /** Always false: the shop mails no note to the customer. */
  customer_note: boolean;
}

/** WooCommerce's fixed version string: clients compare it to pick behaviour, the shop speaks v3 as 8.x does. */
export const WC_VERSION = '8.9.0';

function wcAddress(address: OrderAddress): WcAddress {
  return {
    first_name: address.firstName,
    last_name: address.lastName,
    company: address.company,
    address_1: address.address1,
    address_2: address.address2,
    city: address.city,
    state: address.state,
    postcode: address.postcode,
    country: address.country,
  };
}

function lastChange(order: Order, notes: readonly OrderNote[]): string {
  // The shop keeps no modified column: every change after placing leaves a note, so the newest note dates it.
  let latest = order.createdAt;
  for (const note of notes) if (Date.parse(note.createdAt) > Date.parse(latest)) latest = note.createdAt;
  return latest;
}

/** When the order was paid (WooCommerce's `date_paid`): placed as processing or completed, else not known. */
function paidAt(order: Order): string | null {
  return order.status === 'processing' || order.status === 'completed' ? order.createdAt : null;
}

/**
 * The order as WooCommerce v3 returns it. `notes` (oldest first, as the back office's order detail holds them)
 * date `date_modified` and `date_completed`; without them both read the creation date.
 */
export function toWcOrder(
  source: Pick<OrderDetail, 'order'> & { notes?: readonly OrderNote[] },
  context: WcContext & { currencySymbol?: string },
): WcOrder {
  const { order } = source;
  const notes = source.notes ?? [];
  const money = (minor: number) => wcMoney(minor, context.decimals);
  const created = wcDates(order.createdAt);
  const modified = wcDates(lastChange(order, notes));
  const completedNote =
    order.status === 'completed'
      ? [...notes].reverse().find((note) => note.author === 'system' && /to Completed\.$/.test(note.text))
      : undefined;
  const completed = wcDates(
    order.status === 'completed' ? (completedNote?.createdAt ?? lastChange(order, notes)) : null,
  );
  const paid = wcDates(paidAt(order));
  const shippingTax = order.shipping?.tax ?? 0;
  const { email: _email, phone, ...billingAddress } = order.billing;
  return {
    id: order.id,
    parent_id: 0,
    number: String(order.id),
    order_key: order.orderKey,
    created_via: 'checkout',
    version: WC_VERSION,
    status: order.status,
    currency: order.currency,
    date_created: created.local,
    date_created_gmt: created.gmt,
    date_modified: modified.local,
    date_modified_gmt: modified.gmt,
    discount_total: money(0),
    discount_tax: money(0),
    shipping_total: money(order.shipping?.cost ?? 0),
    shipping_tax: money(shippingTax),
    cart_tax: money(order.taxTotal - shippingTax),
    total: money(order.total),
    total_tax: money(order.taxTotal),
    prices_include_tax: order.pricesIncludeTax,
    customer_id: 0,
    customer_ip_address: '',
    customer_user_agent: '',
    customer_note: order.customerNote,
    billing: { ...wcAddress(billingAddress), email: order.billing.email, phone },
    shipping: { ...wcAddress(order.shippingAddress), phone: '' },
    payment_method: order.paymentMethod,
    payment_method_title: paymentMethodTitle(order.paymentMethod),
    transaction_id: '',
    date_paid: paid.local,
    date_paid_gmt: paid.gmt,
    date_completed: completed.local,
    date_completed_gmt: completed.gmt,
    cart_hash: '',
    meta_data: [],
    line_items: order.lines.map((line, index): WcLineItem => {
      // Line amounts before tax, as WooCommerce stores them whichever way prices are entered.
      const beforeTax = order.pricesIncludeTax ? line.lineTotal - line.lineTax : line.lineTotal;
      return {
        id: index + 1,
        name: line.name,
        product_id: line.productId,
        variation_id: line.variationId ?? 0,
        quantity: line.quantity,
        tax_class: '',
        subtotal: money(beforeTax),
        subtotal_tax: money(line.lineTax),
        total: money(beforeTax),
        total_tax: money(line.lineTax),
        taxes: [],
        meta_data: Object.entries(line.attributes).map(([key, value], metaIndex) => ({
          id: metaIndex + 1,
          key: key.replace(/^attribute_/, ''),
          value,
        })),
        sku: line.sku ?? '',
        price: beforeTax / line.quantity / 10 ** context.decimals,
        parent_name: line.variationId ? line.name : null,
      };
    }),
    tax_lines: [],
    shipping_lines: order.shipping
      ? [
          {
            id: order.lines.length + 1,
            method_title: order.shipping.title,
            method_id: order.shipping.methodId.split(':')[0] ?? order.shipping.methodId,
            instance_id: order.shipping.methodId.split(':')[1] ?? '',
            total: money(order.shipping.cost),
            total_tax: money(order.shipping.tax),
            taxes: [],
            meta_data: [],
          },
        ]
      : [],
    fee_lines: [],
    coupon_lines: [],
    refunds: [],
    currency_symbol: context.currencySymbol ?? '',
  };
}

export function toWcOrderNote(note: OrderNote): WcOrderNote {
  const created = wcDates(note.createdAt);
  return {
    id: note.id,
    author: note.author,
    date_created: created.local,
    date_created_gmt: created.gmt,
    note: note.text,
    customer_note: false,
  };
}
