import type { CartView } from '../../shared/cart/cartTypes';
import { useFormatMoney } from '../catalog/Price';
import { useShopSettings } from '../ShopSettingsContext';

/** The header's cart control; also sent as the `a.cart-contents` fragment so other pages' headers stay right. */
export function HeaderCartLink({ cart }: { cart: CartView }) {
  const { i18n } = useShopSettings();
  const format = useFormatMoney();
  const items = cart.itemCount === 1 ? 'item' : 'items';
  return (
    <a href="/cart/" className="cart-contents">
      {i18n.cart} <span className="cart-contents__count">{cart.itemCount}</span>
      <span className="screen-reader-text">
        {' '}
        {items}, {format(cart.total)}
      </span>
    </a>
  );
}
