import type { CurrencyFormat } from '../../shared/money/formatMoney';
import { formatMoney } from '../../shared/money/formatMoney';
import type { OrderSummary } from '../../shared/orders/orderAdminTypes';
import {
  ORDER_STATUS_LABELS,
  ORDER_STATUSES,
  type OrderStatus,
  orderSourceLabel,
} from '../../shared/orders/orderStatus';
import { formatAdminDate } from './adminFormat';

/** `/admin/orders/`: the orders, newest first, filtered by status and searched by number, email or name. */
export function OrdersPage({
  orders,
  total,
  page,
  perPage,
  status,
  search,
  currency,
}: {
  orders: OrderSummary[];
  total: number;
  page: number;
  perPage: number;
  status: OrderStatus | null;
  search: string;
  currency: CurrencyFormat;
}) {
  const pages = Math.max(1, Math.ceil(total / perPage));
  const pageHref = (n: number) => {
    const query = new URLSearchParams();
    if (status) query.set('status', status);
    if (search) query.set('s', search);
    if (n > 1) query.set('paged', String(n));
    const text = query.toString();
    return `/admin/orders/${text ? `?${text}` : ''}`;
  };
  return (
    <div className="admin-orders">
      <search>
        <form className="admin-filters" method="get" action="/admin/orders/">
          <div>
            <label htmlFor="orders-status">Status</label>
            <select id="orders-status" name="status" defaultValue={status ?? ''}>
              <option value="">All statuses</option>
              {ORDER_STATUSES.map((each) => (
                <option key={each} value={each}>
                  {ORDER_STATUS_LABELS[each]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="orders-search">Search orders</label>
            <input
              id="orders-search"
              name="s"
              type="search"
              defaultValue={search}
              placeholder="Number, email or name"
              maxLength={200}
            />
          </div>
          <button type="submit">Filter</button>
        </form>
      </search>
      <p className="admin-count" role="status">
        {total === 0
          ? 'No orders match.'
          : `${total} order${total === 1 ? '' : 's'}${pages > 1 ? `, page ${page} of ${pages}` : ''}.`}
      </p>
      {orders.length > 0 && (
        // The table scrolls inside its own focusable box at phone width; the page itself never scrolls sideways.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
        <section className="admin-table-wrap" tabIndex={0} aria-label="Orders table">
          <table className="admin-table">
            <caption className="screen-reader-text">Orders, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Date</th>
                <th scope="col">Customer</th>
                <th scope="col">Items</th>
                <th scope="col">Total</th>
                <th scope="col">Status</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((order) => (
                <tr key={order.id}>
                  <th scope="row">
                    <a href={`/admin/orders/${order.id}/`}>#{order.id}</a>
                  </th>
                  <td>
                    <time dateTime={order.createdAt}>{formatAdminDate(order.createdAt)}</time>
                  </td>
                  <td>
                    {order.customerName || '—'}
                    <br />
                    <span className="admin-muted">{order.email}</span>
                  </td>
                  <td>{order.itemCount}</td>
                  <td>{formatMoney(order.total, currency)}</td>
                  <td>
                    <span className={`admin-status admin-status--${order.status}`}>
                      {ORDER_STATUS_LABELS[order.status]}
                    </span>
                  </td>
                  <td>{orderSourceLabel(order.sourceType, order.utmSource)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {pages > 1 && (
        <nav className="admin-pages" aria-label="Order pages">
          {page > 1 && (
            <a href={pageHref(page - 1)} rel="prev">
              Previous page
            </a>
          )}
          {page < pages && (
            <a href={pageHref(page + 1)} rel="next">
              Next page
            </a>
          )}
        </nav>
      )}
    </div>
  );
}
