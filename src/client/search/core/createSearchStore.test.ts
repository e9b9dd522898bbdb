import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECENT_PHRASES_KEY, RECENT_PRODUCTS_KEY } from './createHistoryStore';
import { createSearchStore, HIDE_DELAY_MS } from './createSearchStore';
import { loadResponseSchemas, type Suggestion } from './suggestionTypes';
import { fakeFetch, product, searchOptions, settle, testEnv } from './testSupport';

const SHIRTS: Suggestion[] = [
  { type: 'headline', value: 'Products' },
  product(1001, 'Washed Linen Shirt'),
  product(1007, 'Organic Cotton T-Shirt'),
  { type: 'more_products', value: '', total: 12 },
];

// The schemas load on first focus in the browser; fetched once here, so answers settle within the fake timers.
beforeAll(async () => {
  await loadResponseSchemas();
});
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('requests', () => {
  it('waits for the debounce (400 ms) before asking, then opens with the answer', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.focused();
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(399);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/?wc-ajax=search_suggestions&s=shi');
    expect(store.getState().status).toBe('loading');
    calls[0]?.respond({ suggestions: SHIRTS });
    await settle();
    expect(store.getState()).toMatchObject({ isOpen: true, status: 'ready', resultsQuery: 'shi' });
    expect(store.getState().suggestions).toHaveLength(4);
  });

  it('restarts the debounce on each keystroke and sends only the last query', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(300);
    store.inputChanged('shir');
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(calls.map((call) => call.url)).toEqual(['/?wc-ajax=search_suggestions&s=shir']);
  });

  it('uses the debounce wait from the settings', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ debounceWait: 50 }));
    store.inputChanged('mug');
    await vi.advanceTimersByTimeAsync(50);
    expect(calls).toHaveLength(1);
  });

  it('aborts the earlier in-flight request and drops its late answer', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    store.inputChanged('mug');
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(2);
    expect(calls[0]?.init?.signal?.aborted).toBe(true);
    calls[1]?.respond({ suggestions: [product(1021, 'Café au Lait Mug')] });
    calls[0]?.respond({ suggestions: SHIRTS });
    await settle();
    expect(store.getState().resultsQuery).toBe('mug');
    expect(store.getState().suggestions.map((s) => s.post_id)).toEqual([1021]);
  });

  it('answers a cached query in the same call, without waiting or fetching again', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shirt');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    store.inputChanged('shirt x');
    store.inputChanged('shirt');
    expect(store.getState()).toMatchObject({ isOpen: true, status: 'ready', resultsQuery: 'shirt' });
    await vi.advanceTimersByTimeAsync(1000);
    // 'shirt x' was replaced before its debounce ran out, so it was never sent either.
    expect(calls.map((call) => call.url)).toEqual(['/?wc-ajax=search_suggestions&s=shirt']);
  });

  it('keys the cache by endpoint and every parameter, with l and the custom params', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(
      testEnv(fetch).env,
      searchOptions({ language: 'fr', customParams: { channel: 'web' } }),
    );
    store.inputChanged('shirt');
    await vi.advanceTimersByTimeAsync(400);
    expect(calls[0]?.url).toBe('/?wc-ajax=search_suggestions&channel=web&l=fr&s=shirt');
  });

  it('does not request below the minimum characters, and hides the dropdown when the query falls below it', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('  sh  ');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(0);
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    expect(store.getState().isOpen).toBe(true);
    store.inputChanged('sh');
    expect(store.getState()).toMatchObject({ isOpen: false, suggestions: [] });
  });

  it('searches only the last part after the delimiter', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ delimiter: ',' }));
    store.inputChanged('mug, shi');
    await vi.advanceTimersByTimeAsync(400);
    expect(calls[0]?.url).toBe('/?wc-ajax=search_suggestions&s=shi');
    store.inputChanged('mug, sh');
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(1);
  });

  it('skips queries that start with an earlier zero-result query when bad-query prevention is on', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: [] }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ badQueryPrevention: true }));
    store.inputChanged('xyz');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    store.inputChanged('xyzw');
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(1);
    expect(store.getState().suggestions).toEqual([{ type: 'no-results', value: '' }]);
    expect(store.getState().isOpen).toBe(true);
  });

  it('asks again for a longer zero-result query when bad-query prevention is off (the default)', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: [] }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('xyz');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    store.inputChanged('xyzw');
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(2);
  });

  it('filters a complete cached answer for a prefix locally, capped by the lookup limit', async () => {
    const complete = [
      { type: 'headline' as const, value: 'Products' },
      product(1, 'Linen Shirt'),
      product(2, 'Linen Napkins'),
      product(3, 'Linen Apron'),
    ];
    const { fetch, calls } = fakeFetch(() => ({ suggestions: complete }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ lookupLimit: 1 }));
    store.inputChanged('lin');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    store.inputChanged('linen a');
    expect(calls).toHaveLength(1);
    expect(store.getState().suggestions.map((s) => s.value)).toEqual(['Products', 'Linen Napkins']);
  });

  it('does not filter locally when the cached answer had more products', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    store.inputChanged('shirt');
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(2);
  });

  it('fails quietly and calls window.shopSearch.onError', async () => {
    const { fetch, calls } = fakeFetch();
    const harness = testEnv(fetch);
    const onError = vi.fn();
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    calls[0]?.respond({ code: 'boom' }, 500);
    await settle();
    expect(store.getState()).toMatchObject({ status: 'idle', isOpen: false });
    expect(onError).toHaveBeenCalledWith(expect.any(Error), {
      query: 'shi',
      endpoint: '/?wc-ajax=search_suggestions',
    });
  });

  it('makes no request at all with disableHits', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ disableHits: true }));
    store.inputChanged('shirt');
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(0);
  });

  it('answers nothing before deferBy, then searches what was typed', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ deferBy: 1000 }));
    store.focused();
    store.inputChanged('shirt');
    await vi.advanceTimersByTimeAsync(900);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(1);
  });
});

async function openWith(suggestions: Suggestion[], options = searchOptions()) {
  const { fetch, calls } = fakeFetch(() => ({ suggestions }));
  const harness = testEnv(fetch);
  const store = createSearchStore(harness.env, options);
  store.focused();
  store.inputChanged('shi');
  await vi.advanceTimersByTimeAsync(400);
  await settle();
  return { store, calls, ...harness };
}

