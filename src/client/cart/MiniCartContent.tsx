import type { CartView } from '../../shared/cart/cartTypes';
import { formatText } from '../../shared/settings/formatText';
import { useFormatMoney } from '../catalog/Price';
import { useShopSettings } from '../ShopSettingsContext';
import { CartLineQuantityInput } from './QuantityInput';

/**
 * The mini-cart's contents: the `div.widget_shopping_cart_content` fragment, rendered by the same component on
 * pages and in fragments. It carries the quantity nonce of the session it was rendered for, since a cart added
 * without a page load may have started a new session after the page's own nonce was written.
 */
export function MiniCartContent({ cart }: { cart: CartView }) {
  const format = useFormatMoney();
  const { i18n, cart: cartSettings } = useShopSettings();
  return (
    <div className="widget_shopping_cart_content" data-qty-nonce={cartSettings.qtyNonce ?? undefined}>
      {cart.lines.length === 0 ? (
        <p className="woocommerce-mini-cart__empty-message">{i18n.emptyMiniCart}</p>
      ) : (
        <>
          <ul className="woocommerce-mini-cart">
            {cart.lines.map((line) => (
              <li key={line.key} className="mini_cart_item" data-cart-item-key={line.key}>
                {/* Decorative: the name beside it is the link and says what it is. */}
                {line.image ? (
                  <img
                    className="mini_cart_item__thumbnail"
                    src={line.image.src}
                    srcSet={line.image.srcSet}
                    sizes="48px"
                    alt=""
                    width={48}
                    height={48}
                    loading="lazy"
                    decoding="async"
                  />
                ) : (
                  <span className="mini_cart_item__thumbnail" aria-hidden="true" />
                )}
                <div className="mini_cart_item__main">
                  <a href={line.permalink} className="mini_cart_item__name">
                    {line.name}
                  </a>
                  {line.attributes.length > 0 && (
                    <span className="mini_cart_item__attributes">
                      {line.attributes
                        .map((attribute) => `${attribute.label}: ${attribute.value}`)
                        .join(', ')}
                    </span>
                  )}
                  <span className="mini_cart_item__price">
                    {format(line.unitPrice)} each ·{' '}
                    <span className="mini_cart_item__total">{format(line.lineTotal)}</span>
                  </span>
                </div>
                <CartLineQuantityInput line={line} />
                <button
                  type="button"
                  className="remove remove_from_cart_button"
                  data-cart_item_key={line.key}
                  aria-label={formatText(i18n.removeItem, line.name)}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          <p className="woocommerce-mini-cart__total">
            <strong>{i18n.subtotal}</strong>{' '}
            <span className="woocommerce-mini-cart__subtotal">{format(cart.subtotal)}</span>
          </p>
          <p className="woocommerce-mini-cart__buttons">
            <a href={cartSettings.cartUrl} className="button">
              {i18n.viewCart}
            </a>{' '}
            <a href="/checkout/" className="button checkout">
              {i18n.checkout}
            </a>
          </p>
        </>
      )}
    </div>
  );
}
