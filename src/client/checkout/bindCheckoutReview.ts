import { blockElement } from '../cart/blockOverlay';
import type { CheckoutShipping } from './CheckoutForm';

/** What `updated_checkout` carries: the cart hash, shipping choices and total the refreshed review shows. */
export interface UpdatedCheckoutDetail {
  cartHash: string | null;
  shipping?: CheckoutShipping;
  total?: number;
}

/** What `update_order_review` answers (docs/contract.md "Endpoints"). */
interface OrderReviewAnswer {
  cart_hash: string;
  review: string;
  shipping: CheckoutShipping;
  total: number;
}

/** Events after which the cart under an open checkout may differ: the mini-cart's and the add-to-cart buttons'. */
const CART_CHANGE_EVENTS = ['added_to_cart', 'removed_from_cart', 'wc_fragment_refresh'] as const;

/**
 * The checkout's answer to `update_checkout` (WooCommerce's checkout.js): the address, the shipping method or the
 * cart changed while the checkout is open, so the form is posted to `update_order_review`, the order review is
 * replaced with the one the server renders, and `updated_checkout` tells the form the new cart hash, shipping
 * choices and total (the server refuses an order for a cart or a total the shopper did not see). A change to the
 * cart from the mini-cart fires `update_checkout` itself. Events that come together are answered once; an earlier
 * refresh still in flight is aborted; a cart emptied meanwhile reloads the page, which then shows what the server
 * shows for an empty cart. Pages without an order review ignore the events.
 */
export function bindCheckoutReview(document: Document, options: { wcAjaxUrl: string }): () => void {
  const view = document.defaultView;
  let inFlight: AbortController | null = null;
  let scheduled: ReturnType<typeof setTimeout> | undefined;

  const refresh = () => {
    scheduled = undefined;
    const review = document.querySelector<HTMLElement>('.order-review');
    const form = document.querySelector<HTMLFormElement>('form.checkout');
    if (!review || !form || !view) return;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const unblock = blockElement(review);
    const fields = new URLSearchParams();
    for (const [name, value] of new view.FormData(form))
      if (typeof value === 'string') fields.append(name, value);
    void (async () => {
      try {
        const response = await view.fetch(options.wcAjaxUrl.replace('%%endpoint%%', 'update_order_review'), {
          method: 'POST',
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
          body: fields,
          signal: controller.signal,
        });
        const answer = (await response.json().catch(() => null)) as
          | (OrderReviewAnswer & { code?: string })
          | null;
        if (inFlight !== controller || leaving) return;
        if (!response.ok || typeof answer?.review !== 'string') {
          // An emptied cart: the page then shows what the server shows for one. Anything else leaves the review
          // and the form as they are (nothing the shopper typed is lost); the submit is checked anyway.
          if (answer?.code === 'empty_cart') view.location.reload();
          return;
        }
        const next = new view.DOMParser().parseFromString(answer.review, 'text/html');
        review.replaceChildren(
          ...Array.from(next.body.childNodes, (node) => document.importNode(node, true)),
        );
        document.dispatchEvent(
          new CustomEvent<UpdatedCheckoutDetail>('updated_checkout', {
            detail: { cartHash: answer.cart_hash, shipping: answer.shipping, total: answer.total },
          }),
        );
      } catch {
        // Aborted by a newer refresh, or offline: the review stays as it was, and the server still checks the
        // cart and the total when the order is placed.
      } finally {
        if (inFlight === controller) inFlight = null;
        unblock();
      }
    })();
  };

  // Once the order is on its way the cart is about to be emptied: a refresh then would find it empty and reload
  // the page over the navigation to the order. A page restored from the back-forward cache refreshes again.
  let leaving = false;
  const onSubmit = (event: Event) => {
    if (!(event.target as Element | null)?.matches?.('form.checkout') || event.defaultPrevented) return;
    leaving = true;
    clearTimeout(scheduled);
    scheduled = undefined;
    inFlight?.abort();
  };
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) leaving = false;
  };

  const onUpdate = () => {
    if (leaving) return;
    scheduled ??= setTimeout(refresh, 0);
  };
  const onCartChange = () => {
    if (document.querySelector('form.checkout')) document.dispatchEvent(new CustomEvent('update_checkout'));
  };

  document.addEventListener('update_checkout', onUpdate);
  document.addEventListener('submit', onSubmit);
  view?.addEventListener('pageshow', onPageShow);
  for (const name of CART_CHANGE_EVENTS) document.addEventListener(name, onCartChange);
  return () => {
    document.removeEventListener('submit', onSubmit);
    view?.removeEventListener('pageshow', onPageShow);
    document.removeEventListener('update_checkout', onUpdate);
    for (const name of CART_CHANGE_EVENTS) document.removeEventListener(name, onCartChange);
    clearTimeout(scheduled);
    inFlight?.abort();
  };
}