describe('hiding', () => {
  it('hides 150 ms after blur', async () => {
    const { store } = await openWith(SHIRTS);
    store.blurred();
    await vi.advanceTimersByTimeAsync(HIDE_DELAY_MS - 1);
    expect(store.getState().isOpen).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().isOpen).toBe(false);
  });

  it('stays open on blur while the mouse is down on search elements, or when asked to (iOS overlay)', async () => {
    const { store } = await openWith(SHIRTS);
    store.pointerDownInside(true);
    store.blurred();
    await vi.advanceTimersByTimeAsync(500);
    expect(store.getState().isOpen).toBe(true);
    store.pointerDownInside(false);
    store.blurred({ keepOpen: true });
    await vi.advanceTimersByTimeAsync(500);
    expect(store.getState().isOpen).toBe(true);
  });

  it('cancels the pending hide when focus comes back', async () => {
    const { store } = await openWith(SHIRTS);
    store.blurred();
    await vi.advanceTimersByTimeAsync(100);
    store.focused();
    await vi.advanceTimersByTimeAsync(500);
    expect(store.getState().isOpen).toBe(true);
  });

  it('hides on Escape and on a click outside', async () => {
    const { store } = await openWith(SHIRTS);
    expect(store.keyDown('Escape')).toBe(true);
    expect(store.getState().isOpen).toBe(false);
    expect(store.keyDown('Escape')).toBe(false);
    store.keyDown('ArrowDown');
    expect(store.getState().isOpen).toBe(true);
    store.clickedOutside();
    expect(store.getState().isOpen).toBe(false);
  });
});

