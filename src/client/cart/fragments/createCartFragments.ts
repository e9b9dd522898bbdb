import { type Fragments, type FragmentsAnswer, isFragments, parseFragmentsAnswer } from '../fragmentsPayload';
/*
 * The cart-fragments lifecycle of SPEC.md §4 "Cart fragments" (WooCommerce's cart-fragments.js), with no DOM of its
 * own: storage, cookies, timers, requests and the page are injected, so every branch is tested with fakes.
 *
 * Fragments are server-rendered markup keyed by CSS selector; applying them replaces those elements, so the
 * parts of a page that show the cart stay right without React knowing the cart.
 */

/** SPEC.md §9: stored fragments live 24 hours, and a refresh is scheduled that often. */
export const FRAGMENTS_LIFETIME_MS = 86_400_000;
export const CART_HASH_COOKIE = 'woocommerce_cart_hash';
export const CART_CREATED_KEY = 'wc_cart_created';
export const MINI_CART_SELECTOR = 'div.widget_shopping_cart_content';

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface CartFragmentsEnv {
  /** Getters, since merely reading `window.sessionStorage` throws where storage is blocked. */
  sessionStorage(): StorageLike;
  localStorage(): StorageLike;
  readCookie(name: string): string;
  fetch(url: string, init: RequestInit): Promise<Response>;
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Where the contract's CustomEvents are dispatched and heard (the document). */
  events: EventTarget;
  /** Where `storage` and `pageshow` arrive (the window). */
  window: EventTarget;
  /** Replaces the elements each selector matches with its markup. */
  applyFragments(fragments: Fragments): void;
}

export interface CartFragmentsOptions {
  /** `cart.storageKey`: a short hash of the shop's base URL (CONTRACT.md "Cookies and storage"). */
  storageKey: string;
  /** The `get_refreshed_fragments` endpoint. */
  url: string;
  /** `cart.requestTimeout` in ms; 0 for none. */
  timeout: number;
}

export interface CartFragments {
  /** Asks the server for fresh fragments; an older request still in flight is aborted. */
  refresh(): Promise<void>;
  /** Detaches every listener and timer (tests, and pages that unload the cart). */
  stop(): void;
}

