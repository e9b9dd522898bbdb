import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECENT_PHRASES_KEY, RECENT_PRODUCTS_KEY } from './createHistoryStore';
import { createSearchStore, HIDE_DELAY_MS } from './createSearchStore';
import type { Suggestion } from './suggestionTypes';
import { fakeFetch, product, searchOptions, settle, testEnv } from './testSupport';

const SHIRTS: Suggestion[] = [
  { type: 'headline', value: 'Products' },
  product(1001, 'Washed Linen Shirt'),
  product(1007, 'Organic Cotton T-Shirt'),
  { type: 'more_products', value: '', total: 12 },
];

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
  const { fetch } = fakeFetch(() => ({ suggestions }));
  const harness = testEnv(fetch);
  const store = createSearchStore(harness.env, options);
  store.focused();
  store.inputChanged('shi');
  await vi.advanceTimersByTimeAsync(400);
  await settle();
  return { store, ...harness };
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
