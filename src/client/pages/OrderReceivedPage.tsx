import type { Order } from '../../shared/orders/orderTypes';
import { useFormatMoney } from '../catalog/Price';

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
      <table className="shop_table order_details">
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {order.lines.map((line) => (
            <tr key={`${line.productId}-${line.variationId ?? 0}-${JSON.stringify(line.attributes)}`}>
              <td>
                {line.name} × {line.quantity}
              </td>
              <td>{format(line.lineTotal)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td>{format(order.total)}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