describe('keyboard', () => {
  it('moves with Down and Up, skipping headlines, and Up from the first returns to the typed value', async () => {
    const { store } = await openWith(SHIRTS);
    store.keyDown('ArrowDown');
    expect(store.getState()).toMatchObject({ activeIndex: 1, value: 'Washed Linen Shirt' });
    store.keyDown('ArrowDown');
    expect(store.getState()).toMatchObject({ activeIndex: 2, value: 'Organic Cotton T-Shirt' });
    store.keyDown('ArrowDown');
    expect(store.getState()).toMatchObject({ activeIndex: 3, value: 'shi' });
    store.keyDown('ArrowDown');
    expect(store.getState().activeIndex).toBe(3);
    store.keyDown('ArrowUp');
    store.keyDown('ArrowUp');
    expect(store.getState().activeIndex).toBe(1);
    store.keyDown('ArrowUp');
    expect(store.getState()).toMatchObject({ activeIndex: -1, value: 'shi' });
  });

  it('reopens a hidden box with a value on Down, from the cache', async () => {
    const { store } = await openWith(SHIRTS);
    store.close();
    expect(store.keyDown('ArrowDown')).toBe(true);
    expect(store.getState().isOpen).toBe(true);
  });

  it('accepts the hint with Right arrow at the end of the text only', async () => {
    const { fetch } = fakeFetch(() => ({ suggestions: [product(1, 'Shirt dress'), product(2, 'Mug')] }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    expect(store.hint()).toBe('shirt dress');
    expect(store.keyDown('ArrowRight', { caretAtEnd: false })).toBe(false);
    expect(store.keyDown('ArrowRight', { caretAtEnd: true })).toBe(true);
    expect(store.getState().value).toBe('shirt dress');
  });

  it('Enter with nothing selected hides and lets the form submit; with disableSubmit it does nothing', async () => {
    const { store } = await openWith(SHIRTS);
    expect(store.keyDown('Enter')).toBe(false);
    expect(store.getState().isOpen).toBe(false);
    const blocked = await openWith(SHIRTS, searchOptions({ disableSubmit: true }));
    expect(blocked.store.keyDown('Enter')).toBe(true);
    expect(blocked.store.getState().isOpen).toBe(true);
  });

  it('Enter on a selection navigates and saves the product; Ctrl or Cmd+Enter opens a new tab', async () => {
    const { store, navigations, storage } = await openWith(SHIRTS);
    store.keyDown('ArrowDown');
    expect(store.keyDown('Enter')).toBe(true);
    expect(navigations).toEqual([{ url: '/product/p-1001/', newTab: false }]);
    const saved = JSON.parse(storage.data.get(RECENT_PRODUCTS_KEY) ?? '[]');
    expect(saved).toEqual([expect.objectContaining({ post_id: 1001, value: 'Washed Linen Shirt' })]);
    expect(saved[0]).not.toHaveProperty('price');
    // The selection closed the dropdown; typing the query again opens it from the cache.
    store.inputChanged('shi');
    store.keyDown('ArrowDown');
    store.keyDown('Enter', { ctrlKey: true });
    store.inputChanged('shi');
    store.keyDown('ArrowDown');
    store.keyDown('Enter', { metaKey: true });
    expect(navigations.slice(1).map((n) => n.newTab)).toEqual([true, true]);
  });

  it('Enter on a product activated by the pointer submits the form instead', async () => {
    const { store, navigations, env } = await openWith(SHIRTS);
    store.hover(2);
    store.keyDown('Enter');
    expect(navigations).toEqual([]);
    expect(env.submitForm).toHaveBeenCalledTimes(1);
    expect(store.getState().value).toBe('shi');
  });

  it('Enter on a variation activated by the pointer opens it when go-to-first-variation is on', async () => {
    const variation: Suggestion = {
      type: 'product_variation',
      value: 'Washed Linen Shirt - Sage, S',
      post_id: 1001,
      variation_id: 1002,
      url: '/product/washed-linen-shirt/?attribute_color=Sage',
    };
    const { store, navigations, env } = await openWith([variation]);
    store.hover(0);
    store.keyDown('Enter');
    expect(navigations).toEqual([{ url: variation.url, newTab: false }]);
    const off = await openWith([variation], searchOptions({ goToFirstVariationOnSubmit: false }));
    off.store.hover(0);
    off.store.keyDown('Enter');
    expect(off.navigations).toEqual([]);
    expect(off.env.submitForm).toHaveBeenCalled();
    expect(env.submitForm).not.toHaveBeenCalled();
  });
});

describe('selecting', () => {
  it('does nothing for a headline or the no-results block', async () => {
    const { store, navigations, env } = await openWith(SHIRTS);
    store.select(0);
    expect(navigations).toEqual([]);
    expect(env.submitForm).not.toHaveBeenCalled();
  });

  it('submits the form with the typed value for more_products, not jumping to a variation', async () => {
    const variation: Suggestion = {
      type: 'product_variation',
      value: 'V',
      post_id: 1,
      variation_id: 2,
      url: '/v/',
    };
    const { store, env, navigations } = await openWith([
      variation,
      { type: 'more_products', value: '', total: 9 },
    ]);
    vi.mocked(env.submitForm).mockImplementation(() => {
      expect(store.submit()).toBe(true);
    });
    store.select(1);
    expect(env.submitForm).toHaveBeenCalledTimes(1);
    expect(navigations).toEqual([]);
    expect(store.getState().value).toBe('shi');
  });

  it('does not save products to history when it is off, and never navigates to javascript: urls', async () => {
    const options = searchOptions({ history: { products: false, phrases: true } });
    const { store, storage, navigations } = await openWith(
      [product(1, 'Evil', { url: 'javascript:alert(1)' })],
      options,
    );
    store.select(0);
    expect(storage.data.has(RECENT_PRODUCTS_KEY)).toBe(false);
    expect(navigations).toEqual([]);
  });

  it('lets window.shopSearch.onSelect cancel the navigation', async () => {
    const { store, navigations, setHooks } = await openWith(SHIRTS);
    const onSelect = vi.fn(() => false);
    setHooks({ onSelect });
    store.select(1);
    expect(onSelect).toHaveBeenCalledWith(expect.objectContaining({ post_id: 1001 }), {
      query: 'shi',
      newTab: false,
    });
    expect(navigations).toEqual([]);
  });

  it('auto-selects an exact single match only when enabled', async () => {
    const exact = [product(1021, 'Mug', { sku: 'DEMO-MUG' })];
    const { fetch } = fakeFetch(() => ({ suggestions: exact }));
    const on = testEnv(fetch);
    const store = createSearchStore(on.env, searchOptions({ exactMatchAutoSelect: true }));
    store.inputChanged('demo-mug');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    expect(on.navigations).toEqual([{ url: '/product/p-1021/', newTab: false }]);
    const off = await openWith([product(1, 'shi')]);
    expect(off.navigations).toEqual([]);
  });
});

describe('submit', () => {
  it('is blocked when the input is empty or submit is disabled', async () => {
    const { fetch } = fakeFetch(() => ({ suggestions: [] }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    expect(store.submit()).toBe(false);
    store.inputChanged('   ');
    expect(store.submit()).toBe(false);
    const disabled = createSearchStore(testEnv(fetch).env, searchOptions({ disableSubmit: true }), 'mug');
    expect(disabled.submit()).toBe(false);
  });

  it('selects a product_variation suggestion first when go-to-first-variation is on', async () => {
    const variation: Suggestion = {
      type: 'product_variation',
      value: 'V',
      post_id: 1,
      variation_id: 2,
      url: '/v/',
    };
    const { store, navigations } = await openWith([product(1, 'Shirt'), variation]);
    expect(store.submit()).toBe(false);
    expect(navigations).toEqual([{ url: '/v/', newTab: false }]);
    const off = await openWith([variation], searchOptions({ goToFirstVariationOnSubmit: false }));
    expect(off.store.submit()).toBe(true);
  });

  it('saves the phrase, sends the site-search page view and lets onSubmit cancel', async () => {
    const { store, storage, tracked, setHooks } = await openWith(SHIRTS);
    expect(store.submit()).toBe(true);
    expect(JSON.parse(storage.data.get(RECENT_PHRASES_KEY) ?? '[]')).toEqual(['shi']);
    expect(tracked).toContainEqual({ kind: 'pageview', query: 'shi' });
    setHooks({ onSubmit: () => false });
    expect(store.submit()).toBe(false);
  });

  it('tracks searches with and without results once per query', async () => {
    const { fetch } = fakeFetch((url) => ({ suggestions: url.includes('zzz') ? [] : SHIRTS }));
    const harness = testEnv(fetch);
    const store = createSearchStore(harness.env, searchOptions());
    for (const query of ['shi', 'zzz', 'shi']) {
      store.inputChanged(query);
      await vi.advanceTimersByTimeAsync(400);
      await settle();
    }
    expect(harness.tracked).toEqual([
      { kind: 'results', query: 'shi', count: 2 },
      { kind: 'no-results', query: 'zzz' },
    ]);
  });
});

describe('history view', () => {
  it('shows recent products and phrases on focus of an empty box, and a phrase fills the input and submits', async () => {
    const { store, env, storage } = await openWith(SHIRTS);
    store.keyDown('ArrowDown');
    store.keyDown('Enter');
    store.inputChanged('linen <b>shirt</b>');
    store.submit();
    store.inputChanged('');
    expect(store.getState().isOpen).toBe(true);
    expect(store.getState().mode).toBe('history');
    expect(store.getState().suggestions.map((s) => [s.type, s.value])).toEqual([
      ['product', 'Washed Linen Shirt'],
      ['history-search', 'linen shirt'],
    ]);
    store.select(1);
    expect(store.getState().value).toBe('linen shirt');
    expect(env.submitForm).toHaveBeenCalledTimes(1);
    store.clearHistory();
    expect(store.getState().suggestions).toEqual([]);
    expect(store.getState().isOpen).toBe(false);
    expect(storage.data.size).toBe(0);
  });

  it('shows nothing when history is off', async () => {
    const { fetch } = fakeFetch();
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PHRASES_KEY, '["mug"]');
    const store = createSearchStore(
      harness.env,
      searchOptions({ history: { products: false, phrases: false } }),
    );
    store.focused();
    expect(store.getState().isOpen).toBe(false);
  });
});

describe('details and prices', () => {
  it('requests details for the visible suggestions once per id, skipping more_products and headlines', async () => {
    const { fetch, calls } = fakeFetch((url, body) =>
      url.includes('search_details')
        ? {
            items: (body as { items: { objectID: string }[] }).items.map((item) => ({
              objectID: item.objectID,
              html: `<p>${item.objectID}</p>`,
            })),
          }
        : { suggestions: SHIRTS },
    );
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    await store.requestDetails();
    await store.requestDetails();
    const detailCalls = calls.filter((call) => call.url.includes('search_details'));
    expect(detailCalls).toHaveLength(1);
    expect(detailCalls[0]?.init?.method).toBe('POST');
    expect(detailCalls[0]?.body).toEqual({
      action: 'result-details',
      items: [
        { objectID: 'product__1001', value: 'Washed Linen Shirt' },
        { objectID: 'product__1007', value: 'Organic Cotton T-Shirt' },
      ],
    });
    expect(store.getState().details.product__1001?.html).toBe('<p>product__1001</p>');
  });

  it('accepts the details object serialized as a string', async () => {
    const { fetch } = fakeFetch((url) =>
      url.includes('search_details')
        ? JSON.stringify({ items: [{ objectID: 'product__1001', html: '<p>x</p>', price: '$1' }] })
        : { suggestions: SHIRTS },
    );
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    await store.requestDetails();
    expect(store.getState().details.product__1001).toEqual({
      objectID: 'product__1001',
      html: '<p>x</p>',
      price: '$1',
    });
  });

  it('hides the preloader and clears the panel when details fail', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    calls[0]?.respond({ suggestions: SHIRTS });
    await settle();
    const pending = store.requestDetails();
    expect(store.getState().detailsLoading).toBe(true);
    calls[1]?.respond('not json{', 200);
    await pending;
    expect(store.getState()).toMatchObject({ detailsLoading: false, detailsFailed: true });
  });

  it('asks the prices endpoint for products with uncached prices when dynamic prices are on', async () => {
    const { fetch, calls } = fakeFetch((url) =>
      url.includes('search_prices')
        ? { success: true, data: [{ id: 1001, price: '<b>$70</b>' }] }
        : { suggestions: SHIRTS },
    );
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ dynamicPrices: true }));
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    const priceCalls = calls.filter((call) => call.url.includes('search_prices'));
    expect(priceCalls.map((call) => call.body)).toEqual([
      { action: 'dgwt_wcas_get_prices', items: [1001, 1007] },
    ]);
    expect(store.getState().prices['1001']).toBe('<b>$70</b>');
    store.inputChanged('shir');
    store.inputChanged('shi');
    await settle();
    expect(calls.filter((call) => call.url.includes('search_prices'))).toHaveLength(1);
  });
});

