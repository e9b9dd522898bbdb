import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Fragments } from '../fragmentsPayload';
import {
  CART_CREATED_KEY,
  type CartFragments,
  type CartFragmentsEnv,
  createCartFragments,
  MINI_CART_SELECTOR,
  type StorageLike,
} from './createCartFragments';

const KEY = 'abc123';
const HASH_KEY = `wc_cart_hash_${KEY}`;
const FRAGMENTS_KEY = `wc_fragments_${KEY}`;
const STORED: Fragments = { [MINI_CART_SELECTOR]: '<div class="widget_shopping_cart_content">stored</div>' };
const FRESH: Fragments = { [MINI_CART_SELECTOR]: '<div class="widget_shopping_cart_content">fresh</div>' };

class FakeStorage implements StorageLike {
  items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** Storage as private mode or a full quota leaves it: every call throws. */
class ThrowingStorage implements StorageLike {
  getItem(): string | null {
    throw new DOMException('denied', 'SecurityError');
  }
  setItem() {
    throw new DOMException('full', 'QuotaExceededError');
  }
  removeItem() {
    throw new DOMException('denied', 'SecurityError');
  }
}

interface Harness {
  env: CartFragmentsEnv;
  session: StorageLike;
  local: StorageLike;
  cookies: Map<string, string>;
  fetch: ReturnType<typeof vi.fn>;
  applied: Fragments[];
  events: string[];
  document: EventTarget;
  window: EventTarget;
}

function harness(options: { session?: StorageLike; local?: StorageLike; answerHash?: string } = {}): Harness {
  const session = options.session ?? new FakeStorage();
  const local = options.local ?? new FakeStorage();
  const cookies = new Map<string, string>();
  const applied: Fragments[] = [];
  const events: string[] = [];
  const document = new EventTarget();
  const window = new EventTarget();
  for (const name of ['wc_fragments_loaded', 'wc_fragments_refreshed', 'wc_fragments_ajax_error']) {
    document.addEventListener(name, () => events.push(name));
  }
  const fetch = vi.fn(
    async () =>
      new Response(JSON.stringify({ fragments: FRESH, cart_hash: options.answerHash ?? 'h-server' }), {
        headers: { 'content-type': 'application/json' },
      }),
  );
  return {
    session,
    local,
    cookies,
    fetch,
    applied,
    events,
    document,
    window,
    env: {
      sessionStorage: () => session,
      localStorage: () => local,
      readCookie: (name) => cookies.get(name) ?? '',
      fetch,
      now: () => Date.now(),
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
      events: document,
      window,
      applyFragments: (fragments) => applied.push(fragments),
    },
  };
}

/** What a browser holds after an earlier page stored this cart at `createdAt`. */
function storeCart(h: Harness, hash: string, createdAt: number | null, fragments: Fragments = STORED) {
  h.session.setItem(HASH_KEY, hash);
  h.local.setItem(HASH_KEY, hash);
  h.session.setItem(FRAGMENTS_KEY, JSON.stringify(fragments));
  if (createdAt !== null) h.session.setItem(CART_CREATED_KEY, String(createdAt));
}

/** Stored fragments live 24 hours and are refreshed that often: written out, not imported, so a change shows. */
const DAY_MS = 24 * 60 * 60 * 1000;

const options = { storageKey: KEY, url: '/?wc-ajax=get_refreshed_fragments', timeout: 5000 };
let running: CartFragments[] = [];
const start = (h: Harness) => {
  const fragments = createCartFragments(h.env, options);
  running.push(fragments);
  return fragments;
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T10:00:00Z') });
});
afterEach(() => {
  for (const each of running) each.stop();
  running = [];
  vi.useRealTimers();
});

