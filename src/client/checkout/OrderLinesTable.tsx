import type { ReactNode } from 'react';
import { useFormatMoney } from '../catalog/Price';

export interface OrderLinesRow {
  key: string;
  /** What the line is, as the cell shows it (name, options, quantity). */
  label: ReactNode;
  lineTotal: number;
}

/** An order's lines with their totals and the grand total: the checkout review and the order-received page. */
export function OrderLinesTable({
  className,
  amountHeading,
  rows,
  total,
}: {
  className: string;
  amountHeading: string;
  rows: OrderLinesRow[];
  total: number;
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
        <tr>
          <th scope="row">Total</th>
          <td>{format(total)}</td>
        </tr>
      </tfoot>
    </table>
  );
}