it('keeps several boxes independent', async () => {
  const { fetch } = fakeFetch(() => ({ suggestions: SHIRTS }));
  const first = createSearchStore(testEnv(fetch).env, searchOptions());
  const second = createSearchStore(testEnv(fetch).env, searchOptions());
  first.inputChanged('shi');
  await vi.advanceTimersByTimeAsync(400);
  await settle();
  expect(first.getState().isOpen).toBe(true);
  expect(second.getState()).toMatchObject({ isOpen: false, value: '' });
});

/** Types `value` and lets the debounce and the answer run. */
async function typeAndWait(store: ReturnType<typeof createSearchStore>, value: string) {
  store.inputChanged(value);
  await vi.advanceTimersByTimeAsync(400);
  await settle();
}

describe('requests, further', () => {
  it('starts the query string itself when the endpoint has none, and asks for JSON', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const endpoints = {
      suggestions: '/search/suggest',
      details: '/search/details',
      prices: '/search/prices',
    };
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ endpoints }));
    await typeAndWait(store, 'shi');
    expect(calls[0]?.url).toBe('/search/suggest?s=shi');
    expect(calls[0]?.init?.headers).toEqual({ Accept: 'application/json' });
    expect(store.getState().isOpen).toBe(true);
  });

  it('sends no language when the setting is empty', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ language: '' }));
    await typeAndWait(store, 'shi');
    expect(calls[0]?.url).toBe('/?wc-ajax=search_suggestions&s=shi');
  });

  it('tells onError which status the server answered', async () => {
    const { fetch, calls } = fakeFetch();
    const harness = testEnv(fetch);
    const onError = vi.fn();
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    calls[0]?.respond({}, 503);
    await settle();
    expect(String(onError.mock.calls[0]?.[0])).toContain('503');
  });

  it('keeps working when the onError hook itself throws', async () => {
    const { fetch, calls } = fakeFetch();
    const harness = testEnv(fetch);
    const onError = vi.fn(() => {
      throw new Error('broken hook');
    });
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    calls[0]?.respond({}, 500);
    await settle();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(store.getState().status).toBe('idle');
    await typeAndWait(store, 'mug');
    calls[1]?.respond({ suggestions: SHIRTS });
    await settle();
    expect(store.getState()).toMatchObject({ isOpen: true, resultsQuery: 'mug' });
  });

  it('reports no error for a request it abandoned for a newer query', async () => {
    const { fetch, calls } = fakeFetch();
    const harness = testEnv(fetch);
    const onError = vi.fn();
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions());
    await typeAndWait(store, 'shi');
    await typeAndWait(store, 'mug');
    expect(calls[0]?.init?.signal?.aborted).toBe(true);
    expect(onError).not.toHaveBeenCalled();
    expect(store.getState().status).toBe('loading');
  });

  it('abandons the request in flight when the query falls below the minimum', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    await typeAndWait(store, 'shi');
    store.inputChanged('sh');
    expect(calls[0]?.init?.signal?.aborted).toBe(true);
    calls[0]?.respond({ suggestions: SHIRTS });
    await settle();
    expect(store.getState()).toMatchObject({ isOpen: false, suggestions: [] });
  });

  it('remembers the last 200 answers and asks again for an older one', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    for (let index = 0; index <= 200; index += 1)
      await typeAndWait(store, `q${String(index).padStart(3, '0')}`);
    expect(calls).toHaveLength(201);
    store.inputChanged('q001');
    expect(store.getState()).toMatchObject({ status: 'ready', resultsQuery: 'q001' });
    await typeAndWait(store, 'q000');
    expect(calls).toHaveLength(202);
    expect(calls[201]?.url).toBe('/?wc-ajax=search_suggestions&s=q000');
  });

  it('answers nothing while deferred when the box is not focused, and at once when not deferred', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const deferred = createSearchStore(testEnv(fetch).env, searchOptions({ deferBy: 1000 }));
    deferred.inputChanged('shirt');
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(0);
    const ready = createSearchStore(testEnv(fetch).env, searchOptions({ deferBy: 0 }));
    ready.inputChanged('shirt');
    expect(ready.getState().status).toBe('loading');
  });

  it('searches a value the page filled in when the shopper focuses the box, but not one too short', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const short = createSearchStore(testEnv(fetch).env, searchOptions(), 'sh');
    short.focused();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(0);
    expect(short.getState().isOpen).toBe(false);
    const filled = createSearchStore(testEnv(fetch).env, searchOptions(), 'shirt');
    filled.focused();
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    expect(calls.map((call) => call.url)).toEqual(['/?wc-ajax=search_suggestions&s=shirt']);
    expect(filled.getState().isOpen).toBe(true);
  });

  it('reopens the list it had on focus, without asking again', async () => {
    const { store, calls } = await openWith(SHIRTS);
    store.blurred();
    await vi.advanceTimersByTimeAsync(HIDE_DELAY_MS);
    expect(store.getState().isOpen).toBe(false);
    store.focused();
    expect(store.getState().isOpen).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(1);
  });
});

