import { vi } from 'vitest';
import type { KeyValueStorage } from './createHistoryStore';
import type { AnalyticsEvent, SearchEnv, SearchOptions, ShopSearchHooks } from './createSearchStore';
import type { Suggestion } from './suggestionTypes';

/** Test builders for the core (imported only by *.test.ts). */

export function searchOptions(overrides: Partial<SearchOptions> = {}): SearchOptions {
  return {
    minChars: 3,
    debounceWait: 400,
    deferBy: 0,
    goToFirstVariationOnSubmit: true,
    history: { products: true, phrases: true },
    badQueryPrevention: false,
    delimiter: null,
    lookupLimit: null,
    exactMatchAutoSelect: false,
    disableSubmit: false,
    disableHits: false,
    language: null,
    customParams: {},
    show: { images: true, detailsPanel: true },
    dynamicPrices: false,
    endpoints: {
      suggestions: '/?wc-ajax=search_suggestions',
      details: '/?wc-ajax=search_details',
      prices: '/?wc-ajax=search_prices',
    },
    ...overrides,
  };
}

export function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

export interface FetchCall {
  url: string;
  init: RequestInit | undefined;
  body: unknown;
  respond(body: unknown, status?: number): void;
  fail(error: Error): void;
}

/**
 * A fetch whose answers the test gives by hand (`calls[i].respond(...)`), or at once from `answer` when set.
 * It rejects with an AbortError when the request's signal aborts, as the browser does.
 */
export function fakeFetch(answer?: (url: string, body: unknown) => unknown) {
  const calls: FetchCall[] = [];
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const call: FetchCall = {
        url,
        init,
        body,
        respond: (value, status = 200) =>
          resolve(
            new Response(JSON.stringify(value), { status, headers: { 'Content-Type': 'application/json' } }),
          ),
        fail: reject,
      };
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      calls.push(call);
      if (answer) call.respond(answer(url, body));
    });
  });
  return { fetch, calls };
}

export function testEnv(fetch: SearchEnv['fetch'], overrides: Partial<SearchEnv> = {}) {
  const navigations: { url: string; newTab: boolean }[] = [];
  const tracked: AnalyticsEvent[] = [];
  const storage = memoryStorage();
  let hooks: ShopSearchHooks | undefined;
  const env: SearchEnv = {
    fetch,
    storage,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    navigate: (url, { newTab }) => void navigations.push({ url, newTab }),
    submitForm: vi.fn(),
    hooks: () => hooks,
    track: (event) => void tracked.push(event),
    ...overrides,
  };
  return {
    env,
    storage,
    navigations,
    tracked,
    setHooks(value: ShopSearchHooks) {
      hooks = value;
    },
  };
}

export function product(id: number, value: string, extra: Partial<Suggestion> = {}): Suggestion {
  return {
    type: 'product',
    value,
    post_id: id,
    url: `/product/p-${id}/`,
    price: '<span>$10.00</span>',
    ...extra,
  };
}

/** Lets awaited promises (fetch, json) settle under fake timers. */
export async function settle() {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
}