describe('on load', () => {
  it('makes no request at all for a visitor with no cart cookie and no stored hash', async () => {
    const h = harness();
    start(h);
    await vi.runAllTimersAsync();
    expect(h.fetch).not.toHaveBeenCalled();
    expect(h.applied).toEqual([]);
    expect(h.events).toEqual([]);
  });

  it('uses fresh stored fragments whose hash equals the cookie, without a request', async () => {
    const h = harness();
    storeCart(h, 'h1', Date.now() - 60_000);
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
    expect(h.applied).toEqual([STORED]);
    expect(h.events).toEqual(['wc_fragments_loaded']);
  });

  it('refetches fragments older than 24 hours', async () => {
    const h = harness();
    storeCart(h, 'h1', Date.now() - DAY_MS - 1);
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.applied).toEqual([FRESH]);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
  });

  it('refetches when the stored hash differs from the cookie (the cart changed elsewhere)', async () => {
    const h = harness();
    storeCart(h, 'h1', Date.now() - 60_000);
    h.cookies.set('woocommerce_cart_hash', 'h2');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.applied).toEqual([FRESH]);
    expect(h.session.getItem(HASH_KEY)).toBe('h-server');
  });

  it('refetches when a cart was stored but the cookie is gone (emptied by an order)', async () => {
    const h = harness({ answerHash: '' });
    storeCart(h, 'h1', Date.now() - 60_000);
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.session.getItem(HASH_KEY)).toBe('');
  });

  it('refetches when the stored hash has no created time', async () => {
    const h = harness();
    storeCart(h, 'h1', null);
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.applied).toEqual([FRESH]);
    // The refresh starts the 24 h clock of the stored cart.
    expect(h.session.getItem(CART_CREATED_KEY)).toBe(String(Date.now()));
  });

  it('refetches a cookie cart when nothing was stored yet', async () => {
    const h = harness();
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.session.getItem(FRAGMENTS_KEY)).toBe(JSON.stringify(FRESH));
    expect(h.local.getItem(HASH_KEY)).toBe('h-server');
  });

  it('fetches on every load when storage throws, and never writes to it', async () => {
    const h = harness({ session: new ThrowingStorage(), local: new ThrowingStorage() });
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.applied).toEqual([FRESH]);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
    start(harnessSharing(h));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(2);
  });

  it('sends nothing when storage throws and there is no cart cookie', async () => {
    const h = harness({ session: new ThrowingStorage(), local: new ThrowingStorage() });
    start(h);
    await vi.runAllTimersAsync();
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('treats the storage getter itself throwing (blocked storage) as unavailable', async () => {
    const h = harness();
    h.env.sessionStorage = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });

  it('ignores stored fragments that are not a selector → markup map', async () => {
    const h = harness();
    storeCart(h, 'h1', Date.now() - 60_000);
    h.session.setItem(FRAGMENTS_KEY, '{"div.widget_shopping_cart_content": 42');
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });
});

/** A second page load of the same browser: same storage and cookies, new listeners. */
function harnessSharing(h: Harness): Harness {
  return { ...h, env: { ...h.env } };
}

