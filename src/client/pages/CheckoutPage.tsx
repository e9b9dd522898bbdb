import type { CartView } from '../../shared/cart/cartTypes';
import { useFormatMoney } from '../catalog/Price';
import CheckoutForm, { type CheckoutFormProps } from '../checkout/CheckoutForm';
import { Island } from '../Island';

/** Checkout: the billing form beside a review of the order. */
export function CheckoutPage({ cart, form }: { cart: CartView; form: CheckoutFormProps }) {
  const format = useFormatMoney();
  return (
    <section className="checkout-page">
      <h1>Checkout</h1>
      <div className="checkout-page__layout">
        <Island name="checkoutForm" component={CheckoutForm} props={form} />
        <aside aria-labelledby="order-review-heading" className="order-review">
          <h2 id="order-review-heading">Your order</h2>
          <table className="shop_table">
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Subtotal</th>
              </tr>
            </thead>
            <tbody>
              {cart.lines.map((line) => (
                <tr key={line.key}>
                  <td>
                    {line.name}
                    {line.attributes.length > 0 &&
                      ` (${line.attributes.map((each) => each.value).join(', ')})`}{' '}
                    × {line.quantity}
                  </td>
                  <td>{format(line.lineTotal)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td>{format(cart.total)}</td>
              </tr>
            </tfoot>
          </table>
        </aside>
      </div>
    </section>
  );
}
