import type { CartView } from '../../shared/cart/cartTypes';
import type { ProductSummary } from '../../shared/catalog/types';
import { formatText } from '../../shared/settings/formatText';
import { CartLineQuantityInput } from '../cart/QuantityInput';
import { useFormatMoney } from '../catalog/Price';
import { ProductListSection } from '../catalog/ProductListSection';
import { useShopSettings } from '../ShopSettingsContext';

/**
 * The cart page: one form whose quantity inputs are named `cart[{key}][qty]`, an update button and a
 * remove button per line, all working without JavaScript; with it, `bindCartPage` sends the same posts without a
 * reload and fires `updated_wc_div`.
 */
export function CartPage({
  cart,
  nonce,
  crossSells = [],
}: {
  cart: CartView;
  nonce: string;
  /** The cart's products' cross-sells ("You may be interested in…"), never one already in the cart. */
  crossSells?: ProductSummary[];
}) {
  const { i18n } = useShopSettings();
  const format = useFormatMoney();
  if (cart.lines.length === 0) {
    return (
      <section className="cart-empty">
        <h1>Cart</h1>
        <p className="woocommerce-info">Your cart is currently empty.</p>
        <p>
          <a className="button" href="/shop/">
            Return to shop
          </a>
        </p>
      </section>
    );
  }
  return (
    <section className="cart-page">
      <h1>Cart</h1>
      <form method="post" action="/cart/" className="woocommerce-cart-form">
        <input type="hidden" name="_wpnonce" value={nonce} />
        {/* Enter in a quantity submits the form with its first submit button: make that "Update cart", not the
            first line's Remove. Hidden from everyone; the visible "Update cart" below is the one people use. */}
        <button
          type="submit"
          name="update_cart"
          value="1"
          className="cart-default-submit"
          tabIndex={-1}
          aria-hidden="true"
        >
          Update cart
        </button>
        <table className="shop_table shop_table_responsive cart">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Price</th>
              <th scope="col">{i18n.quantity}</th>
              <th scope="col">Subtotal</th>
              <th scope="col">
                <span className="screen-reader-text">Remove item</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {cart.lines.map((line) => (
              <tr key={line.key} className="cart_item">
                <td className="product-name">
                  <a href={line.permalink}>{line.name}</a>
                  {line.attributes.length > 0 && (
                    <dl className="variation">
                      {line.attributes.map((attribute) => (
                        <div key={attribute.label}>
                          <dt>{attribute.label}:</dt> <dd>{attribute.value}</dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </td>
                <td className="product-price" data-title="Price">
                  {format(line.unitPrice)}
                </td>
                <td className="product-quantity" data-title={i18n.quantity}>
                  <CartLineQuantityInput line={line} />
                </td>
                <td className="product-subtotal" data-title="Subtotal">
                  {format(line.lineTotal)}
                </td>
                <td className="product-remove">
                  <button
                    type="submit"
                    name="remove_item"
                    value={line.key}
                    className="remove"
                    aria-label={formatText(i18n.removeItem, line.name)}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="submit" name="update_cart" value="1" className="button button--secondary">
          Update cart
        </button>
      </form>
      <aside className="cart-totals" aria-labelledby="cart-totals-heading">
        <h2 id="cart-totals-heading">Cart totals</h2>
        <table className="shop_table">
          <tbody>
            <tr>
              <th scope="row">Subtotal</th>
              <td>{format(cart.subtotal)}</td>
            </tr>
            <tr className="order-total">
              <th scope="row">Total</th>
              <td>{format(cart.total)}</td>
            </tr>
          </tbody>
        </table>
        <a className="button checkout-button" href="/checkout/">
          Proceed to checkout
        </a>
      </aside>
      <ProductListSection
        id="cross-sells-heading"
        className="cross-sells"
        title={i18n.crossSells}
        products={crossSells}
      />
    </section>
  );
}
