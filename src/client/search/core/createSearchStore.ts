import { createHistoryStore, type HistoryStore, type KeyValueStorage } from './createHistoryStore';
import { extractQuery, stripTags } from './normalizeQuery';
import {
  initialSearchState,
  reduceSearch,
  type SearchEvent,
  type SearchState,
  selectHint,
} from './reduceSearch';
import {
  isHeadline,
  isSelectable,
  loadResponseSchemas,
  type Suggestion,
  suggestionObjectId,
} from './suggestionTypes';

/** the dropdown hides 150 ms after the input loses focus, so a click on a suggestion lands first. */
export const HIDE_DELAY_MS = 150;
const CACHE_LIMIT = 200;

/** The search settings the core reads (the `search` section of the page settings). */
export interface SearchOptions {
  minChars: number;
  debounceWait: number;
  deferBy: number;
  goToFirstVariationOnSubmit: boolean;
  history: { products: boolean; phrases: boolean };
  badQueryPrevention: boolean;
  delimiter: string | null;
  lookupLimit: number | null;
  exactMatchAutoSelect: boolean;
  disableSubmit: boolean;
  disableHits: boolean;
  language: string | null;
  customParams: Record<string, string>;
  show: { images: boolean; detailsPanel: boolean };
  dynamicPrices: boolean;
  endpoints: { suggestions: string; details: string; prices: string };
}

/** `window.shopSearch` (docs/contract.md): a hook returning false cancels the default action. */
export interface ShopSearchHooks {
  onError?(error: unknown, context: { query: string; endpoint: string }): void;
  onSelect?(suggestion: Suggestion, context: { query: string; newTab: boolean }): boolean | undefined;
  onSubmit?(query: string): boolean | undefined;
}

export type AnalyticsEvent =
  | { kind: 'results'; query: string; count: number }
  | { kind: 'no-results'; query: string }
  | { kind: 'pageview'; query: string };

/** Everything the core needs from the browser, injected so tests pass fakes. */
export interface SearchEnv {
  fetch(input: string, init?: RequestInit): Promise<Response>;
  storage: KeyValueStorage | null;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  navigate(url: string, options: { newTab: boolean }): void;
  /** Submits the box's form the way a shopper would (it runs `submit()` first). */
  submitForm(): void;
  hooks(): ShopSearchHooks | undefined;
  track?(event: AnalyticsEvent): void;
}

export interface KeyModifiers {
  ctrlKey?: boolean;
  metaKey?: boolean;
  /** Whether the caret is at the end of the text (Right arrow accepts the hint only there). */
  caretAtEnd?: boolean;
}

export interface SearchStore {
  getState(): SearchState;
  subscribe(listener: () => void): () => void;
  hint(): string;
  inputChanged(value: string): void;
  focused(): void;
  blurred(options?: { keepOpen?: boolean }): void;
  pointerDownInside(down: boolean): void;
  clickedOutside(): void;
  close(): void;
  keyDown(key: string, modifiers?: KeyModifiers): boolean;
  hover(index: number): void;
  leave(): void;
  select(index: number, options?: { newTab?: boolean; viaEnter?: boolean }): void;
  submit(): boolean;
  clearHistory(): void;
  requestDetails(): Promise<void>;
  destroy(): void;
}

/** Whether `url` is safe to navigate to: http(s) or same-site, never `javascript:` from data. */
function isNavigable(url: string | undefined): url is string {
  return !!url && (/^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//')));
}

function withParams(endpoint: string, params: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))).toString();
  return `${endpoint}${endpoint.includes('?') ? '&' : '?'}${query}`;
}

/** Local lookup (docs/contract.md): filters a complete cached answer for a prefix of the query. */
function filterLocally(suggestions: Suggestion[], query: string, limit: number | null): Suggestion[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const kept: Suggestion[] = [];
  let pendingHeadline: Suggestion | null = null;
  let count = 0;
  for (const suggestion of suggestions) {
    if (isHeadline(suggestion)) {
      pendingHeadline = suggestion;
      continue;
    }
    if (!isSelectable(suggestion)) continue;
    const haystack = `${stripTags(suggestion.value)} ${suggestion.sku ?? ''}`.toLowerCase();
    if (!words.every((word) => haystack.includes(word))) continue;
    if (limit !== null && count >= limit) break;
    if (pendingHeadline) kept.push(pendingHeadline);
    pendingHeadline = null;
    kept.push(suggestion);
    count += 1;
  }
  return kept;
}

function hasResults(suggestions: Suggestion[]): boolean {
  return suggestions.some((suggestion) => isSelectable(suggestion) && suggestion.type !== 'more_products');
}

const NO_RESULTS: Suggestion[] = [{ type: 'no-results', value: '' }];