describe('the 24-hour refresh', () => {
  it('refreshes when the stored fragments reach 24 hours, then every 24 hours after', async () => {
    const h = harness({ answerHash: 'h1' });
    const age = 60 * 60 * 1000;
    storeCart(h, 'h1', Date.now() - age);
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(DAY_MS - age - 1);
    expect(h.fetch).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(DAY_MS - 1);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetch).toHaveBeenCalledTimes(2);
  });

  it('schedules nothing once the cart is empty', async () => {
    const h = harness({ answerHash: '' });
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('refresh triggers', () => {
  async function loaded() {
    const h = harness();
    storeCart(h, 'h1', Date.now());
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
    return h;
  }

  it.each(['wc_fragment_refresh', 'updated_wc_div', 'customize_partial_rendered'])(
    'refreshes on %s',
    async (name) => {
      const h = await loaded();
      h.document.dispatchEvent(new CustomEvent(name));
      await vi.advanceTimersByTimeAsync(0);
      expect(h.fetch).toHaveBeenCalledTimes(1);
      const init = h.fetch.mock.calls[0]?.[1] as RequestInit | undefined;
      expect(init?.method).toBe('POST');
      expect(init?.credentials).toBe('same-origin');
      expect(String(init?.body)).toBe(`time=${Date.now()}`);
    },
  );

  it('refreshes when another tab changes the cart hash in local storage', async () => {
    const h = await loaded();
    h.local.setItem(HASH_KEY, 'h2');
    h.window.dispatchEvent(Object.assign(new Event('storage'), { key: HASH_KEY }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });

  it('ignores storage events of other keys, and its own hash echoed back', async () => {
    const h = await loaded();
    h.window.dispatchEvent(
      Object.assign(new Event('storage'), { key: 'fibosearch_recently_viewed_products' }),
    );
    h.window.dispatchEvent(Object.assign(new Event('storage'), { key: HASH_KEY }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('refreshes a page restored from the back-forward cache, not a fresh load', async () => {
    const h = await loaded();
    h.window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
    h.window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });

  it.each(['added_to_cart', 'removed_from_cart'])(
    'stores the fragments and hash %s carries',
    async (name) => {
      const h = harness();
      start(h);
      h.document.dispatchEvent(new CustomEvent(name, { detail: { fragments: FRESH, cart_hash: 'h9' } }));
      expect(h.session.getItem(FRAGMENTS_KEY)).toBe(JSON.stringify(FRESH));
      expect(h.session.getItem(HASH_KEY)).toBe('h9');
      expect(h.local.getItem(HASH_KEY)).toBe('h9');
      expect(h.session.getItem(CART_CREATED_KEY)).toBe(String(Date.now()));
      expect(h.fetch).not.toHaveBeenCalled();
    },
  );

  it.each(['added_to_cart', 'removed_from_cart'])(
    'refreshes on %s fired without fragments, as third-party code fires it',
    async (name) => {
      const h = await loaded();
      h.document.dispatchEvent(new CustomEvent(name));
      await vi.advanceTimersByTimeAsync(0);
      expect(h.fetch).toHaveBeenCalledTimes(1);
      expect(h.session.getItem(HASH_KEY)).toBe('h-server');
      h.document.dispatchEvent(new CustomEvent(name, { detail: { button: null } }));
      await vi.advanceTimersByTimeAsync(0);
      expect(h.fetch).toHaveBeenCalledTimes(2);
    },
  );

  it('keeps the created time of a cart that already existed', async () => {
    const h = await loaded();
    const created = h.session.getItem(CART_CREATED_KEY);
    vi.advanceTimersByTime(1000);
    h.document.dispatchEvent(
      new CustomEvent('added_to_cart', { detail: { fragments: FRESH, cart_hash: 'h2' } }),
    );
    expect(h.session.getItem(CART_CREATED_KEY)).toBe(created);
  });
});

describe('errors and races', () => {
  it('fires wc_fragments_ajax_error when the request fails, and stores nothing', async () => {
    const h = harness();
    h.fetch.mockImplementation(async () => new Response('nope', { status: 500 }));
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.events).toEqual(['wc_fragments_ajax_error']);
    expect(h.applied).toEqual([]);
    expect(h.session.getItem(HASH_KEY)).toBeNull();
  });

  it('fires wc_fragments_ajax_error on an answer of the wrong shape', async () => {
    const h = harness();
    h.fetch.mockImplementation(async () => new Response(JSON.stringify({ fragments: 'x' })));
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.events).toEqual(['wc_fragments_ajax_error']);
  });

  it('aborts a request that outlives the configured timeout', async () => {
    const h = harness();
    h.fetch.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(4999);
    expect(h.events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.events).toEqual(['wc_fragments_ajax_error']);
  });

  it('waits as long as it takes with a timeout of 0 (no timeout)', async () => {
    const h = harness();
    let answer: (response: Response) => void = () => {};
    let aborted = false;
    h.fetch.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve) => {
          answer = resolve;
          init.signal?.addEventListener('abort', () => {
            aborted = true;
          });
        }),
    );
    h.cookies.set('woocommerce_cart_hash', 'h1');
    running.push(createCartFragments(h.env, { ...options, timeout: 0 }));
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000);
    expect(aborted).toBe(false);
    answer(new Response(JSON.stringify({ fragments: FRESH, cart_hash: 'h1' })));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
    expect(h.applied).toEqual([FRESH]);
  });

  it('drops the answer of a request a newer refresh superseded', async () => {
    const h = harness();
    const answers: ((value: Response) => void)[] = [];
    h.fetch.mockImplementation(() => new Promise<Response>((resolve) => answers.push(resolve)));
    const fragments = start(h);
    void fragments.refresh();
    void fragments.refresh();
    const answer = (hash: string) =>
      new Response(JSON.stringify({ fragments: { [MINI_CART_SELECTOR]: hash }, cart_hash: hash }));
    answers[1]?.(answer('new'));
    answers[0]?.(answer('old'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.applied).toEqual([{ [MINI_CART_SELECTOR]: 'new' }]);
    expect(h.session.getItem(HASH_KEY)).toBe('new');
    expect(h.events).toEqual(['wc_fragments_refreshed']);
  });
});

describe('what listeners of the contract events receive', () => {
  /** Records each contract event with its `detail`, as a theme's listener reads it. */
  function listen(h: Harness) {
    const heard: { name: string; detail: unknown }[] = [];
    for (const name of ['wc_fragments_loaded', 'wc_fragments_refreshed', 'wc_fragments_ajax_error']) {
      h.document.addEventListener(name, (event) =>
        heard.push({ name, detail: (event as CustomEvent).detail }),
      );
    }
    return heard;
  }

  it('wc_fragments_refreshed carries the fragments and the cart hash the server answered', async () => {
    const h = harness({ answerHash: 'h7' });
    const heard = listen(h);
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(heard).toEqual([
      { name: 'wc_fragments_refreshed', detail: { fragments: FRESH, cart_hash: 'h7' } },
    ]);
  });

  it('wc_fragments_ajax_error carries the error: a failing status names it', async () => {
    const h = harness();
    const heard = listen(h);
    // A well-formed body does not make a failed answer a good one.
    h.fetch.mockImplementation(
      async () => new Response(JSON.stringify({ fragments: FRESH, cart_hash: 'h1' }), { status: 503 }),
    );
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(heard.map((each) => each.name)).toEqual(['wc_fragments_ajax_error']);
    const error = (heard[0]?.detail as { error?: Error } | undefined)?.error;
    expect(error?.message).toBe('get_refreshed_fragments answered 503');
    expect(h.applied).toEqual([]);
  });

  it('wc_fragments_ajax_error says so when the answer is not the fragments shape', async () => {
    const h = harness();
    const heard = listen(h);
    h.fetch.mockImplementation(async () => new Response(JSON.stringify({ fragments: 'x' })));
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    const error = (heard[0]?.detail as { error?: Error } | undefined)?.error;
    expect(error?.message).toBe('get_refreshed_fragments answered malformed JSON');
  });
});

describe('the contract names', () => {
  it('keeps the created time under wc_cart_created and reads the mini-cart as div.widget_shopping_cart_content', async () => {
    const h = harness();
    const stored = { 'div.widget_shopping_cart_content': '<div>stored</div>' };
    h.session.setItem(HASH_KEY, 'h1');
    h.session.setItem(FRAGMENTS_KEY, JSON.stringify(stored));
    h.session.setItem('wc_cart_created', String(Date.now()));
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
    expect(h.applied).toEqual([stored]);
  });

  it('refetches stored fragments that hold no mini-cart', async () => {
    const h = harness();
    storeCart(h, 'h1', Date.now(), { 'a.cart-contents': '<a>1</a>' });
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.applied).toEqual([FRESH]);
  });
});

describe('the created time', () => {
  it('uses fragments exactly 24 hours old once more, and refreshes them at once after', async () => {
    const h = harness({ answerHash: 'h1' });
    storeCart(h, 'h1', Date.now() - DAY_MS);
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    expect(h.applied).toEqual([STORED]);
    expect(h.events).toEqual(['wc_fragments_loaded']);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });

  it('refetches when the stored created time is not a number', async () => {
    const h = harness();
    storeCart(h, 'h1', null);
    h.session.setItem(CART_CREATED_KEY, 'yesterday');
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
  });

  it('restarts the 24 hours when fresh fragments arrive', async () => {
    const h = await loadedAt(Date.now() - 60 * 60 * 1000);
    vi.advanceTimersByTime(1000);
    await h.fragments.refresh();
    expect(h.session.getItem(CART_CREATED_KEY)).toBe(String(Date.now()));
  });

  it('writes no created time for an empty cart', async () => {
    const h = harness({ answerHash: '' });
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.session.getItem(HASH_KEY)).toBe('');
    expect(h.session.getItem(CART_CREATED_KEY)).toBeNull();
  });
});

/** A page that loaded stored fragments created at `createdAt`, with no request made. */
async function loadedAt(createdAt: number) {
  const h = harness({ answerHash: 'h1' });
  storeCart(h, 'h1', createdAt);
  h.cookies.set('woocommerce_cart_hash', 'h1');
  const fragments = start(h);
  await vi.advanceTimersByTimeAsync(0);
  expect(h.fetch).not.toHaveBeenCalled();
  return { ...h, fragments };
}

describe('timers', () => {
  it('replaces the pending 24-hour refresh when a refresh comes earlier', async () => {
    const h = await loadedAt(Date.now() - 60 * 60 * 1000);
    h.document.dispatchEvent(new CustomEvent('wc_fragment_refresh'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    // The load's refresh was due in 23 hours; the answer just now moved it to 24.
    await vi.advanceTimersByTimeAsync(DAY_MS - 1);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.fetch).toHaveBeenCalledTimes(2);
  });

  it('leaves no request timeout pending once the answer is in', async () => {
    const h = harness({ answerHash: '' });
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no request timeout pending after a failed request either', async () => {
    const h = harness();
    h.fetch.mockImplementation(async () => new Response('nope', { status: 500 }));
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.events).toEqual(['wc_fragments_ajax_error']);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('stop()', () => {
  it('hears no trigger after stopping', async () => {
    const h = await loadedAt(Date.now());
    h.fragments.stop();
    h.local.setItem(HASH_KEY, 'h2');
    for (const name of [
      'wc_fragment_refresh',
      'updated_wc_div',
      'customize_partial_rendered',
      'added_to_cart',
      'removed_from_cart',
    ]) {
      h.document.dispatchEvent(new CustomEvent(name));
    }
    h.window.dispatchEvent(Object.assign(new Event('storage'), { key: HASH_KEY }));
    h.window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('cancels the pending 24-hour refresh', async () => {
    const h = await loadedAt(Date.now());
    expect(vi.getTimerCount()).toBe(1);
    h.fragments.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(3 * DAY_MS);
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('aborts the request in flight and ignores its answer', async () => {
    const h = harness();
    let answer: (response: Response) => void = () => {};
    let signal: AbortSignal | undefined;
    h.fetch.mockImplementation(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((resolve) => {
          answer = resolve;
          signal = init.signal ?? undefined;
        }),
    );
    h.cookies.set('woocommerce_cart_hash', 'h1');
    const fragments = start(h);
    await vi.advanceTimersByTimeAsync(0);
    fragments.stop();
    expect(signal?.aborted).toBe(true);
    // A server that answers anyway (the abort came too late) changes nothing.
    answer(new Response(JSON.stringify({ fragments: FRESH, cart_hash: 'h1' })));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.applied).toEqual([]);
    expect(h.events).toEqual([]);
    expect(h.session.getItem(HASH_KEY)).toBeNull();
  });
});

describe('races', () => {
  it('applies the newer answer when the superseded request answers first', async () => {
    const h = harness();
    const answers: ((value: Response) => void)[] = [];
    h.fetch.mockImplementation(() => new Promise<Response>((resolve) => answers.push(resolve)));
    const fragments = start(h);
    void fragments.refresh();
    void fragments.refresh();
    const answer = (hash: string) =>
      new Response(JSON.stringify({ fragments: { [MINI_CART_SELECTOR]: hash }, cart_hash: hash }));
    answers[0]?.(answer('old'));
    await vi.advanceTimersByTimeAsync(0);
    answers[1]?.(answer('new'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.applied).toEqual([{ [MINI_CART_SELECTOR]: 'new' }]);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
  });
});

describe('superseded requests', () => {
  it('reports no error for a request a newer refresh aborted', async () => {
    const h = harness();
    h.fetch.mockImplementationOnce(
      (_url: string, init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const fragments = start(h);
    void fragments.refresh();
    void fragments.refresh();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
  });
});

describe('an add or remove announced with fragments but no hash', () => {
  it('asks the server rather than storing a cart without its hash', async () => {
    const h = harness();
    start(h);
    h.document.dispatchEvent(new CustomEvent('added_to_cart', { detail: { fragments: FRESH } }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.session.getItem(HASH_KEY)).toBe('h-server');
  });
});

describe('storage that fails part way', () => {
  /** Storage that passes the start-up probe, then throws on the calls named. */
  class FailingStorage extends FakeStorage {
    constructor(private readonly failing: { get?: boolean; set?: boolean }) {
      super();
    }
    override getItem(key: string) {
      if (this.failing.get && key !== 'wc') throw new DOMException('denied', 'SecurityError');
      return super.getItem(key);
    }
    override setItem(key: string, value: string) {
      if (this.failing.set && key !== 'wc') throw new DOMException('full', 'QuotaExceededError');
      super.setItem(key, value);
    }
  }

  it('refetches on load when reading the stored cart throws', async () => {
    const h = harness({ session: new FailingStorage({ get: true }) });
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
    expect(h.applied).toEqual([FRESH]);
  });

  it('still shows fresh fragments when storing them runs out of quota', async () => {
    const h = harness({ session: new FailingStorage({ set: true }) });
    h.cookies.set('woocommerce_cart_hash', 'h1');
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.applied).toEqual([FRESH]);
    expect(h.events).toEqual(['wc_fragments_refreshed']);
  });

  it("refreshes on another tab's change when reading the hashes throws", async () => {
    const local = new FailingStorage({});
    const h = harness({ local });
    start(h);
    await vi.advanceTimersByTimeAsync(0);
    local.getItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    h.window.dispatchEvent(Object.assign(new Event('storage'), { key: HASH_KEY }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });

  it("ignores a storage event of another key even when the tabs' hashes differ", async () => {
    const h = await loadedAt(Date.now());
    h.local.setItem(HASH_KEY, 'h2');
    h.window.dispatchEvent(Object.assign(new Event('storage'), { key: 'wc_cart_hash_other' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it("ignores the cart hash's storage event when storage is unavailable", async () => {
    const h = harness({ session: new ThrowingStorage() });
    start(h);
    h.window.dispatchEvent(Object.assign(new Event('storage'), { key: HASH_KEY }));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.fetch).not.toHaveBeenCalled();
  });
});