describe('local lookups, further', () => {
  const COMPLETE: Suggestion[] = [
    { type: 'headline', value: 'Categories' },
    { type: 'taxonomy', value: 'Linen', term_id: 5, taxonomy: 'product_cat', url: '/c/linen/' },
    { type: 'headline', value: 'Products' },
    product(1, 'Linen Shirt', { sku: 'LS-01' }),
    product(2, 'Linen Napkins'),
    product(3, 'Cotton Apron', { sku: 'LIN-APRON' }),
  ];

  async function completeFor(query: string) {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: COMPLETE }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    await typeAndWait(store, query);
    return { store, calls };
  }

  const values = (store: ReturnType<typeof createSearchStore>) =>
    store.getState().suggestions.map((s) => s.value);

  it('keeps every match without a limit, with the headline of each group once', async () => {
    const { store, calls } = await completeFor('lin');
    store.inputChanged('line');
    expect(values(store)).toEqual(['Categories', 'Linen', 'Products', 'Linen Shirt', 'Linen Napkins']);
    expect(store.getState()).toMatchObject({ isOpen: true, resultsQuery: 'line' });
    expect(calls).toHaveLength(1);
  });

  it('matches the SKU too, and drops a headline whose group has no match', async () => {
    const { store, calls } = await completeFor('lin');
    store.inputChanged('lin-a');
    expect(values(store)).toEqual(['Products', 'Cotton Apron']);
    expect(calls).toHaveLength(1);
  });

  it('needs every word, in any case', async () => {
    const { store, calls } = await completeFor('lin');
    store.inputChanged('Lin SHIRT');
    expect(values(store)).toEqual(['Products', 'Linen Shirt']);
    expect(calls).toHaveLength(1);
  });

  it('asks the server when the complete answer holds no match', async () => {
    const { store, calls } = await completeFor('lin');
    await typeAndWait(store, 'linx');
    expect(calls.map((call) => call.url)).toEqual([
      '/?wc-ajax=search_suggestions&s=lin',
      '/?wc-ajax=search_suggestions&s=linx',
    ]);
  });

  it('bad-query prevention ignores case', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: [] }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ badQueryPrevention: true }));
    await typeAndWait(store, 'XyZ');
    await typeAndWait(store, 'xYzW');
    expect(calls).toHaveLength(1);
    expect(store.getState().suggestions).toEqual([{ type: 'no-results', value: '' }]);
  });
});

describe('listeners', () => {
  it('are told of each change, not of events that change nothing, and not after unsubscribing', async () => {
    const { store } = await openWith(SHIRTS);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.close();
    expect(listener).toHaveBeenCalledTimes(1);
    store.close();
    store.leave();
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.keyDown('ArrowDown');
    expect(store.getState().isOpen).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('keyboard, further', () => {
  it('leaves keys it does not use to the page', () => {
    const { fetch } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    expect(store.keyDown('ArrowDown')).toBe(false);
    expect(store.keyDown('ArrowUp')).toBe(false);
    expect(store.keyDown('ArrowRight')).toBe(false);
    expect(store.keyDown('Tab')).toBe(false);
  });

  it('Down on a closed box with a value that was never searched asks for it', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions(), 'shirt');
    expect(store.keyDown('ArrowDown')).toBe(true);
    await vi.advanceTimersByTimeAsync(400);
    await settle();
    expect(calls).toHaveLength(1);
    expect(store.getState().isOpen).toBe(true);
  });

  it('Up and Down move in the open list and say they used the key', async () => {
    const { store } = await openWith(SHIRTS);
    expect(store.keyDown('ArrowDown')).toBe(true);
    expect(store.keyDown('ArrowUp')).toBe(true);
    expect(store.getState().activeIndex).toBe(-1);
  });

  it('Right accepts the hint when no caret position is given', async () => {
    const { store } = await openWith([product(1, 'Shirt dress')]);
    expect(store.keyDown('ArrowRight')).toBe(true);
    expect(store.getState().value).toBe('shirt dress');
  });

  it('Enter with nothing selected closes the list the pointer was in', async () => {
    const { store } = await openWith(SHIRTS);
    store.hover(1);
    store.leave();
    expect(store.keyDown('Enter')).toBe(false);
    expect(store.getState().isOpen).toBe(false);
  });

  it('Enter on a category the pointer reached opens it; on more products it submits the typed query', async () => {
    const category: Suggestion = { type: 'taxonomy', value: 'Shirts', term_id: 5, url: '/c/shirts/' };
    const { store, navigations, env } = await openWith([category, ...SHIRTS]);
    store.hover(0);
    store.keyDown('Enter');
    expect(navigations).toEqual([{ url: '/c/shirts/', newTab: false }]);
    expect(env.submitForm).not.toHaveBeenCalled();
    store.inputChanged('shi');
    for (let step = 0; step < 4; step += 1) store.keyDown('ArrowDown');
    expect(store.getState().suggestions[store.getState().activeIndex]?.type).toBe('more_products');
    store.keyDown('Enter');
    expect(env.submitForm).toHaveBeenCalledTimes(1);
    expect(store.getState().value).toBe('shi');
  });
});

describe('selecting, further', () => {
  it('navigates only to web and same-site addresses', async () => {
    const cases: [string | undefined, boolean][] = [
      ['https://shop.test/product/mug/', true],
      ['http://shop.test/product/mug/', true],
      ['HTTPS://SHOP.TEST/MUG/', true],
      ['/product/mug/', true],
      ['//evil.test/product/', false],
      ['product/mug/', false],
      ['javascript:alert("https://x")', false],
      ['data:text/html,https://x', false],
      ['', false],
      [undefined, false],
    ];
    for (const [url, allowed] of cases) {
      const { store, navigations } = await openWith([product(1, 'Mug', { url })]);
      store.select(0);
      expect(navigations, String(url)).toEqual(allowed ? [{ url, newTab: false }] : []);
      expect(store.getState().isOpen, String(url)).toBe(false);
    }
  });

  it('ignores an index past the end of the list', async () => {
    const { store, navigations, env } = await openWith(SHIRTS);
    store.select(9);
    expect(navigations).toEqual([]);
    expect(env.submitForm).not.toHaveBeenCalled();
    expect(store.getState().isOpen).toBe(true);
  });

  it('goes on with the navigation when onSelect throws, and reports it', async () => {
    const { store, navigations, setHooks } = await openWith(SHIRTS);
    const onError = vi.fn();
    setHooks({
      onSelect: () => {
        throw new Error('broken hook');
      },
      onError,
    });
    store.select(1);
    expect(navigations).toEqual([{ url: '/product/p-1001/', newTab: false }]);
    expect(onError).toHaveBeenCalledWith(expect.any(Error), { query: 'shi', endpoint: 'onSelect' });
  });

  it('saves products and variations to the history, not categories', async () => {
    const variation: Suggestion = {
      type: 'product_variation',
      value: 'Mug - Blue',
      post_id: 7,
      variation_id: 8,
      url: '/v/',
    };
    const category: Suggestion = { type: 'taxonomy', value: 'Mugs', term_id: 3, url: '/c/mugs/' };
    const { store, storage, navigations } = await openWith([category, variation]);
    store.select(0);
    expect(storage.data.has(RECENT_PRODUCTS_KEY)).toBe(false);
    store.inputChanged('shi');
    store.select(1);
    expect(JSON.parse(storage.data.get(RECENT_PRODUCTS_KEY) ?? '[]')).toEqual([
      expect.objectContaining({ type: 'product_variation', variation_id: 8 }),
    ]);
    expect(navigations.map((n) => n.url)).toEqual(['/c/mugs/', '/v/']);
  });

  it('a phrase from the history fills the input without its tags, closes the list and submits', async () => {
    const { fetch } = fakeFetch();
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PHRASES_KEY, JSON.stringify(['<b>linen</b> shirt']));
    const store = createSearchStore(harness.env, searchOptions());
    store.focused();
    expect(store.getState().isOpen).toBe(true);
    store.select(0);
    expect(store.getState()).toMatchObject({ value: 'linen shirt', isOpen: false });
    expect(harness.env.submitForm).toHaveBeenCalledTimes(1);
  });
});

describe('exact match auto-select, further', () => {
  async function exact(suggestions: Suggestion[], query: string) {
    const { fetch } = fakeFetch(() => ({ suggestions }));
    const harness = testEnv(fetch);
    const onError = vi.fn();
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions({ exactMatchAutoSelect: true }));
    await typeAndWait(store, query);
    return { ...harness, onError, store };
  }

  it('opens the only match whose plain title equals the query, in any case', async () => {
    const { navigations } = await exact(
      [product(7, '<b>Mug</b>'), { type: 'more_products', value: '' }],
      'MUG',
    );
    expect(navigations).toEqual([{ url: '/product/p-7/', newTab: false }]);
  });

  it('does nothing when two results could match, or when the only one is not the query', async () => {
    const two = await exact([product(7, 'Mug'), product(8, 'Mug holder')], 'mug');
    expect(two.navigations).toEqual([]);
    const other = await exact([product(7, 'Mug holder')], 'mug');
    expect(other.navigations).toEqual([]);
    expect(other.onError).not.toHaveBeenCalled();
    expect(other.store.getState()).toMatchObject({ isOpen: true, status: 'ready' });
  });
});

