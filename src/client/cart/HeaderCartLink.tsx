import type { CartView } from '../../shared/cart/cartTypes';
import { useFormatMoney } from '../catalog/Price';
import { useShopSettings } from '../ShopSettingsContext';

/**
 * The header's cart control (its name starts with "Cart": docs/contract.md "Accessibility"); also the `a.cart-contents`
 * fragment, so every page's header shows the count and total. A link, so it reaches the cart page without
 * JavaScript and on small screens with `redirectToCartOnMobile`; elsewhere the cart script opens the drawer.
 */
export function HeaderCartLink({ cart }: { cart: CartView }) {
  const { i18n, cart: cartSettings } = useShopSettings();
  const format = useFormatMoney();
  const items = cart.itemCount === 1 ? 'item' : 'items';
  return (
    <a
      href={cartSettings.cartUrl}
      className="cart-contents"
      aria-haspopup="dialog"
      aria-controls="cart-drawer"
    >
      {i18n.cart} <span className="cart-contents__count">{cart.itemCount}</span>
      <span className="screen-reader-text">
        {' '}
        {items}, <span className="cart-contents__total">{format(cart.total)}</span>
      </span>
    </a>
  );
}
