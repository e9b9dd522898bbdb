import type { PageSettings } from '../../shared/settings/settingsSchema';
import type { SearchBoxProps } from './searchBoxProps';

/*
 * The self-repair helper: search boxes without working handlers are
 * (re)mounted — ajax-loaded content, popups, an off-canvas menu, and copies a theme makes of a live box (a
 * header form cloned into the mobile menu copies the markup and ids, never the handlers). A box is live while a
 * mounted SearchBox has registered its root element; anything else that looks like a box is dead:
 * - an island container `<div data-island="searchBox" data-props="{…}">` (the containers present when the islands
 *   are hydrated belong to entry.tsx and are left to it until their box has come alive once);
 * - the box's markup (`.shop-search`, or its bare form) copied without the container, which gets a new container
 *   in its place.
 */

const ISLAND = '[data-island="searchBox"]';
const BOX_MARKUP = '.shop-search, form.shop-search__form';
/** checks 50 ms and 500 ms after load, every 1000 ms in hard mode, about 11 every 500 ms after the back arrow. */
const LOAD_CHECKS_MS = [50, 500];
const HARD_MODE_INTERVAL_MS = 1000;
const BACK_ARROW_CHECKS = 11;
const BACK_ARROW_INTERVAL_MS = 500;
/**
 * A container present when the helper starts and still not alive this long after the page says every island is
 * hydrated was never entry.tsx's: a theme copied it while the island scripts were loading.
 */
const HYDRATION_GRACE_MS = 500;

type Mount = (container: HTMLElement, props: SearchBoxProps, settings: PageSettings) => Promise<void>;

/** Roots of the boxes React has mounted and not unmounted. A clone of a root is a new element, never in here. */
const liveBoxes = new WeakSet<Element>();
/** Containers ever seen live: a container of entry.tsx's that was live once and is dead now is repaired. */
const everLive = new WeakSet<Element>();

/** Called by a mounted SearchBox with its root element; the returned function is for its unmount. */
export function registerLiveSearchBox(root: Element): () => void {
  liveBoxes.add(root);
  const container = root.closest(ISLAND);
  if (container) everLive.add(container);
  return () => liveBoxes.delete(root);
}

let started = false;

function randomSuffix(): string {
  return Math.random().toString(36).slice(2, 6).padEnd(4, '0');
}

/**
 * A copied box repeats ids already on the page: each such id — the box's own included — gets a random
 * 4-character suffix, and the labels and ARIA references inside the box follow it.
 */
export function renameDuplicateIds(container: HTMLElement, doc: Document = document): void {
  const elements = [container, ...Array.from(container.querySelectorAll<HTMLElement>('[id]'))];
  for (const element of elements) {
    const id = element.id;
    if (!id || doc.querySelectorAll(`[id="${CSS.escape(id)}"]`).length < 2) continue;
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

function readProps(container: HTMLElement): SearchBoxProps {
  try {
    return JSON.parse(container.dataset.props ?? '{}') as SearchBoxProps;
  } catch {
    // Bad props from third-party markup: mount an empty box rather than none.
    return {};
  }
}

/** Milliseconds since the page's load event, or null while the page is still loading. */
function sinceLoad(): number | null {
  if (document.readyState !== 'complete') return null;
  const [navigation] = performance.getEntriesByType?.('navigation') ?? [];
  const loadedAt = (navigation as PerformanceNavigationTiming | undefined)?.loadEventEnd;
  return loadedAt ? Math.max(0, performance.now() - loadedAt) : 0;
}

interface SelfRepairClock {
  /** Milliseconds since the page's load event; null while the page is still loading. */
  sinceLoad(): number | null;
}

/**
 * Starts the helper once per page; later calls do nothing. It lives with the page; the returned function stops
 * it (tests, and a host page tearing the shop's scripts down).
 */
export function startSelfRepair(mount: Mount, clock: SelfRepairClock = { sinceLoad }): () => void {
  if (started || typeof document === 'undefined') return () => {};
  const found = readSettings();
  if (!found) return () => {};
  const settings: PageSettings = found;
  started = true;
  const timers: number[] = [];
  const intervals: number[] = [];
  // Containers present now are being hydrated by entry.tsx.
  const hydrating = new WeakSet<Element>(Array.from(document.querySelectorAll(ISLAND)));
  // Containers this helper has mounted into; a clone of one does not inherit this, unlike an attribute.
  const mounted = new WeakSet<Element>();
  // When a hydrating container was first seen not alive after the page was marked hydrated.
  const notAliveSince = new WeakMap<Element, number>();

  /** Whether entry.tsx may still be hydrating this container (then it is left alone). */
  const mayBeHydrating = (island: Element) => {
    if (!hydrating.has(island) || everLive.has(island)) return false;
    if (document.documentElement.dataset.hydrated !== 'true') return true;
    const since = notAliveSince.get(island);
    if (since === undefined) {
      notAliveSince.set(island, Date.now());
      timers.push(window.setTimeout(scan, HYDRATION_GRACE_MS));
      return true;
    }
    return Date.now() - since < HYDRATION_GRACE_MS;
  };

  const isDead = (element: Element) => {
    const root = element.closest('.shop-search');
    return !(root && liveBoxes.has(root));
  };

  /** The container a dead box is mounted into: its island container, or a new one in place of its markup. */
  const containerFor = (box: Element): HTMLElement | null => {
    const island = box.closest<HTMLElement>(ISLAND);
    if (island) return mayBeHydrating(island) ? null : island;
    const markup = box.closest('.shop-search') ?? box;
    const input = markup.querySelector<HTMLInputElement>('input[name="s"]');
    const container = document.createElement('div');
    container.dataset.island = 'searchBox';
    container.className = 'island';
    container.dataset.props = JSON.stringify({ initialQuery: input?.value ?? '' } satisfies SearchBoxProps);
    if (markup.id) container.id = markup.id;
    markup.replaceWith(container);
    return container;
  };

  function scan() {
    const candidates = [
      ...Array.from(document.querySelectorAll<HTMLElement>(ISLAND)).filter(
        (island) => !island.querySelector('.shop-search'),
      ),
      ...Array.from(document.querySelectorAll<HTMLElement>(BOX_MARKUP)),
    ];
    for (const candidate of candidates) {
      if (!candidate.isConnected || !isDead(candidate)) continue;
      const container = containerFor(candidate);
      if (!container || mounted.has(container)) continue;
      mounted.add(container);
      renameDuplicateIds(container);
      void mount(container, readProps(container), settings);
    }
  }

  const observer = new MutationObserver((records) => {
    if (records.some((record) => record.addedNodes.length > 0 || record.attributeName === 'data-hydrated'))
      scan();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  // entry.tsx marks the page once every island is hydrated: from then on a container may be judged.
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });

  // The load checks count from the page's load event, not from when this box happened to hydrate.
  const scheduleLoadChecks = () => {
    const elapsed = clock.sinceLoad() ?? 0;
    for (const delay of LOAD_CHECKS_MS) timers.push(window.setTimeout(scan, Math.max(0, delay - elapsed)));
  };
  const onLoad = () => scheduleLoadChecks();
  if (clock.sinceLoad() === null) window.addEventListener('load', onLoad, { once: true });
  else scheduleLoadChecks();

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
    window.removeEventListener('load', onLoad);
    window.removeEventListener('pageshow', onPageShow);
    document.removeEventListener('added_to_cart', onAddedToCart);
  };
}
