import './cart.css';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import { bindCheckoutReview } from '../checkout/bindCheckoutReview';
import { bindAjaxAddToCart } from './addToCart';
import { bindCartPage } from './bindCartPage';
import { bindMiniCart } from './bindMiniCart';
import { bindQuantityButtons } from './bindQuantityButtons';
import { wcAjaxUrl } from './cartEvents';
import { createCartDrawer } from './createCartDrawer';
import { createCartFragments } from './fragments/createCartFragments';
import { replaceFragments } from './replaceFragments';

/** Wires the cart's browser behaviour to the real page: the one place that hands the cores `window` and `document`. */
export function startCart(settings: PageSettings) {
  const { cart, i18n } = settings;
  createCartFragments(
    {
      sessionStorage: () => window.sessionStorage,
      localStorage: () => window.localStorage,
      readCookie,
      fetch: (url, init) => window.fetch(url, init),
      now: () => Date.now(),
      setTimeout: (callback, ms) => window.setTimeout(callback, ms),
      clearTimeout: (handle) => window.clearTimeout(handle as number),
      events: document,
      window,
      applyFragments: (fragments) => replaceFragments(document, fragments),
    },
    {
      storageKey: cart.storageKey ?? '',
      url: wcAjaxUrl(cart.wcAjaxUrl, 'get_refreshed_fragments'),
      timeout: cart.requestTimeout,
    },
  );
  bindQuantityButtons(document);
  createCartDrawer(document, window, {
    breakpoint: settings.theme.breakpoint,
    redirectToCartOnMobile: cart.redirectToCartOnMobile,
    openOnAdd: cart.openDrawerOnAdd,
  });
  bindMiniCart(document, {
    ajaxUrl: cart.ajaxUrl,
    wcAjaxUrlTemplate: cart.wcAjaxUrl,
    qtyNonce: cart.qtyNonce,
    quantityLimitedText: i18n.quantityLimited,
  });
  bindAjaxAddToCart(document, { wcAjaxUrlTemplate: cart.wcAjaxUrl });
  bindCartPage(document);
  bindCheckoutReview(document, { wcAjaxUrl: cart.wcAjaxUrl });
}

function readCookie(name: string): string {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return '';
}
