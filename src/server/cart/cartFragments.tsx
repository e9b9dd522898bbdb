import { renderToString } from 'react-dom/server';
import { HeaderCartLink } from '../../client/cart/HeaderCartLink';
import { MiniCartContent } from '../../client/cart/MiniCartContent';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import type { CartView } from '../../shared/cart/cartTypes';
import type { PageSettings } from '../../shared/settings/settingsSchema';

/**
 * WooCommerce's fragments answer, `{fragments, cart_hash}`: selector → markup for the parts of every page that
 * show the cart, which the cart script swaps in after a change. `qtyNonce` is the quantity nonce of the visitor's
 * session, which the request may just have created.
 */
export function cartFragments(cart: CartView, settings: PageSettings, qtyNonce: string) {
  const pageSettings = { ...settings, cart: { ...settings.cart, qtyNonce } };
  // The same components render these parts of every page, so a fragment is exactly what a fresh page would show.
  const render = (node: React.ReactNode) =>
    renderToString(<ShopSettingsContext value={pageSettings}>{node}</ShopSettingsContext>, {
      // Its own id prefix, so ids in a fragment never collide with the page's own.
      identifierPrefix: 'fragment-',
    });
  return {
    fragments: {
      'a.cart-contents': render(<HeaderCartLink cart={cart} />),
      'div.widget_shopping_cart_content': render(<MiniCartContent cart={cart} />),
    },
    cart_hash: cart.hash,
  };
}
