/* An order as pages and repositories see it. Money in minor units. */
import type { OrderStatus } from './orderStatus';

export interface BillingDetails {
  firstName: string;
  lastName: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  postcode: string;
  country: string;
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
}

export interface OrderLine extends NewOrderLine {
  lineTotal: number;
}

export interface Order {
  id: number;
  orderKey: string;
  status: OrderStatus;
  currency: string;
  subtotal: number;
  total: number;
  paymentMethod: string;
  billing: BillingDetails;
  customerNote: string;
  createdAt: string;
  lines: OrderLine[];
}
