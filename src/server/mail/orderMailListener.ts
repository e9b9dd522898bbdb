import type { OrderMailKind } from '../../shared/orders/orderMail';
import type { OrderStatus } from '../../shared/orders/orderStatus';
import type { OrderStatusListener } from '../orders/orderDesk';
import type { ShopMail } from './mailPlugin';

/** The customer's mail for each status the owner can move an order to; other statuses send nothing. */
const MAIL_OF_STATUS: Partial<Record<OrderStatus, OrderMailKind>> = {
  completed: 'order_completed',
  cancelled: 'order_cancelled',
  refunded: 'order_refunded',
};

/**
 * Order mail as the back office's status listener: told after a change is committed, it queues the customer's
 * mail (the outbox keeps one message per kind and order, so completing an order twice mails once).
 */
export function orderMailListener(mail: Pick<ShopMail, 'queueOrderMail'>): OrderStatusListener {
  return {
    async statusChanged(order, _from, to) {
      const kind = MAIL_OF_STATUS[to];
      if (kind) await mail.queueOrderMail(kind, order.id);
    },
  };
}
