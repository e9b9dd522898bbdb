/*
 * Opens and closes the server-rendered CartDrawer: from the header cart control, and
 * when something is added (unless `cart.openDrawerOnAdd` is off); closed by its close button, Escape, a click on
 * the overlay or a change of viewport width. Focus moves into the dialog, stays there, and returns to the opener.
 * Listeners are delegated to the document because the header control and the mini-cart are fragments that a
 * refresh replaces.
 */

interface CartDrawerOptions {
  /** `theme.breakpoint`: below it the screen is small. */
  breakpoint: number;
  redirectToCartOnMobile: boolean;
  openOnAdd: boolean;
}

interface CartDrawer {
  open(opener?: Element | null): void;
  close(): void;
  isOpen(): boolean;
  stop(): void;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

export function createCartDrawer(document: Document, window: Window, options: CartDrawerOptions): CartDrawer {
  let opener: HTMLElement | null = null;
  let widthWhenOpened = 0;
  const root = () => document.querySelector<HTMLElement>('.cart-drawer');
  const panel = () => document.querySelector<HTMLElement>('.cart-drawer__panel');
  const isOpen = () => root()?.dataset.state === 'open';
  const setExpanded = (expanded: boolean) => {
    for (const control of document.querySelectorAll('a.cart-contents')) {
      control.setAttribute('aria-expanded', String(expanded));
    }
  };

  function open(from?: Element | null) {
    const drawer = root();
    if (!drawer || isOpen()) return;
    opener = from instanceof HTMLElement ? from : (document.activeElement as HTMLElement | null);
    widthWhenOpened = window.innerWidth;
    drawer.dataset.state = 'open';
    document.documentElement.classList.add('cart-drawer-is-open');
    setExpanded(true);
    document.querySelector<HTMLElement>('.cart-drawer__close')?.focus();
  }

  function close() {
    const drawer = root();
    if (!drawer || !isOpen()) return;
    drawer.dataset.state = 'closed';
    document.documentElement.classList.remove('cart-drawer-is-open');
    setExpanded(false);
    // The opener may have been replaced by a fragment meanwhile: its successor takes the focus.
    const target = opener?.isConnected ? opener : document.querySelector<HTMLElement>('a.cart-contents');
    target?.focus();
    opener = null;
  }

  const smallScreen = () => window.innerWidth < options.breakpoint;

  const onClick = (event: MouseEvent) => {
    const target = event.target as Element | null;
    if (!target?.closest) return;
    const control = target.closest('a.cart-contents');
    if (control) {
      if (!root() || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
      if (smallScreen() && options.redirectToCartOnMobile) return; // the link goes to the cart page
      event.preventDefault();
      if (isOpen()) close();
      else open(control);
      return;
    }
    if (target.closest('.cart-drawer__close') || target.closest('.cart-drawer__overlay')) close();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (!isOpen()) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab') return;
    // aria-modal: Tab cycles inside the dialog.
    const focusable = Array.from(panel()?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []).filter(
      (element) => element.offsetParent !== null,
    );
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    } else if (!panel()?.contains(document.activeElement)) {
      event.preventDefault();
      first.focus();
    }
  };

  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  const onResize = () => {
    // Debounced at 50 ms like the header; only a change of width closes it (not a mobile URL bar).
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (isOpen() && window.innerWidth !== widthWhenOpened) close();
    }, 50);
  };

  const onAdded = (event: Event) => {
    setExpanded(isOpen());
    if (!options.openOnAdd) return;
    const button = (event as CustomEvent<{ button?: Element | null } | undefined>).detail?.button ?? null;
    open(button);
  };

  // A refresh replaces the header control with server markup that knows nothing of the drawer's state.
  const onFragmentsApplied = () => setExpanded(isOpen());
  const fragmentEvents = ['wc_fragments_loaded', 'wc_fragments_refreshed', 'removed_from_cart'];

  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('added_to_cart', onAdded);
  for (const name of fragmentEvents) document.addEventListener(name, onFragmentsApplied);
  window.addEventListener('resize', onResize);

  return {
    open,
    close,
    isOpen,
    stop() {
      document.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('added_to_cart', onAdded);
      for (const name of fragmentEvents) document.removeEventListener(name, onFragmentsApplied);
      window.removeEventListener('resize', onResize);
      clearTimeout(resizeTimer);
    },
  };
}
