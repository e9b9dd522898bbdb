/* An order as pages, mails and repositories see it. Money in minor units. */
import type { OrderStatus } from './orderStatus';

export interface OrderAddress {
  firstName: string;
  lastName: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  /** The state's code where the country has a list (US: `CA`), else empty. */
  state: string;
  postcode: string;
  country: string;
}

export interface BillingDetails extends OrderAddress {
  email: string;
  phone: string;
}

export interface NewOrderLine {
  productId: number;
  variationId: number | null;
  name: string;
  sku: string | null;
  attributes: Record<string, string>;
  quantity: number;
  unitPrice: number;
  /** The tax in (prices include tax) or on top of unitPrice × quantity, rounded for the line; 0 without tax. */
  lineTax?: number;
}

export interface OrderLine extends NewOrderLine {
  /** unitPrice × quantity, as prices are entered. */
  lineTotal: number;
  lineTax: number;
}

/** How the order is delivered: the method the shopper chose and its cost without tax. */
export interface OrderShippingLine {
  /** The method's type and instance, e.g. `flat_rate:1`. */
  methodId: string;
  title: string;
  cost: number;
  tax: number;
}

export type PaymentMethodId = 'cod' | 'bacs' | 'cheque';

export interface Order {
  id: number;
  orderKey: string;
  status: OrderStatus;
  currency: string;
  /** The lines as prices are entered (with their tax when pricesIncludeTax). */
  subtotal: number;
  /** What the shopper pays: items, their tax unless included, shipping and its tax. */
  total: number;
  paymentMethod: string;
  billing: BillingDetails;
  /** Where the order goes: the billing address unless the shopper gave another. */
  shippingAddress: OrderAddress;
  /** Null for an order made without shipping (before shipping existed). */
  shipping: OrderShippingLine | null;
  /** All the order's tax: the lines' and the shipping's. */
  taxTotal: number;
  /** What the tax is called where the order goes ("Tax", "VAT"). */
  taxLabel: string;
  pricesIncludeTax: boolean;
  customerNote: string;
  createdAt: string;
  lines: OrderLine[];
}
