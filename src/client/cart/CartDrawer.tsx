import type { CartView } from '../../shared/cart/cartTypes';
import { useShopSettings } from '../ShopSettingsContext';
import { MiniCartContent } from './MiniCartContent';

/**
 * The slide-in mini-cart: a `role="dialog"` named "Cart" beside a page overlay. Server-rendered
 * and never hydrated: `createCartDrawer` opens and closes it, and fragments replace the mini-cart inside it, so
 * React never has to know the cart. `cart.layout: dropdown` shows the same panel under the header instead.
 */
export function CartDrawer({ cart }: { cart: CartView }) {
  const { i18n, cart: settings } = useShopSettings();
  return (
    <div className={`cart-drawer cart-drawer--${settings.layout}`} data-state="closed">
      <div className="cart-drawer__overlay" />
      <div
        id="cart-drawer"
        className="cart-drawer__panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="cart-drawer-title"
        tabIndex={-1}
      >
        <div className="cart-drawer__header">
          <h2 id="cart-drawer-title" className="cart-drawer__title">
            {i18n.cart}
          </h2>
          <button type="button" className="cart-drawer__close" aria-label={i18n.close}>
            ×
          </button>
        </div>
        <div className="cart-drawer__body">
          {/* Why a typed quantity was changed (bindMiniCart); outside the fragment, so a refresh keeps it. */}
          <p className="woocommerce-mini-cart__notice" role="status" />
          <MiniCartContent cart={cart} />
        </div>
      </div>
    </div>
  );
}
