import { blockElement } from '../cart/blockOverlay';

/** What `updated_checkout` carries: the cart hash the refreshed review shows, for the form to send. */
export interface UpdatedCheckoutDetail {
  cartHash: string | null;
}

/**
 * The checkout's answer to `update_checkout` (WooCommerce's checkout.js): something changed the cart while the
 * checkout is open (an add from the search box's mini-cart), so the order review is fetched again and replaced,
 * and `updated_checkout` tells the form the new cart hash (the server refuses an order for a cart the shopper
 * did not see). An earlier refresh still in flight is aborted; a cart emptied meanwhile reloads the page, which
 * then shows what the server shows for an empty cart. Pages without an order review ignore the event.
 */
export function bindCheckoutReview(document: Document): () => void {
  const view = document.defaultView;
  let inFlight: AbortController | null = null;

  const onUpdate = () => {
    const review = document.querySelector<HTMLElement>('.order-review');
    if (!review || !view) return;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const unblock = blockElement(review);
    void (async () => {
      try {
        const response = await view.fetch(view.location.href, {
          credentials: 'same-origin',
          headers: { accept: 'text/html' },
          signal: controller.signal,
        });
        const next = new view.DOMParser().parseFromString(await response.text(), 'text/html');
        if (inFlight !== controller) return;
        const nextReview = next.querySelector('.order-review');
        if (!response.ok || !nextReview) {
          view.location.reload();
          return;
        }
        review.replaceChildren(
          ...Array.from(nextReview.childNodes, (node) => document.importNode(node, true)),
        );
        const cartHash =
          next.querySelector<HTMLInputElement>('form.checkout input[name="cart_hash"]')?.value ?? null;
        document.dispatchEvent(
          new CustomEvent<UpdatedCheckoutDetail>('updated_checkout', { detail: { cartHash } }),
        );
      } catch {
        // Aborted by a newer refresh, or offline: the review stays as it was, and the server still checks the
        // cart when the order is placed.
      } finally {
        if (inFlight === controller) inFlight = null;
        unblock();
      }
    })();
  };

  document.addEventListener('update_checkout', onUpdate);
  return () => {
    document.removeEventListener('update_checkout', onUpdate);
    inFlight?.abort();
  };
}
