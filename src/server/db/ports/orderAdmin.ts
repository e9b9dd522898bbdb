import type { DeviceType } from '../../../shared/attribution/deviceTypeOf';
import type { OrderStatus } from '../../../shared/orders/orderStatus';
import type { Order } from '../../../shared/orders/orderTypes';

/* The owner's view of orders (migration 0018): the paged list, one order with its notes, status changes. */

export interface OrderListQuery {
  status: OrderStatus | null;
  /** An order number, or part of the customer's email or name; '' lists every order. */
  search: string;
  /** 1-based. */
  page: number;
  perPage: number;
}

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

export interface OrderAdminRepository {
  listOrders(query: OrderListQuery): Promise<OrderListPage>;
  getOrderDetail(id: number): Promise<OrderDetail | null>;
  /**
   * Sets the order's status under the order's row lock (PostgreSQL `FOR UPDATE`, SQLite `BEGIN IMMEDIATE`), and in
   * the same transaction: gives the items back to stock when `to` releases stock and the order still holds it,
   * takes them again when `to` holds stock and the order had released it (refusing with out_of_stock when a
   * managed item lacks the quantity), and records `note` as a system note. Null when there is no such order;
   * `from === to` changes nothing and writes no note.
   */
  changeStatus(
    id: number,
    to: OrderStatus,
    note: (from: OrderStatus, to: OrderStatus) => string,
  ): Promise<StatusChange | null>;
  /** Null when there is no such order. */
  addOrderNote(orderId: number, note: { author: OrderNoteAuthor; text: string }): Promise<OrderNote | null>;
}
