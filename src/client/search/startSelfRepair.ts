import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { SearchBoxProps } from './SearchBox';

/*
 * The self-repair helper (SPEC.md §4 "Self-repair helper", §9 timers): search boxes that appear after load —
 * ajax-loaded content, popups, an off-canvas menu — are mounted automatically. A box is a
 * `<div data-island="searchBox" data-props="{…}">` container; the ones present when the islands were hydrated
 * belong to entry.tsx and are never touched here.
 */

const SELECTOR = '[data-island="searchBox"]';
const MOUNTED = 'searchMounted';
/** SPEC.md §9: checks 50 ms and 500 ms after load, every 1000 ms in hard mode, about 11 every 500 ms after the back arrow. */
const LOAD_CHECKS_MS = [50, 500];
const HARD_MODE_INTERVAL_MS = 1000;
const BACK_ARROW_CHECKS = 11;
const BACK_ARROW_INTERVAL_MS = 500;

type Mount = (container: HTMLElement, props: SearchBoxProps, settings: PageSettings) => Promise<void>;

let started = false;

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 6).padEnd(4, '0');
}

/**
 * Boxes outside React (third-party markup) may repeat an id already on the page: each such id gets a random
 * 4-character suffix, and the labels and ARIA references inside the box follow it.
 */
export function renameDuplicateIds(container: HTMLElement, doc: Document = document): void {
  for (const element of Array.from(container.querySelectorAll<HTMLElement>('[id]'))) {
    const id = element.id;
    if (doc.querySelectorAll(`[id="${CSS.escape(id)}"]`).length < 2) continue;
    const renamed = `${id}-${randomSuffix()}`;
    element.id = renamed;
    for (const attribute of ['for', 'aria-controls', 'aria-labelledby', 'aria-describedby']) {
      for (const reference of Array.from(container.querySelectorAll(`[${attribute}="${CSS.escape(id)}"]`))) {
        reference.setAttribute(attribute, renamed);
      }
    }
  }
}

function readSettings(): PageSettings | null {
  const script = document.getElementById('shop-settings');
  try {
    return script?.textContent ? (JSON.parse(script.textContent) as PageSettings) : null;
  } catch {
    return null;
  }
}

/**
 * Starts the helper once per page; later calls do nothing. It lives with the page; the returned function stops
 * it (tests, and a host page tearing the shop's scripts down).
 */
export function startSelfRepair(mount: Mount): () => void {
  if (started || typeof document === 'undefined') return () => {};
  const settings = readSettings();
  if (!settings) return () => {};
  started = true;
  const timers: number[] = [];
  const intervals: number[] = [];
  // Containers present now are being hydrated by entry.tsx.
  const owned = new WeakSet<Element>(Array.from(document.querySelectorAll(SELECTOR)));

  const scan = () => {
    for (const container of Array.from(document.querySelectorAll<HTMLElement>(SELECTOR))) {
      if (owned.has(container) || container.dataset[MOUNTED]) continue;
      container.dataset[MOUNTED] = 'true';
      renameDuplicateIds(container);
      let props: SearchBoxProps = {};
      try {
        props = JSON.parse(container.dataset.props ?? '{}') as SearchBoxProps;
      } catch {
        // Bad props from third-party markup: mount an empty box rather than none.
      }
      void mount(container, props, settings);
    }
  };

  const observer = new MutationObserver((records) => {
    if (records.some((record) => record.addedNodes.length > 0)) scan();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  for (const delay of LOAD_CHECKS_MS) timers.push(window.setTimeout(scan, delay));
  if (settings.search.selfRepairHardMode) intervals.push(window.setInterval(scan, HARD_MODE_INTERVAL_MS));
  const onPageShow = (event: PageTransitionEvent) => {
    if (!event.persisted) return;
    // Back arrow into a page restored from the back-forward cache: themes re-render parts of it late.
    for (let check = 1; check <= BACK_ARROW_CHECKS; check += 1) {
      timers.push(window.setTimeout(scan, check * BACK_ARROW_INTERVAL_MS));
    }
  };
  // After add-to-cart on the checkout page with a search box present, the checkout totals must be recomputed.
  const onAddedToCart = () => {
    if (document.querySelector('form.checkout') && document.querySelector('.shop-search')) {
      document.dispatchEvent(new CustomEvent('update_checkout'));
    }
  };
  window.addEventListener('pageshow', onPageShow);
  document.addEventListener('added_to_cart', onAddedToCart);
  return () => {
    started = false;
    observer.disconnect();
    for (const timer of timers) window.clearTimeout(timer);
    for (const interval of intervals) window.clearInterval(interval);
    window.removeEventListener('pageshow', onPageShow);
    document.removeEventListener('added_to_cart', onAddedToCart);
  };
}
