import type { CSSProperties, ReactNode } from 'react';
import type { BankDetails, OrderMailContent } from './orderMailContent';

/*
 * The HTML part of an order mail. Mail clients ignore style sheets and most CSS, so the layout is one table with
 * a few inline styles; React escapes every text (a product or customer name is data, never markup).
 */

const page: CSSProperties = {
  margin: 0,
  padding: '16px',
  backgroundColor: '#f6f6f6',
  fontFamily: 'Helvetica, Arial, sans-serif',
  color: '#222222',
  fontSize: '15px',
  lineHeight: 1.5,
};
const sheet: CSSProperties = {
  maxWidth: '600px',
  margin: '0 auto',
  backgroundColor: '#ffffff',
  padding: '24px',
};
const cell: CSSProperties = { padding: '8px 4px', borderBottom: '1px solid #e5e5e5', textAlign: 'left' };
const amount: CSSProperties = { ...cell, textAlign: 'right', whiteSpace: 'nowrap' };
const small: CSSProperties = { color: '#666666', fontSize: '13px' };
const subheading: CSSProperties = { fontSize: '17px', margin: '20px 0 8px' };

function AddressLines({ lines }: { lines: string[] }) {
  return (
    <p>
      {lines.map((line, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the address lines are fixed in order.
        <span key={index}>
          {index > 0 ? <br /> : null}
          {line}
        </span>
      ))}
    </p>
  );
}

function BankDetailsPart({ details }: { details: BankDetails }) {
  return (
    <>
      <h2 style={subheading}>Our bank details</h2>
      <p>{details.reference}</p>
      {details.accounts.map((account, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: accounts are listed in the settings' order.
        <p key={index}>
          {account.name ? <strong>{account.name}</strong> : null}
          {account.fields.map((field, fieldIndex) => (
            <span key={field.label}>
              {account.name || fieldIndex > 0 ? <br /> : null}
              {field.label}: <strong>{field.value}</strong>
            </span>
          ))}
        </p>
      ))}
    </>
  );
}

function TotalsRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th style={cell} colSpan={2}>
        {label}
      </th>
      <td style={amount}>{children}</td>
    </tr>
  );
}

export function OrderMailHtml({ content }: { content: OrderMailContent }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{content.subject}</title>
      </head>
      <body style={page}>
        <div style={sheet}>
          <p style={small}>{content.shopName}</p>
          <h1 style={{ fontSize: '22px', margin: '0 0 12px' }}>{content.heading}</h1>
          <p>{content.intro}</p>
          {content.bankDetails ? <BankDetailsPart details={content.bankDetails} /> : null}
          <h2 style={subheading}>
            Order #{content.orderNumber} ({content.date})
          </h2>
          <table cellPadding={0} cellSpacing={0} style={{ width: '100%', borderCollapse: 'collapse' }}>
            <thead>
              <tr>
                <th style={cell}>Product</th>
                <th style={amount}>Quantity</th>
                <th style={amount}>Total</th>
              </tr>
            </thead>
            <tbody>
              {content.lines.map((line, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never reorder; two may share a name.
                <tr key={index}>
                  <td style={cell}>
                    {line.name}
                    {line.variation ? (
                      <>
                        <br />
                        <span style={small}>{line.variation}</span>
                      </>
                    ) : null}
                  </td>
                  <td style={amount}>{line.quantity}</td>
                  <td style={amount}>{line.total}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <TotalsRow label="Subtotal">{content.subtotal}</TotalsRow>
              {content.shipping ? <TotalsRow label="Shipping">{content.shipping}</TotalsRow> : null}
              {content.tax ? <TotalsRow label={content.tax.label}>{content.tax.amount}</TotalsRow> : null}
              <TotalsRow label="Payment method">{content.paymentMethod}</TotalsRow>
              <TotalsRow label="Total">
                <strong>{content.total}</strong>
                {content.totalNote ? (
                  <>
                    {' '}
                    <span style={small}>{content.totalNote}</span>
                  </>
                ) : null}
              </TotalsRow>
            </tfoot>
          </table>
          {content.customerNote ? (
            <>
              <h2 style={subheading}>Note</h2>
              <p style={{ whiteSpace: 'pre-line' }}>{content.customerNote}</p>
            </>
          ) : null}
          <h2 style={subheading}>Billing address</h2>
          <AddressLines lines={content.billing} />
          {content.shippingAddress ? (
            <>
              <h2 style={subheading}>Shipping address</h2>
              <AddressLines lines={content.shippingAddress} />
            </>
          ) : null}
          {content.link ? (
            <p>
              <a href={content.link.url} style={{ color: '#1a5fb4' }}>
                {content.link.label}
              </a>
            </p>
          ) : null}
        </div>
      </body>
    </html>
  );
}