describe('a page without analytics', () => {
  it('shows results and submits without a tracker', async () => {
    const { fetch } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const harness = testEnv(fetch, { track: undefined });
    const onError = vi.fn();
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions());
    await typeAndWait(store, 'shi');
    expect(store.getState()).toMatchObject({ status: 'ready', isOpen: true });
    expect(store.submit()).toBe(true);
    expect(onError).not.toHaveBeenCalled();
  });
});

describe('submit, further', () => {
  const variation: Suggestion = {
    type: 'product_variation',
    value: 'V',
    post_id: 1,
    variation_id: 2,
    url: '/v/',
  };

  it('does not jump to a variation of a list that answers an older query', async () => {
    const { store, navigations } = await openWith([variation]);
    store.inputChanged('shir');
    expect(store.getState().status).toBe('loading');
    expect(store.submit()).toBe(true);
    expect(navigations).toEqual([]);
  });

  it('goes back to opening the first variation after a results submit that a hook cancelled', async () => {
    const { store, env, navigations, setHooks } = await openWith([
      variation,
      { type: 'more_products', value: '', total: 9 },
    ]);
    vi.mocked(env.submitForm).mockImplementation(() => void store.submit());
    setHooks({ onSubmit: () => false });
    store.select(1);
    expect(navigations).toEqual([]);
    setHooks({});
    store.inputChanged('shi');
    expect(store.submit()).toBe(false);
    expect(navigations).toEqual([{ url: '/v/', newTab: false }]);
  });

  it('submits to the results page when the list holds no variation', async () => {
    const { store, navigations } = await openWith(SHIRTS);
    expect(store.submit()).toBe(true);
    expect(navigations).toEqual([]);
    expect(store.getState().isOpen).toBe(false);
  });

  it('goes on when onSubmit throws, and reports it', async () => {
    const { store, setHooks } = await openWith(SHIRTS);
    const onError = vi.fn();
    setHooks({
      onSubmit: () => {
        throw new Error('broken hook');
      },
      onError,
    });
    expect(store.submit()).toBe(true);
    expect(onError).toHaveBeenCalledWith(expect.any(Error), { query: 'shi', endpoint: 'onSubmit' });
  });

  it('saves the trimmed phrase, and none when phrases are off', async () => {
    const { fetch } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const on = testEnv(fetch);
    const store = createSearchStore(on.env, searchOptions());
    store.inputChanged('  linen  ');
    expect(store.submit()).toBe(true);
    expect(JSON.parse(on.storage.data.get(RECENT_PHRASES_KEY) ?? '[]')).toEqual(['linen']);
    expect(on.tracked).toEqual([{ kind: 'pageview', query: 'linen' }]);
    const off = testEnv(fetch);
    const quiet = createSearchStore(off.env, searchOptions({ history: { products: true, phrases: false } }));
    quiet.inputChanged('linen');
    expect(quiet.submit()).toBe(true);
    expect(off.storage.data.has(RECENT_PHRASES_KEY)).toBe(false);
  });
});

