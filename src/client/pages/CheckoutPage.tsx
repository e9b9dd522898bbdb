import type { CartView } from '../../shared/cart/cartTypes';
import type { CheckoutQuote } from '../../shared/checkout/checkoutQuote';
import CheckoutForm, { type CheckoutFormProps } from '../checkout/CheckoutForm';
import { OrderReview } from '../checkout/OrderReview';
import { Island } from '../Island';

/** Checkout: the billing form beside a review of the order. */
export function CheckoutPage({
  cart,
  quote,
  pricesIncludeTax,
  form,
}: {
  cart: CartView;
  quote: CheckoutQuote;
  pricesIncludeTax: boolean;
  form: CheckoutFormProps;
}) {
  return (
    <section className="checkout-page">
      <h1>Checkout</h1>
      <div className="checkout-page__layout">
        <Island name="checkoutForm" component={CheckoutForm} props={form} />
        <aside aria-labelledby="order-review-heading" className="order-review">
          <OrderReview cart={cart} quote={quote} pricesIncludeTax={pricesIncludeTax} />
        </aside>
      </div>
    </section>
  );
}
