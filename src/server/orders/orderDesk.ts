import { ShopError } from '../../shared/errors/ShopError';
import { type OrderStatus, statusChangeNote } from '../../shared/orders/orderStatus';
import type {
  OrderAdminRepository,
  OrderDetail,
  OrderListPage,
  OrderListQuery,
  OrderNote,
  OrderNoteAuthor,
  StatusChange,
} from '../db/ports';

/*
 * The owner's order rules in one home: listing, one order, status changes (stock goes back once, under the order's
 * row lock, see OrderAdminRepository.changeStatus) and notes. The back office's pages only translate HTTP to this.
 */

export const ORDERS_PER_PAGE = 50;
export const MAX_NOTE_LENGTH = 2000;

/** The order as a listener sees it: its id, and the number the owner and the customer read (the same value). */
export interface OrderRef {
  id: number;
  number: number;
}

/**
 * Told after a status change is committed (never for a change to the same status): mail ("order completed",
 * "order cancelled") hangs here. A listener that throws is logged; the change stands.
 */
export interface OrderStatusListener {
  statusChanged(order: OrderRef, from: OrderStatus, to: OrderStatus): Promise<void>;
}

export const noStatusListener: OrderStatusListener = {
  async statusChanged() {},
};

export interface OrderDesk {
  /** A page of ORDERS_PER_PAGE orders unless `perPage` says otherwise (the REST API's per_page). */
  list(
    query: Omit<OrderListQuery, 'perPage'> & { perPage?: number },
  ): Promise<OrderListPage & { perPage: number }>;
  /** Throws not_found for an unknown number. */
  detail(id: number): Promise<OrderDetail>;
  changeStatus(id: number, to: OrderStatus): Promise<StatusChange>;
  /** Replaces the note the customer left at checkout (WooCommerce's `customer_note`); the history records it. */
  setCustomerNote(orderId: number, text: string): Promise<void>;
  /** Adds a note to the order's history (the owner's private notes, and automatic ones such as "mail sent"). */
  addOrderNote(orderId: number, note: { author: OrderNoteAuthor; text: string }): Promise<OrderNote>;
}

interface OrderDeskOptions {
  orders: OrderAdminRepository;
  listener?: OrderStatusListener;
  /** Where a failing listener is reported (the server's logger). */
  logError?: (error: unknown, message: string) => void;
  /**
   * Notes kept elsewhere and shown with the order's own (its mail, whose state the outbox holds and changes as
   * messages are retried); `at` in Unix milliseconds.
   */
  extraNotes?: (orderId: number) => Promise<readonly { at: number; text: string }[]>;
}

function orderNotFound(id: number): ShopError {
  return new ShopError('not_found', `There is no order #${id}.`);
}

export function createOrderDesk({
  orders,
  listener = noStatusListener,
  logError = () => undefined,
  extraNotes = async () => [],
}: OrderDeskOptions): OrderDesk {
  return {
    async list(query) {
      const perPage = query.perPage ?? ORDERS_PER_PAGE;
      const page = await orders.listOrders({ ...query, perPage });
      return { ...page, perPage };
    },
    async detail(id) {
      const detail = await orders.getOrderDetail(id);
      if (!detail) throw orderNotFound(id);
      const extra = await extraNotes(id);
      if (extra.length === 0) return detail;
      // Extra notes have no row of their own: negative ids keep them apart from the table's.
      const notes = [
        ...detail.notes,
        ...extra.map((note, index) => ({
          id: -(index + 1),
          author: 'system' as const,
          text: note.text,
          createdAt: new Date(note.at).toISOString(),
        })),
      ].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)); // stable: ties keep their order
      return { ...detail, notes };
    },
    async changeStatus(id, to) {
      const change = await orders.changeStatus(id, to, statusChangeNote);
      if (!change) throw orderNotFound(id);
      if (change.from !== change.to) {
        try {
          await listener.statusChanged({ id, number: id }, change.from, change.to);
        } catch (error) {
          logError(error, `The status listener failed for order #${id} (${change.from} → ${change.to})`);
        }
      }
      return change;
    },
    async setCustomerNote(orderId, text) {
      const note = text.trim();
      if (note.length > MAX_NOTE_LENGTH)
        throw new ShopError('invalid_request', `A note is at most ${MAX_NOTE_LENGTH} characters.`);
      const changed = await orders.setCustomerNote(
        orderId,
        note,
        note === '' ? 'Customer note removed.' : `Customer note changed to: ${note}`,
      );
      if (!changed) throw orderNotFound(orderId);
    },
    async addOrderNote(orderId, note) {
      const text = note.text.trim();
      if (text === '') throw new ShopError('invalid_request', 'Write the note first.');
      if (text.length > MAX_NOTE_LENGTH)
        throw new ShopError('invalid_request', `A note is at most ${MAX_NOTE_LENGTH} characters.`);
      const added = await orders.addOrderNote(orderId, { author: note.author, text });
      if (!added) throw orderNotFound(orderId);
      return added;
    },
  };
}