describe('history view, further', () => {
  function withHistory(history: { products: boolean; phrases: boolean }) {
    const { fetch } = fakeFetch();
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PHRASES_KEY, JSON.stringify(['mug']));
    harness.storage.setItem(
      RECENT_PRODUCTS_KEY,
      JSON.stringify([{ type: 'product', value: 'Mug', post_id: 7, price: '<b>$1</b>' }]),
    );
    return { ...harness, store: createSearchStore(harness.env, searchOptions({ history })) };
  }

  it('shows only the kinds that are switched on, and products without a price', () => {
    const phrases = withHistory({ products: false, phrases: true });
    phrases.store.focused();
    expect(phrases.store.getState().suggestions).toEqual([{ type: 'history-search', value: 'mug' }]);
    const products = withHistory({ products: true, phrases: false });
    products.store.focused();
    expect(products.store.getState().suggestions).toEqual([
      { type: 'product', value: 'Mug', post_id: 7, price: undefined },
    ]);
    expect(products.store.getState().isOpen).toBe(true);
  });

  it('opens when the shopper empties the focused box, not when the page empties it', () => {
    const page = withHistory({ products: true, phrases: true });
    page.store.inputChanged('');
    expect(page.store.getState()).toMatchObject({ isOpen: false, mode: 'suggestions' });
    page.store.focused();
    page.store.inputChanged('mu');
    page.store.inputChanged('');
    expect(page.store.getState()).toMatchObject({ isOpen: true, mode: 'history' });
  });

  it('clearing the history leaves a list of results alone', async () => {
    const { store, storage } = await openWith(SHIRTS);
    storage.setItem(RECENT_PHRASES_KEY, '["mug"]');
    store.clearHistory();
    expect(storage.data.has(RECENT_PHRASES_KEY)).toBe(false);
    expect(store.getState()).toMatchObject({ isOpen: true, mode: 'suggestions', suggestions: SHIRTS });
  });
});

describe('details and prices, further', () => {
  it('asks again for details after a failure, and reports it', async () => {
    const { fetch, calls } = fakeFetch();
    const harness = testEnv(fetch);
    const onError = vi.fn();
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    calls[0]?.respond({ suggestions: SHIRTS });
    await settle();
    const failed = store.requestDetails();
    calls[1]?.respond({}, 500);
    await failed;
    expect(store.getState()).toMatchObject({ detailsLoading: false, detailsFailed: true });
    expect(onError).toHaveBeenCalledWith(expect.any(Error), {
      query: 'shi',
      endpoint: '/?wc-ajax=search_details',
    });
    expect(String(onError.mock.calls[0]?.[0])).toContain('500');
    const retried = store.requestDetails();
    expect(calls).toHaveLength(3);
    expect(calls[2]?.body).toEqual(calls[1]?.body);
    expect(calls[2]?.init?.headers).toEqual({
      'Content-Type': 'application/json',
      Accept: 'application/json',
    });
    calls[2]?.respond({ items: [{ objectID: 'product__1001', html: '<p>1001</p>' }] });
    await retried;
    expect(store.getState()).toMatchObject({ detailsLoading: false, detailsFailed: false });
  });

  it('asks details only for suggestions it has none for, and none for the history', async () => {
    const { fetch, calls } = fakeFetch((url, body) =>
      url.includes('search_details')
        ? {
            items: (body as { items: { objectID: string }[] }).items.map((item) => ({
              objectID: item.objectID,
              html: item.objectID,
            })),
          }
        : {
            suggestions: url.includes('s=mug') ? [product(1001, 'Mug shirt'), product(1010, 'Mug')] : SHIRTS,
          },
    );
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PHRASES_KEY, '["mug"]');
    const store = createSearchStore(harness.env, searchOptions());
    store.focused();
    expect(store.getState().mode).toBe('history');
    await store.requestDetails();
    expect(calls).toHaveLength(0);
    await typeAndWait(store, 'shi');
    await store.requestDetails();
    await typeAndWait(store, 'mug');
    await store.requestDetails();
    const asked = calls.filter((call) => call.url.includes('search_details')).map((call) => call.body);
    expect(asked).toEqual([
      {
        action: 'result-details',
        items: [
          { objectID: 'product__1001', value: 'Washed Linen Shirt' },
          { objectID: 'product__1007', value: 'Organic Cotton T-Shirt' },
        ],
      },
      { action: 'result-details', items: [{ objectID: 'product__1010', value: 'Mug' }] },
    ]);
    expect(Object.keys(store.getState().details).sort()).toEqual([
      'product__1001',
      'product__1007',
      'product__1010',
    ]);
  });

  it('asks prices for products only, once per product, and again after a failure', async () => {
    const answers: unknown[] = [{ code: 'busy' }, { success: true, data: [{ id: 1, price: '$1' }] }];
    const { fetch, calls } = fakeFetch((url) => {
      if (!url.includes('search_prices')) {
        return {
          suggestions: [
            product(1, 'Mug'),
            { type: 'product_variation', value: 'Mug - Blue', post_id: 2, variation_id: 3 },
            { type: 'taxonomy', value: 'Mugs', term_id: 4 },
            { type: 'product', value: 'Mug set' },
          ],
        };
      }
      return answers.shift();
    });
    const harness = testEnv(fetch);
    const onError = vi.fn();
    harness.setHooks({ onError });
    const store = createSearchStore(harness.env, searchOptions({ dynamicPrices: true }));
    await typeAndWait(store, 'mug');
    expect(onError).toHaveBeenCalledWith(expect.anything(), {
      query: 'mug',
      endpoint: '/?wc-ajax=search_prices',
    });
    expect(store.getState().prices).toEqual({});
    await typeAndWait(store, 'mugs');
    await typeAndWait(store, 'mug');
    await typeAndWait(store, 'mugs');
    const asked = calls.filter((call) => call.url.includes('search_prices'));
    expect(asked.map((call) => call.body)).toEqual([
      { action: 'dgwt_wcas_get_prices', items: [1] },
      { action: 'dgwt_wcas_get_prices', items: [1] },
    ]);
    expect(asked[0]?.init?.method).toBe('POST');
    expect(store.getState().prices).toEqual({ 1: '$1' });
  });

  it('shows no prices from an answer that says it failed', async () => {
    const { fetch } = fakeFetch((url) =>
      url.includes('search_prices')
        ? { success: false, data: [{ id: 1001, price: '$9' }] }
        : { suggestions: SHIRTS },
    );
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ dynamicPrices: true }));
    await typeAndWait(store, 'shi');
    expect(store.getState().prices).toEqual({});
  });
});

