import type { FastifyReply } from 'fastify';
import type { CartView } from '../../shared/cart/cartTypes';

/**
 * The cart cookies WooCommerce's scripts and page caches read (whether the cart has items, and its hash): they are
 * not HttpOnly on purpose, since scripts read them, and are cleared once the cart is empty so caches serve the
 * cached page again.
 */
export function setCartCookies(reply: FastifyReply, cart: CartView, secure: boolean) {
  const options = { path: '/', sameSite: 'lax' as const, secure };
  if (cart.itemCount > 0) {
    reply.setCookie('woocommerce_items_in_cart', '1', options);
    reply.setCookie('woocommerce_cart_hash', cart.hash, options);
  } else {
    reply.clearCookie('woocommerce_items_in_cart', options);
    reply.clearCookie('woocommerce_cart_hash', options);
  }
}
