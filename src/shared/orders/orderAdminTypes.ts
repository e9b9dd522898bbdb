import type { DeviceType } from '../attribution/deviceTypeOf';
import type { OrderStatus } from './orderStatus';
import type { Order } from './orderTypes';

/* Orders as the owner's back office sees them (the list, one order with its notes, a status change). */

export interface OrderSummary {
  id: number;
  createdAt: string;
  status: OrderStatus;
  customerName: string;
  email: string;
  itemCount: number;
  total: number;
  currency: string;
  /** The attribution's source type and utm_source; null for an order placed without tracking. */
  sourceType: string | null;
  utmSource: string | null;
}

export interface OrderListPage {
  orders: OrderSummary[];
  /** Orders matching the query on every page. */
  total: number;
}

export type OrderNoteAuthor = 'system' | 'owner';

export interface OrderNote {
  id: number;
  author: OrderNoteAuthor;
  text: string;
  createdAt: string;
}

export interface OrderAttributionSummary {
  sourceType: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  deviceType: DeviceType;
}

export interface OrderDetail {
  order: Order;
  attribution: OrderAttributionSummary | null;
  /** Oldest first. */
  notes: OrderNote[];
  /** Whether the order's items are out of stock for it (placed and not cancelled or refunded since). */
  stockReduced: boolean;
}

export interface StatusChange {
  from: OrderStatus;
  to: OrderStatus;
  /** The items went back to stock with this change. */
  restocked: boolean;
  /** The items were taken from stock again with this change (an order brought back from cancelled). */
  reduced: boolean;
}

/** One UTC day of sales (see SALES_STATUSES for which orders count). Money in minor units. */
export interface DailySales {
  /** YYYY-MM-DD (UTC). */
  day: string;
  orders: number;
  /** Order totals: items, their tax, shipping and its tax. */
  sales: number;
  tax: number;
  shipping: number;
  items: number;
}