describe('destroy', () => {
  it('leaves no request, hide or deferred start to run, and tells no listener', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const pending = createSearchStore(testEnv(fetch).env, searchOptions());
    pending.inputChanged('shi');
    pending.destroy();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(0);

    const deferred = createSearchStore(testEnv(fetch).env, searchOptions({ deferBy: 500 }));
    deferred.focused();
    deferred.inputChanged('shi');
    deferred.destroy();
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(0);

    const { store } = await openWith(SHIRTS);
    const listener = vi.fn();
    store.subscribe(listener);
    store.blurred();
    store.destroy();
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().isOpen).toBe(true);
    store.close();
    expect(listener).not.toHaveBeenCalled();
  });

  it('abandons the request in flight', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    await typeAndWait(store, 'shi');
    store.destroy();
    expect(calls[0]?.init?.signal?.aborted).toBe(true);
  });
});

describe('from the mutation report', () => {
  it('bad-query prevention skips queries after a no-results answer, and only after one', async () => {
    const { fetch, calls } = fakeFetch((url) => ({
      suggestions: url.includes('s=zz') ? [{ type: 'no-results', value: '' }] : [product(1, 'Shirt')],
    }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions({ badQueryPrevention: true }));
    await typeAndWait(store, 'zzz');
    await typeAndWait(store, 'zzzz');
    expect(calls).toHaveLength(1);
    await typeAndWait(store, 'mug');
    expect(calls).toHaveLength(2);
    await typeAndWait(store, 'shi');
    store.inputChanged('shir');
    expect(store.getState().suggestions.map((s) => s.value)).toEqual(['Shirt']);
    await typeAndWait(store, 'shirts');
    expect(calls).toHaveLength(4);
  });

  it('a local answer sends no request, even after the debounce', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: [product(1, 'Linen Shirt')] }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    await typeAndWait(store, 'lin');
    await typeAndWait(store, 'line');
    expect(calls).toHaveLength(1);
    expect(store.getState()).toMatchObject({ resultsQuery: 'line', status: 'ready' });
  });

  it('keeps no answer that arrived for a request it had abandoned', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    await typeAndWait(store, 'shi');
    calls[0]?.respond({ suggestions: SHIRTS });
    store.inputChanged('sh');
    await settle();
    await typeAndWait(store, 'shi');
    expect(calls).toHaveLength(2);
  });

  it('saves a product with its own thumbnail when images are on', async () => {
    const { store, storage } = await openWith([product(1, 'Mug', { thumb_html: '<img src="/mug.jpg">' })]);
    store.select(0);
    expect(JSON.parse(storage.data.get(RECENT_PRODUCTS_KEY) ?? '[]')[0].thumb_html).toBe(
      '<img src="/mug.jpg">',
    );
  });

  it('shows no history while the shopper types fewer characters than the minimum', () => {
    const { fetch } = fakeFetch();
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PHRASES_KEY, '["mug"]');
    const store = createSearchStore(harness.env, searchOptions());
    store.focused();
    store.inputChanged('m');
    expect(store.getState()).toMatchObject({ isOpen: false, mode: 'suggestions' });
  });

  it('shows no history when the box is emptied after it lost focus', async () => {
    const { fetch } = fakeFetch();
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PHRASES_KEY, '["mug"]');
    const store = createSearchStore(harness.env, searchOptions());
    store.focused();
    store.inputChanged('mu');
    store.blurred();
    store.inputChanged('');
    expect(store.getState().isOpen).toBe(false);
  });

  it('a click on the product the pointer is over opens it', async () => {
    const { store, navigations, env } = await openWith(SHIRTS);
    store.hover(1);
    store.select(1);
    expect(navigations).toEqual([{ url: '/product/p-1001/', newTab: false }]);
    expect(env.submitForm).not.toHaveBeenCalled();
  });

  it('focusing a value exactly the minimum long searches it', async () => {
    const { fetch, calls } = fakeFetch(() => ({ suggestions: SHIRTS }));
    const store = createSearchStore(testEnv(fetch).env, searchOptions(), 'mug');
    store.focused();
    await vi.advanceTimersByTimeAsync(400);
    expect(calls).toHaveLength(1);
  });

  it('a phrase chosen from a history that holds a variation submits the phrase', () => {
    const { fetch } = fakeFetch();
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PHRASES_KEY, '["linen"]');
    harness.storage.setItem(
      RECENT_PRODUCTS_KEY,
      JSON.stringify([
        { type: 'product_variation', value: 'Mug - Blue', post_id: 7, variation_id: 8, url: '/v/' },
      ]),
    );
    const store = createSearchStore(harness.env, searchOptions());
    const submitted: boolean[] = [];
    vi.mocked(harness.env.submitForm).mockImplementation(() => void submitted.push(store.submit()));
    store.focused();
    store.select(1);
    expect(submitted).toEqual([true]);
    expect(harness.navigations).toEqual([]);
  });

  it('asks no details for the products in the history view', () => {
    const { fetch, calls } = fakeFetch();
    const harness = testEnv(fetch);
    harness.storage.setItem(RECENT_PRODUCTS_KEY, JSON.stringify([product(7, 'Mug')]));
    const store = createSearchStore(harness.env, searchOptions());
    store.focused();
    expect(store.getState().suggestions).toHaveLength(1);
    void store.requestDetails();
    expect(calls).toHaveLength(0);
    expect(store.getState().detailsLoading).toBe(false);
  });

  it('asks details once while a request for them is still on its way', async () => {
    const { fetch, calls } = fakeFetch();
    const store = createSearchStore(testEnv(fetch).env, searchOptions());
    store.inputChanged('shi');
    await vi.advanceTimersByTimeAsync(400);
    calls[0]?.respond({ suggestions: SHIRTS });
    await settle();
    void store.requestDetails();
    void store.requestDetails();
    expect(calls.filter((call) => call.url.includes('search_details'))).toHaveLength(1);
  });

  it('selecting reports no error on a page whose hooks lack onSelect', async () => {
    const { store, navigations, setHooks } = await openWith(SHIRTS);
    const onError = vi.fn();
    setHooks({ onError });
    store.select(1);
    expect(navigations).toEqual([{ url: '/product/p-1001/', newTab: false }]);
    expect(onError).not.toHaveBeenCalled();
  });
});
