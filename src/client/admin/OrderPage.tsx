import { ALL_COUNTRIES } from '../../shared/checkout/countries';
import type { CurrencyFormat } from '../../shared/money/formatMoney';
import { formatMoney } from '../../shared/money/formatMoney';
import { orderAddressLines } from '../../shared/orders/orderAddressLines';
import type { OrderDetail } from '../../shared/orders/orderAdminTypes';
import { ORDER_STATUS_LABELS, ORDER_STATUSES, orderSourceLabel } from '../../shared/orders/orderStatus';
import type { OrderAddress } from '../../shared/orders/orderTypes';
import { formatAdminDate, paymentMethodLabel } from './adminFormat';

function countryName(code: string): string {
  return ALL_COUNTRIES.find(([each]) => each === code)?.[1] ?? code;
}

function AddressBlock({ address }: { address: OrderAddress }) {
  return (
    <address>
      {orderAddressLines(address, countryName).map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an address's lines are fixed in order; two may be alike.
        <span key={index} className="admin-address-line">
          {line}
        </span>
      ))}
    </address>
  );
}

/** `/admin/orders/{number}/`: one order, its status form, its items, addresses, attribution and notes. */
export function OrderPage({
  detail,
  currency,
  statusNonce,
  noteNonce,
  notice,
}: {
  detail: OrderDetail;
  currency: CurrencyFormat;
  statusNonce: string;
  noteNonce: string;
  /** What the last action did ("Order status changed …"), shown once after the redirect. */
  notice: string | null;
}) {
  const { order, attribution, notes } = detail;
  const money = (amount: number) => formatMoney(amount, currency);
  const billing = order.billing;
  const paymentMethod = paymentMethodLabel(order.paymentMethod);
  return (
    <div className="admin-order">
      {notice && (
        <p className="admin-notice" role="status">
          {notice}
        </p>
      )}
      <p className="admin-order__meta">
        Placed <time dateTime={order.createdAt}>{formatAdminDate(order.createdAt)}</time> ·{' '}
        {`Payment via ${paymentMethod}`} · <a href="/admin/orders/">All orders</a>
      </p>

      <form className="admin-status-form" method="post" action={`/admin/orders/${order.id}/status`}>
        <label htmlFor="order-status">Status</label>
        <select id="order-status" name="status" defaultValue={order.status}>
          {ORDER_STATUSES.map((each) => (
            <option key={each} value={each}>
              {ORDER_STATUS_LABELS[each]}
            </option>
          ))}
        </select>
        <input type="hidden" name="_wpnonce" value={statusNonce} />
        <button type="submit">Update</button>
      </form>

      <section aria-labelledby="order-items">
        <h2 id="order-items">Items</h2>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard. */}
        <section className="admin-table-wrap" tabIndex={0} aria-label="Items table">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Variation</th>
                <th scope="col">SKU</th>
                <th scope="col">Quantity</th>
                <th scope="col">Price</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {order.lines.map((line) => (
                <tr key={`${line.productId}-${line.variationId ?? 0}-${JSON.stringify(line.attributes)}`}>
                  <th scope="row">{line.name}</th>
                  <td>
                    {Object.entries(line.attributes)
                      .map(
                        ([attribute, value]) => `${attribute.replace(/^(attribute_)?(pa_)?/, '')}: ${value}`,
                      )
                      .join(', ') || '—'}
                  </td>
                  <td>{line.sku ?? '—'}</td>
                  <td>{line.quantity}</td>
                  <td>{money(line.unitPrice)}</td>
                  <td>{money(line.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <table className="admin-totals" aria-label="Order totals">
          <tbody>
            <tr>
              <th scope="row">Subtotal</th>
              <td>{money(order.subtotal)}</td>
            </tr>
            {order.shipping && (
              <tr>
                <th scope="row">Shipping</th>
                <td>{`${order.shipping.title} (${order.shipping.cost > 0 ? money(order.shipping.cost) : 'Free'})`}</td>
              </tr>
            )}
            {order.taxTotal > 0 && (
              <tr>
                <th scope="row">{order.taxLabel}</th>
                <td>{`${money(order.taxTotal)}${order.pricesIncludeTax ? ' (included in the prices)' : ''}`}</td>
              </tr>
            )}
            <tr>
              <th scope="row">Payment method</th>
              <td>{paymentMethod}</td>
            </tr>
            <tr>
              <th scope="row">Total</th>
              <td>
                <strong>{money(order.total)}</strong>
              </td>
            </tr>
          </tbody>
        </table>
      </section>

      <div className="admin-columns">
        <section aria-labelledby="order-billing">
          <h2 id="order-billing">Billing address</h2>
          <AddressBlock address={billing} />
          <p>
            <a href={`mailto:${billing.email}`}>{billing.email}</a>
            {billing.phone && (
              <>
                <br />
                <a href={`tel:${billing.phone}`}>{billing.phone}</a>
              </>
            )}
          </p>
          {order.customerNote && (
            <>
              <h3>Customer’s note</h3>
              <p className="admin-pre">{order.customerNote}</p>
            </>
          )}
        </section>

        <section aria-labelledby="order-shipping">
          <h2 id="order-shipping">Shipping address</h2>
          {order.shipping ? (
            <AddressBlock address={order.shippingAddress} />
          ) : (
            <p>None: the order was placed before the shop shipped.</p>
          )}
        </section>

        <section aria-labelledby="order-attribution">
          <h2 id="order-attribution">Order attribution</h2>
          {attribution ? (
            <dl className="admin-facts">
              <dt>Origin</dt>
              <dd>{orderSourceLabel(attribution.sourceType, attribution.utmSource)}</dd>
              <dt>Source</dt>
              <dd>{attribution.utmSource ?? '—'}</dd>
              <dt>Medium</dt>
              <dd>{attribution.utmMedium ?? '—'}</dd>
              <dt>Campaign</dt>
              <dd>{attribution.utmCampaign ?? '—'}</dd>
              <dt>Device type</dt>
              <dd>{attribution.deviceType}</dd>
            </dl>
          ) : (
            <p>Unknown: the order was placed without tracking.</p>
          )}
        </section>
      </div>

      <section aria-labelledby="order-notes">
        <h2 id="order-notes">Order notes</h2>
        {notes.length === 0 ? (
          <p>No notes yet.</p>
        ) : (
          <ol className="admin-notes">
            {notes.map((note) => (
              <li key={note.id} className={`admin-note admin-note--${note.author}`}>
                <p className="admin-pre">{note.text}</p>
                <p className="admin-muted">
                  <time dateTime={note.createdAt}>{formatAdminDate(note.createdAt)}</time> ·{' '}
                  {note.author === 'owner' ? 'Private note' : 'System'}
                </p>
              </li>
            ))}
          </ol>
        )}
        <form className="admin-note-form" method="post" action={`/admin/orders/${order.id}/notes`}>
          <label htmlFor="order-note">Add a private note</label>
          <textarea id="order-note" name="note" rows={3} maxLength={2000} required />
          <input type="hidden" name="_wpnonce" value={noteNonce} />
          <button type="submit">Add note</button>
        </form>
      </section>
    </div>
  );
}
