import { animateScroll } from './animateScroll';

/** notices take focus after 500 ms; notice scrolling uses a 100 px offset and 1000 ms. */
const NOTICE_FOCUS_DELAY_MS = 500;
const NOTICE_SCROLL_OFFSET = 100;
const NOTICE_SCROLL_MS = 1000;

// Error and message notices only: an info notice (a variation's "Out of stock" line) is a status the shopper is
// already looking at, and taking the focus from the swatch they just used would strand keyboard users.
const NOTICE_SELECTOR = '.notice--error, .notice--success, .woocommerce-error, .woocommerce-message';

function focusNotice(notice: HTMLElement) {
  if (!notice.isConnected) return;
  if (!notice.hasAttribute('tabindex')) notice.tabIndex = -1;
  notice.focus({ preventScroll: true });
}

/**
 * Error and message notices receive keyboard focus after 500 ms, so screen-reader and keyboard users land on
 * them; a notice out of sight, such as one that appears after an action (an add-to-cart or checkout error), is
 * first scrolled into view.
 */
export function enhanceNotices(document: Document): () => void {
  const view = document.defaultView;
  if (!view) return () => {};
  const timers = new Set<number>();
  const later = (callback: () => void) => {
    const timer = view.setTimeout(() => {
      timers.delete(timer);
      callback();
    }, NOTICE_FOCUS_DELAY_MS);
    timers.add(timer);
  };

  // Scrolled to 100 px below the top of the viewport (always for a notice that appears after an action, as
  // WooCommerce's scroll_to_notices does; on load only when out of sight), then focused after 500 ms.
  const reveal = (notice: HTMLElement, always: boolean) => {
    const box = notice.getBoundingClientRect();
    if (always || box.top < NOTICE_SCROLL_OFFSET || box.bottom > view.innerHeight) {
      void animateScroll(view, box.top + view.scrollY - NOTICE_SCROLL_OFFSET, NOTICE_SCROLL_MS);
    }
    // Even after a failed form submit: the notice names and links every invalid field, which stay marked.
    later(() => focusNotice(notice));
  };

  const first = document.querySelector<HTMLElement>(NOTICE_SELECTOR);
  if (first) reveal(first, false);

  const observer = new view.MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof view.HTMLElement)) continue;
        const notice = node.matches(NOTICE_SELECTOR)
          ? node
          : node.querySelector<HTMLElement>(NOTICE_SELECTOR);
        if (notice) return reveal(notice, true);
      }
    }
  });
  observer.observe(document.body, { childList: true, subtree: true });
  return () => {
    observer.disconnect();
    for (const timer of timers) view.clearTimeout(timer);
  };
}