/**
 * The headless search box: the reducer's state plus
 * the effects around it — debounced, cached, abortable requests, bad-query prevention, local lookups, history,
 * details, dynamic prices, analytics and the `window.shopSearch` hooks. Several stores on a page are independent.
 */
export function createSearchStore(env: SearchEnv, options: SearchOptions, initialValue = ''): SearchStore {
  let state = initialSearchState(initialValue, options.delimiter);
  const listeners = new Set<() => void>();
  const history: HistoryStore = createHistoryStore(env.storage, { images: options.show.images });
  const cache = new Map<string, Suggestion[]>();
  const completeAnswers = new Map<string, Suggestion[]>();
  const badQueries = new Set<string>();
  const trackedQueries = new Set<string>();
  const requestedDetails = new Set<string>();
  const requestedPrices = new Set<string>();
  let debounceTimer: unknown = null;
  let hideTimer: unknown = null;
  let deferTimer: unknown = null;
  let inFlight: AbortController | null = null;
  let isFocused = false;
  let isPointerDown = false;
  let isReady = options.deferBy <= 0;
  // A submit the box itself asked for (more_products, Enter after pointer activation) goes to the results page,
  // not to the first variation.
  let isPlainSubmit = false;

  function submitToResults() {
    isPlainSubmit = true;
    try {
      env.submitForm();
    } finally {
      isPlainSubmit = false;
    }
  }

  function dispatch(event: SearchEvent) {
    const next = reduceSearch(state, event);
    if (next === state) return;
    state = next;
    for (const listener of listeners) listener();
  }

  function clearTimer(handle: unknown) {
    if (handle !== null) env.clearTimeout(handle);
  }

  function reportError(error: unknown, endpoint: string) {
    // search and details failures fail quietly; the integrator's hook may log them.
    try {
      env.hooks()?.onError?.(error, { query: state.query, endpoint });
    } catch {
      // A broken hook must not break the box.
    }
  }

  function requestParams(query: string): Record<string, string> {
    const params: Record<string, string> = { ...options.customParams, s: query };
    if (options.language) params.l = options.language;
    return params;
  }

  function cacheKey(query: string): string {
    return withParams(options.endpoints.suggestions, requestParams(query));
  }

  function historySuggestions(): Suggestion[] {
    const products = options.history.products ? history.products() : [];
    const phrases = options.history.phrases ? history.phrases() : [];
    return [
      ...products.map((product) => ({ ...product, price: undefined })),
      ...phrases.map((phrase): Suggestion => ({ type: 'history-search', value: phrase })),
    ];
  }

  function showHistory() {
    if (!options.history.products && !options.history.phrases) return;
    dispatch({ type: 'historyShown', suggestions: historySuggestions() });
  }

  function afterResults(query: string, suggestions: Suggestion[]) {
    if (!trackedQueries.has(query)) {
      trackedQueries.add(query);
      const count = suggestions.filter((s) => isSelectable(s) && s.type !== 'more_products').length;
      env.track?.(count > 0 ? { kind: 'results', query, count } : { kind: 'no-results', query });
    }
    void requestPrices(suggestions);
    if (options.exactMatchAutoSelect) {
      const selectable = suggestions.filter((s) => isSelectable(s) && s.type !== 'more_products');
      const only = selectable[0];
      const lower = query.toLowerCase();
      if (
        selectable.length === 1 &&
        only &&
        (stripTags(only.value).toLowerCase() === lower || only.sku?.toLowerCase() === lower)
      ) {
        select(state.suggestions.indexOf(only));
      }
    }
  }

  function showResults(query: string, suggestions: Suggestion[]) {
    dispatch({
      type: 'suggestionsLoaded',
      query,
      suggestions: suggestions.length ? suggestions : NO_RESULTS,
    });
    if (state.resultsQuery === query) afterResults(query, suggestions);
  }

  /** Answers from memory without waiting for the debounce, so cached queries paint in the keystroke's frame. */
  function answerLocally(query: string): boolean {
    const cached = cache.get(cacheKey(query));
    if (cached) {
      showResults(query, cached);
      return true;
    }
    if (options.badQueryPrevention) {
      for (const bad of badQueries) {
        if (query.toLowerCase().startsWith(bad)) {
          showResults(query, []);
          return true;
        }
      }
    }
    for (let length = query.length - 1; length >= options.minChars; length -= 1) {
      const complete = completeAnswers.get(query.slice(0, length).toLowerCase());
      if (!complete) continue;
      const filtered = filterLocally(complete, query, options.lookupLimit);
      if (filtered.length > 0) {
        showResults(query, filtered);
        return true;
      }
      break;
    }
    return false;
  }

  async function fetchSuggestions(query: string) {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const url = cacheKey(query);
    try {
      const response = await env.fetch(url, {
        signal: controller.signal,
        headers: { Accept: 'application/json' },
      });
      if (!response.ok) throw new Error(`search_suggestions answered ${response.status}`);
      const [json, schemas] = await Promise.all([response.json(), loadResponseSchemas()]);
      const { suggestions } = schemas.suggestionsResponseSchema.parse(json);
      if (controller.signal.aborted) return;
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(url, suggestions);
      if (!suggestions.some((s) => s.type === 'more_products'))
        completeAnswers.set(query.toLowerCase(), suggestions);
      if (!hasResults(suggestions)) badQueries.add(query.toLowerCase());
      if (query === state.query) showResults(query, suggestions);
    } catch (error) {
      if (controller.signal.aborted) return;
      dispatch({ type: 'requestFailed', query });
      reportError(error, options.endpoints.suggestions);
    } finally {
      if (inFlight === controller) inFlight = null;
    }
  }

  function search(value: string) {
    const query = extractQuery(value, options.delimiter);
    const meetsMinChars = isReady && !options.disableHits && query.length >= options.minChars;
    clearTimer(debounceTimer);
    debounceTimer = null;
    dispatch({ type: 'inputChanged', value, query, meetsMinChars });
    if (!meetsMinChars) {
      inFlight?.abort();
      if (value === '' && isFocused) showHistory();
      return;
    }
    if (answerLocally(query)) return;
    debounceTimer = env.setTimeout(() => {
      debounceTimer = null;
      void fetchSuggestions(query);
    }, options.debounceWait);
  }

  function prefetchResponseSchemas() {
    // A failed fetch is retried by the request that needs the schemas, which reports it.
    loadResponseSchemas().catch(() => {});
  }

  async function postJson(endpoint: string, body: unknown): Promise<unknown> {
    const response = await env.fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${endpoint} answered ${response.status}`);
    return response.json();
  }

  async function requestPrices(suggestions: Suggestion[]) {
    if (!options.dynamicPrices) return;
    const ids = suggestions
      .filter((s) => s.type === 'product' && s.post_id !== undefined)
      .map((s) => String(s.post_id))
      .filter((id) => !(id in state.prices) && !requestedPrices.has(id));
    if (ids.length === 0) return;
    for (const id of ids) requestedPrices.add(id);
    try {
      const raw = await postJson(options.endpoints.prices, {
        action: 'dgwt_wcas_get_prices',
        items: ids.map(Number),
      });
      const answer = (await loadResponseSchemas()).pricesResponseSchema.parse(raw);
      if (answer.success) dispatch({ type: 'pricesLoaded', entries: answer.data });
    } catch (error) {
      for (const id of ids) requestedPrices.delete(id);
      reportError(error, options.endpoints.prices);
    }
  }

  function select(
    index: number,
    { newTab = false, viaEnter = false }: { newTab?: boolean; viaEnter?: boolean } = {},
  ) {
    const suggestion = state.suggestions[index];
    if (!suggestion || !isSelectable(suggestion)) return;
    const activatedByPointer = state.activeBy === 'pointer' && state.activeIndex === index;
    try {
      if (env.hooks()?.onSelect?.(suggestion, { query: state.query, newTab }) === false) return;
    } catch (error) {
      reportError(error, 'onSelect');
    }
    if (suggestion.type === 'more_products') {
      dispatch({ type: 'valueFilled', value: state.typedValue });
      submitToResults();
      return;
    }
    if (suggestion.type === 'history-search') {
      dispatch({ type: 'valueFilled', value: stripTags(suggestion.value) });
      dispatch({ type: 'closed' });
      env.submitForm();
      return;
    }
    const isProduct = suggestion.type === 'product' || suggestion.type === 'product_variation';
    // docs/contract.md: Enter on an item last activated by the pointer submits the search, except a variation
    // when go-to-first-variation is on.
    if (
      viaEnter &&
      activatedByPointer &&
      isProduct &&
      !(suggestion.type === 'product_variation' && options.goToFirstVariationOnSubmit)
    ) {
      dispatch({ type: 'valueFilled', value: state.typedValue });
      submitToResults();
      return;
    }
    if (isProduct && options.history.products) history.addProduct(suggestion);
    dispatch({ type: 'closed' });
    if (isNavigable(suggestion.url)) env.navigate(suggestion.url, { newTab });
  }

  const store: SearchStore = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    hint: () => selectHint(state),
    inputChanged(value) {
      prefetchResponseSchemas();
      clearTimer(hideTimer);
      hideTimer = null;
      search(value);
    },
    focused() {
      prefetchResponseSchemas();
      isFocused = true;
      clearTimer(hideTimer);
      hideTimer = null;
      if (state.value === '') {
        showHistory();
        return;
      }
      const query = extractQuery(state.value, options.delimiter);
      if (state.mode === 'suggestions' && state.resultsQuery === query && state.suggestions.length > 0) {
        dispatch({ type: 'reopened' });
      } else if (query.length >= options.minChars) {
        search(state.value);
      }
    },
    blurred({ keepOpen = false } = {}) {
      isFocused = false;
      // blur hides unless the mouse is down on search elements or an iOS mobile overlay is on.
      if (keepOpen || isPointerDown) return;
      clearTimer(hideTimer);
      hideTimer = env.setTimeout(() => {
        hideTimer = null;
        dispatch({ type: 'closed' });
      }, HIDE_DELAY_MS);
    },
    pointerDownInside(down) {
      isPointerDown = down;
    },
    clickedOutside() {
      dispatch({ type: 'closed' });
    },
    close() {
      dispatch({ type: 'closed' });
    },
    keyDown(key, { ctrlKey = false, metaKey = false, caretAtEnd = true } = {}) {
      switch (key) {
        case 'ArrowDown': {
          if (!state.isOpen) {
            const query = extractQuery(state.value, options.delimiter);
            if (!state.value) return false;
            // Down on a hidden box with a value reopens it.
            if (state.resultsQuery === query && state.suggestions.length > 0) dispatch({ type: 'reopened' });
            else search(state.value);
            return true;
          }
          dispatch({ type: 'arrowDownPressed' });
          return true;
        }
        case 'ArrowUp':
          if (!state.isOpen) return false;
          dispatch({ type: 'arrowUpPressed' });
          return true;
        case 'Escape':
          if (!state.isOpen) return false;
          dispatch({ type: 'closed' });
          return true;
        case 'ArrowRight': {
          const hint = selectHint(state);
          if (!hint || !caretAtEnd) return false;
          search(hint);
          return true;
        }
        case 'Enter': {
          if (state.activeIndex === -1) {
            if (options.disableSubmit) return true;
            dispatch({ type: 'closed' });
            return false;
          }
          select(state.activeIndex, { newTab: ctrlKey || metaKey, viaEnter: true });
          return true;
        }
        default:
          return false;
      }
    },
    hover(index) {
      dispatch({ type: 'itemHovered', index });
    },
    leave() {
      dispatch({ type: 'itemLeft' });
    },
    select,
    submit() {
      const query = state.value.trim();
      if (!query || options.disableSubmit) return false;
      if (
        !isPlainSubmit &&
        options.goToFirstVariationOnSubmit &&
        state.mode === 'suggestions' &&
        state.resultsQuery === state.query
      ) {
        const variation = state.suggestions.findIndex((s) => s.type === 'product_variation');
        if (variation !== -1) {
          select(variation);
          return false;
        }
      }
      try {
        if (env.hooks()?.onSubmit?.(query) === false) return false;
      } catch (error) {
        reportError(error, 'onSubmit');
      }
      if (options.history.phrases) history.addPhrase(query);
      env.track?.({ kind: 'pageview', query });
      dispatch({ type: 'closed' });
      return true;
    },
    clearHistory() {
      history.clear();
      if (state.mode === 'history') dispatch({ type: 'historyShown', suggestions: [] });
    },
    async requestDetails() {
      if (state.mode !== 'suggestions') return;
      const items = state.suggestions
        .filter((s) => isSelectable(s) && s.type !== 'more_products' && s.type !== 'history-search')
        .map((s) => ({ objectID: suggestionObjectId(s), value: stripTags(s.value) }))
        .filter((item) => !requestedDetails.has(item.objectID) && !(item.objectID in state.details));
      if (items.length === 0) return;
      for (const item of items) requestedDetails.add(item.objectID);
      dispatch({ type: 'detailsRequested' });
      try {
        const raw = await postJson(options.endpoints.details, { action: 'result-details', items });
        const { detailsResponseSchema } = await loadResponseSchemas();
        dispatch({ type: 'detailsLoaded', items: detailsResponseSchema.parse(raw).items });
      } catch (error) {
        for (const item of items) requestedDetails.delete(item.objectID);
        dispatch({ type: 'detailsFailed' });
        reportError(error, options.endpoints.details);
      }
    },
    destroy() {
      clearTimer(debounceTimer);
      clearTimer(hideTimer);
      clearTimer(deferTimer);
      inFlight?.abort();
      listeners.clear();
    },
  };

  if (!isReady) {
    // deferBy (docs/contract.md): the box starts answering only after this many milliseconds.
    deferTimer = env.setTimeout(() => {
      deferTimer = null;
      isReady = true;
      if (isFocused && state.value) search(state.value);
    }, options.deferBy);
  }
  return store;
}
