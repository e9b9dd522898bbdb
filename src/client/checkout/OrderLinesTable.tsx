import type { ReactNode } from 'react';
import { useFormatMoney } from '../catalog/Price';

export interface OrderLinesRow {
  key: string;
  /** What the line is, as the cell shows it (name, options, quantity). */
  label: ReactNode;
  lineTotal: number;
}

/** A row of the totals between the lines and the grand total: subtotal, shipping, tax. */
export interface OrderTotalsRow {
  key: string;
  label: ReactNode;
  value: ReactNode;
  className?: string;
}

/** An order's lines with their totals and the grand total: the checkout review and the order-received page. */
export function OrderLinesTable({
  className,
  amountHeading,
  rows,
  totalsRows = [],
  total,
  totalNote,
}: {
  className: string;
  amountHeading: string;
  rows: OrderLinesRow[];
  totalsRows?: OrderTotalsRow[];
  total: number;
  /** Said after the total, e.g. "(includes $1.00 Tax)". */
  totalNote?: ReactNode;
}) {
  const format = useFormatMoney();
  return (
    <table className={className}>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">{amountHeading}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td>{row.label}</td>
            <td>{format(row.lineTotal)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        {totalsRows.map((row) => (
          <tr key={row.key} className={row.className}>
            <th scope="row">{row.label}</th>
            <td>{row.value}</td>
          </tr>
        ))}
        <tr className="order-total">
          <th scope="row">Total</th>
          <td>
            <strong>{format(total)}</strong>
            {totalNote && <small className="includes_tax"> {totalNote}</small>}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

/** The subtotal, shipping and tax rows of an order or of a checkout, and the note the total carries. */
export function useTotalsRows(details: {
  subtotal: number;
  shipping: { title: string; cost: number } | null;
  /** True when the address has no shipping method at all. */
  noShipping?: boolean;
  taxTotal: number;
  taxLabel: string;
  pricesIncludeTax: boolean;
}): { totalsRows: OrderTotalsRow[]; totalNote: ReactNode } {
  const format = useFormatMoney();
  const rows: OrderTotalsRow[] = [
    { key: 'subtotal', label: 'Subtotal', value: format(details.subtotal), className: 'cart-subtotal' },
  ];
  if (details.shipping) {
    rows.push({
      key: 'shipping',
      label: 'Shipping',
      value:
        details.shipping.cost > 0
          ? `${details.shipping.title}: ${format(details.shipping.cost)}`
          : details.shipping.title,
      className: 'shipping',
    });
  } else if (details.noShipping) {
    rows.push({
      key: 'shipping',
      label: 'Shipping',
      value: 'No shipping options for this address',
      className: 'shipping',
    });
  }
  if (details.taxTotal > 0 && !details.pricesIncludeTax) {
    rows.push({
      key: 'tax',
      label: details.taxLabel,
      value: format(details.taxTotal),
      className: 'tax-total',
    });
  }
  const totalNote =
    details.taxTotal > 0 && details.pricesIncludeTax
      ? `(includes ${format(details.taxTotal)} ${details.taxLabel})`
      : null;
  return { totalsRows: rows, totalNote };
}
