import type { CartView } from '../../shared/cart/cartTypes';
import CheckoutForm, { type CheckoutFormProps } from '../checkout/CheckoutForm';
import { OrderLinesTable } from '../checkout/OrderLinesTable';
import { Island } from '../Island';

/** Checkout: the billing form beside a review of the order. */
export function CheckoutPage({ cart, form }: { cart: CartView; form: CheckoutFormProps }) {
  return (
    <section className="checkout-page">
      <h1>Checkout</h1>
      <div className="checkout-page__layout">
        <Island name="checkoutForm" component={CheckoutForm} props={form} />
        <aside aria-labelledby="order-review-heading" className="order-review">
          <h2 id="order-review-heading">Your order</h2>
          <OrderLinesTable
            className="shop_table"
            amountHeading="Subtotal"
            rows={cart.lines.map((line) => ({
              key: line.key,
              label: (
                <>
                  {line.name}
                  {line.attributes.length > 0 && ` (${line.attributes.map((each) => each.value).join(', ')})`}{' '}
                  × {line.quantity}
                </>
              ),
              lineTotal: line.lineTotal,
            }))}
            total={cart.total}
          />
        </aside>
      </div>
    </section>
  );
}
