/*
 * The page-blocking overlay, with WooCommerce's blockUI defaults: base z-index 1000, fading in over
 * 200 ms to opacity 0.6 and out over 400 ms. It covers one element while a request about it is in flight.
 */
const BLOCK_OVERLAY = { zIndex: 1000, fadeInMs: 200, fadeOutMs: 400, opacity: 0.6 } as const;

/** Covers `element` and marks it busy; the returned function fades the overlay out and removes it. */
export function blockElement(element: HTMLElement): () => void {
  const overlay = element.ownerDocument.createElement('div');
  overlay.className = 'blockUI blockOverlay';
  Object.assign(overlay.style, {
    position: 'absolute',
    inset: '0',
    zIndex: String(BLOCK_OVERLAY.zIndex),
    background: '#fff',
    opacity: '0',
    cursor: 'wait',
    transition: `opacity ${BLOCK_OVERLAY.fadeInMs}ms`,
  });
  if (getComputedStyle(element).position === 'static') element.style.position = 'relative';
  element.setAttribute('aria-busy', 'true');
  element.append(overlay);
  // Next frame, so the transition runs from 0.
  requestAnimationFrame(() => {
    overlay.style.opacity = String(BLOCK_OVERLAY.opacity);
  });
  let done = false;
  return () => {
    if (done) return;
    done = true;
    element.removeAttribute('aria-busy');
    overlay.style.transition = `opacity ${BLOCK_OVERLAY.fadeOutMs}ms`;
    overlay.style.opacity = '0';
    setTimeout(() => overlay.remove(), BLOCK_OVERLAY.fadeOutMs);
  };
}
