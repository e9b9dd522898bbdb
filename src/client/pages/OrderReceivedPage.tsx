import { statesOf } from '../../shared/checkout/addressRules';
import { ALL_COUNTRIES } from '../../shared/checkout/countries';
import type { Order, OrderAddress } from '../../shared/orders/orderTypes';
import { paymentMethodTitle } from '../../shared/orders/paymentMethods';
import { useFormatMoney } from '../catalog/Price';
import { OrderLinesTable, useTotalsRows } from '../checkout/OrderLinesTable';

/** A bank account the shopper may pay a bank-transfer order into (`checkout.payment.bacs.accounts`). */
export interface BankAccount {
  accountName: string;
  accountNumber: string;
  bankName: string;
  sortCode: string;
  iban: string;
  bic: string;
}

/** What the order-received page says about paying, for the methods that are paid after ordering. */
export interface PaymentInstructions {
  bacsAccounts: BankAccount[];
  chequeInstructions: string;
}

function AddressLines({ address }: { address: OrderAddress }) {
  const state =
    statesOf(address.country)?.states.find(([code]) => code === address.state)?.[1] ?? address.state;
  const country = ALL_COUNTRIES.find(([code]) => code === address.country)?.[1] ?? address.country;
  const lines = [
    `${address.firstName} ${address.lastName}`.trim(),
    address.company,
    address.address1,
    address.address2,
    [address.city, state, address.postcode].filter(Boolean).join(', '),
    country,
  ].filter(Boolean);
  return (
    <address>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an address's lines are fixed in order
        <span key={index}>
          {line}
          <br />
        </span>
      ))}
    </address>
  );
}

const BANK_FIELDS: [keyof BankAccount, string][] = [
  ['bankName', 'Bank'],
  ['accountNumber', 'Account number'],
  ['sortCode', 'Sort code'],
  ['iban', 'IBAN'],
  ['bic', 'BIC'],
];

export function OrderReceivedPage({ order, payment }: { order: Order; payment: PaymentInstructions }) {
  const format = useFormatMoney();
  const { totalsRows, totalNote } = useTotalsRows({
    subtotal: order.subtotal,
    shipping: order.shipping,
    taxTotal: order.taxTotal,
    taxLabel: order.taxLabel,
    pricesIncludeTax: order.pricesIncludeTax,
  });
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
          Payment method: <strong>{paymentMethodTitle(order.paymentMethod)}</strong>
        </li>
      </ul>
      {order.paymentMethod === 'bacs' && (
        <section className="bank-details" aria-labelledby="bank-details-heading">
          <h2 id="bank-details-heading">Our bank details</h2>
          <p>Please use order number {order.id} as the payment reference.</p>
          {payment.bacsAccounts.map((account, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: accounts are listed in the settings' order
            <div key={index} className="bank-details__account">
              {account.accountName && <h3>{account.accountName}</h3>}
              <dl>
                {BANK_FIELDS.filter(([field]) => account[field]).map(([field, label]) => (
                  <div key={field}>
                    <dt>{label}</dt>
                    <dd>
                      <strong>{account[field]}</strong>
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </section>
      )}
      {order.paymentMethod === 'cheque' && (
        <p className="cheque-instructions">{payment.chequeInstructions}</p>
      )}
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
        totalsRows={[
          ...totalsRows,
          { key: 'payment', label: 'Payment method', value: paymentMethodTitle(order.paymentMethod) },
        ]}
        total={order.total}
        totalNote={totalNote}
      />
      <div className="order-addresses">
        <section aria-labelledby="billing-address-heading">
          <h2 id="billing-address-heading">Billing address</h2>
          <AddressLines address={order.billing} />
        </section>
        {order.shipping && (
          <section aria-labelledby="shipping-address-heading">
            <h2 id="shipping-address-heading">Shipping address</h2>
            <AddressLines address={order.shippingAddress} />
          </section>
        )}
      </div>
    </section>
  );
}