/** Starts the lifecycle: uses or refetches the stored fragments, then listens for every refresh trigger. */
export function createCartFragments(env: CartFragmentsEnv, options: CartFragmentsOptions): CartFragments {
  const hashKey = `wc_cart_hash_${options.storageKey}`;
  const fragmentsKey = `wc_fragments_${options.storageKey}`;
  const storage = probeStorage(env);
  let timer: unknown = null;
  let inFlight: AbortController | null = null;

  const dispatch = (name: string, detail?: unknown) =>
    env.events.dispatchEvent(new CustomEvent(name, { detail }));

  function schedule(ms: number) {
    if (timer !== null) env.clearTimeout(timer);
    timer = env.setTimeout(() => {
      timer = null;
      void refresh();
    }, ms);
  }

  /** `fresh`: the fragments just came from the server, so their 24 h lifetime starts now. */
  function storeCart(fragments: Fragments, hash: string, fresh: boolean) {
    if (!storage) return;
    try {
      // Otherwise the lifetime counts from when this browser first saw a cart (as WooCommerce does).
      if (hash && (fresh || !storage.session.getItem(hashKey))) {
        storage.session.setItem(CART_CREATED_KEY, String(env.now()));
      }
      storage.session.setItem(fragmentsKey, JSON.stringify(fragments));
      storage.session.setItem(hashKey, hash);
      // Local storage is shared by the shop's tabs: writing it fires `storage` in the others.
      storage.local.setItem(hashKey, hash);
    } catch {
      // Quota reached mid-write: the next load refetches, which is all that is lost.
    }
  }

  async function refresh(): Promise<void> {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    // 0 means no timeout (a slow server is waited for), not "abort at once".
    const timeout = options.timeout > 0 ? env.setTimeout(() => controller.abort(), options.timeout) : null;
    try {
      const response = await env.fetch(options.url, {
        method: 'POST',
        body: new URLSearchParams({ time: String(env.now()) }),
        credentials: 'same-origin',
        signal: controller.signal,
      });
      if (!response.ok) throw new Error(`get_refreshed_fragments answered ${response.status}`);
      const data = parseFragmentsAnswer(await response.json());
      if (!data) throw new Error('get_refreshed_fragments answered malformed JSON');
      // A later refresh superseded this one: its answer is the one that counts.
      if (inFlight !== controller) return;
      env.applyFragments(data.fragments);
      storeCart(data.fragments, data.cart_hash, true);
      dispatch('wc_fragments_refreshed', data satisfies FragmentsAnswer);
      if (data.cart_hash) schedule(FRAGMENTS_LIFETIME_MS);
    } catch (error) {
      if (inFlight !== controller) return;
      dispatch('wc_fragments_ajax_error', { error });
    } finally {
      if (timeout !== null) env.clearTimeout(timeout);
      if (inFlight === controller) inFlight = null;
    }
  }

  /** On load: the stored fragments when they are this cart's and fresh, else a refetch (SPEC.md §4, §8). */
  function load() {
    const cookieHash = env.readCookie(CART_HASH_COOKIE);
    if (!storage) {
      // Without storage every load fetches, but a visitor with no cart still costs no request.
      if (cookieHash) void refresh();
      return;
    }
    let storedHash: string;
    let created: string | null;
    let fragments: Fragments | null;
    try {
      storedHash = storage.session.getItem(hashKey) ?? '';
      created = storage.session.getItem(CART_CREATED_KEY);
      fragments = parseStoredFragments(storage.session.getItem(fragmentsKey));
    } catch {
      void refresh();
      return;
    }
    if (!cookieHash && !storedHash) return; // no cart anywhere: the page's own empty mini-cart is right
    if (storedHash && !created) return void refresh(); // missing created time
    if (created) {
      const expiresAt = Number(created) + FRAGMENTS_LIFETIME_MS;
      const now = env.now();
      if (!Number.isFinite(expiresAt) || expiresAt < now) return void refresh(); // stale
      schedule(expiresAt - now);
    }
    if (fragments?.[MINI_CART_SELECTOR] !== undefined && storedHash === cookieHash) {
      env.applyFragments(fragments);
      dispatch('wc_fragments_loaded');
    } else {
      void refresh(); // hash mismatch, or nothing stored
    }
  }

  const onRefreshAsked = () => void refresh();
  const onCartChanged = (event: Event) => {
    const detail = (event as CustomEvent<Partial<FragmentsAnswer> | null | undefined>).detail;
    if (detail && isFragments(detail.fragments) && typeof detail.cart_hash === 'string') {
      storeCart(detail.fragments, detail.cart_hash, false);
      return;
    }
    // Third-party code announces its own adds and removes without the server's answer: the cart changed and
    // nothing here says how, so ask the server.
    void refresh();
  };
  const onStorage = (event: Event) => {
    if ((event as StorageEvent).key !== hashKey || !storage) return;
    try {
      if (storage.local.getItem(hashKey) !== storage.session.getItem(hashKey)) void refresh();
    } catch {
      void refresh();
    }
  };
  const onPageShow = (event: Event) => {
    // Restored from the back-forward cache: the page is as it was when left, the cart may not be.
    if ((event as PageTransitionEvent).persisted) void refresh();
  };

  const documentListeners: [string, (event: Event) => void][] = [
    ['wc_fragment_refresh', onRefreshAsked],
    ['updated_wc_div', onRefreshAsked],
    ['customize_partial_rendered', onRefreshAsked],
    ['added_to_cart', onCartChanged],
    ['removed_from_cart', onCartChanged],
  ];
  for (const [name, listener] of documentListeners) env.events.addEventListener(name, listener);
  env.window.addEventListener('storage', onStorage);
  env.window.addEventListener('pageshow', onPageShow);
  load();

  return {
    refresh,
    stop() {
      for (const [name, listener] of documentListeners) env.events.removeEventListener(name, listener);
      env.window.removeEventListener('storage', onStorage);
      env.window.removeEventListener('pageshow', onPageShow);
      if (timer !== null) env.clearTimeout(timer);
      timer = null;
      inFlight?.abort();
      inFlight = null;
    },
  };
}

/** Storage that is missing or throws (private mode, quota, blocked) means: fetch on every load. */
function probeStorage(env: CartFragmentsEnv): { session: StorageLike; local: StorageLike } | null {
  try {
    const session = env.sessionStorage();
    const local = env.localStorage();
    session.setItem('wc', 'test');
    session.removeItem('wc');
    local.setItem('wc', 'test');
    local.removeItem('wc');
    return { session, local };
  } catch {
    return null;
  }
}

function parseStoredFragments(text: string | null): Fragments | null {
  if (!text) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isFragments(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
