import type {
  DailySales,
  OrderDetail,
  OrderListPage,
  OrderNote,
  OrderNoteAuthor,
  StatusChange,
} from '../../../shared/orders/orderAdminTypes';
import type { OrderStatus } from '../../../shared/orders/orderStatus';

export type * from '../../../shared/orders/orderAdminTypes';

/* The owner's view of orders (migration 0018): the paged list, one order with its notes, status changes. */

export interface OrderListQuery {
  status: OrderStatus | null;
  /** An order number, or part of the customer's email or name; '' lists every order. */
  search: string;
  /** 1-based. */
  page: number;
  perPage: number;
  /** Any of these statuses (the REST API's `status=a,b`); with `status` too, both must hold. */
  statuses?: readonly OrderStatus[];
  /** Only orders placed after / before this instant (ISO 8601, UTC), as WooCommerce's REST filters read them. */
  after?: string;
  before?: string;
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
  /**
   * Sales per UTC day of the orders placed in [from, to) (ISO instants) whose status is one of SALES_STATUSES;
   * days without such an order are absent. Oldest first.
   */
  salesByDay(from: string, to: string): Promise<DailySales[]>;
  /**
   * Replaces the customer's note on the order (WooCommerce's `customer_note`) and records `note` as a system note,
   * in one transaction. False when there is no such order.
   */
  setCustomerNote(orderId: number, text: string, note: string): Promise<boolean>;
  /** Null when there is no such order. */
  addOrderNote(orderId: number, note: { author: OrderNoteAuthor; text: string }): Promise<OrderNote | null>;
}
