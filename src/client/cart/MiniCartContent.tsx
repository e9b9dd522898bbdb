import type { CartView } from '../../shared/cart/cartTypes';
import { useFormatMoney } from '../catalog/Price';

/** The mini-cart's contents: the `div.widget_shopping_cart_content` fragment (the drawer is the cart issue's). */
export function MiniCartContent({ cart }: { cart: CartView }) {
  const format = useFormatMoney();
  return (
    <div className="widget_shopping_cart_content">
      {cart.lines.length === 0 ? (
        <p className="woocommerce-mini-cart__empty-message">No products in the cart.</p>
      ) : (
        <>
          <ul className="woocommerce-mini-cart">
            {cart.lines.map((line) => (
              <li key={line.key} className="mini_cart_item" data-cart-item-key={line.key}>
                <a href={line.permalink}>{line.name}</a>
                <span className="quantity">
                  {line.quantity} × {format(line.unitPrice)}
                </span>
              </li>
            ))}
          </ul>
          <p className="woocommerce-mini-cart__total">
            <strong>Subtotal:</strong> {format(cart.subtotal)}
          </p>
          <p className="woocommerce-mini-cart__buttons">
            <a href="/cart/" className="button">
              View cart
            </a>{' '}
            <a href="/checkout/" className="button checkout">
              Checkout
            </a>
          </p>
        </>
      )}
    </div>
  );
}
