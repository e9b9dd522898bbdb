import type { CartView } from '../../shared/cart/cartTypes';
import type { CheckoutQuote } from '../../shared/checkout/checkoutQuote';
import { OrderLinesTable, useTotalsRows } from './OrderLinesTable';

/**
 * The checkout's order review: the cart's lines, shipping, tax and the total the order will have. The server
 * renders it with the page and again for `update_order_review`, which the checkout swaps in.
 */
export function OrderReview({
  cart,
  quote,
  pricesIncludeTax,
}: {
  cart: CartView;
  quote: CheckoutQuote;
  pricesIncludeTax: boolean;
}) {
  const { totalsRows, totalNote } = useTotalsRows({
    subtotal: quote.totals.subtotal,
    shipping: quote.chosen,
    noShipping: quote.rates.length === 0,
    taxTotal: quote.totals.taxTotal,
    taxLabel: quote.taxLabel,
    pricesIncludeTax,
  });
  return (
    <>
      <h2 id="order-review-heading">Your order</h2>
      <OrderLinesTable
        className="shop_table"
        amountHeading="Subtotal"
        rows={cart.lines.map((line) => ({
          key: line.key,
          label: (
            <>
              {line.name}
              {line.attributes.length > 0 && ` (${line.attributes.map((each) => each.value).join(', ')})`} ×{' '}
              {line.quantity}
            </>
          ),
          lineTotal: line.lineTotal,
        }))}
        totalsRows={totalsRows}
        total={quote.totals.total}
        totalNote={totalNote}
      />
    </>
  );
}
