import type { Order } from '../../shared/orders/orderTypes';
import { useFormatMoney } from '../catalog/Price';
import { OrderLinesTable } from '../checkout/OrderLinesTable';

export function OrderReceivedPage({ order }: { order: Order }) {
  const format = useFormatMoney();
  return (
    <section className="order-received">
      <h1>Order received</h1>
      <p className="notice notice--success" role="status">
        Thank you. Your order has been received.
      </p>
      <ul className="order-overview">
        <li>
          Order number: <strong>{order.id}</strong>
        </li>
        <li>
          Date: <strong>{order.createdAt.slice(0, 10)}</strong>
        </li>
        <li>
          Email: <strong>{order.billing.email}</strong>
        </li>
        <li>
          Total: <strong>{format(order.total)}</strong>
        </li>
        <li>
          Payment method: <strong>Cash on delivery</strong>
        </li>
      </ul>
      <h2>Order details</h2>
      <OrderLinesTable
        className="shop_table order_details"
        amountHeading="Total"
        rows={order.lines.map((line) => ({
          key: `${line.productId}-${line.variationId ?? 0}-${JSON.stringify(line.attributes)}`,
          label: (
            <>
              {line.name} × {line.quantity}
            </>
          ),
          lineTotal: line.lineTotal,
        }))}
        total={order.total}
      />
    </section>
  );
}
