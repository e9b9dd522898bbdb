import { describe, expect, it } from 'vitest';
import { initialSearchState, reduceSearch, type SearchState, selectHint } from './reduceSearch';
import type { Suggestion } from './suggestionTypes';
import { product } from './testSupport';

const LIST: Suggestion[] = [
  { type: 'headline', value: 'Categories' },
  { type: 'taxonomy', value: 'Shirts', term_id: 5, taxonomy: 'product_cat' },
  { type: 'headline', value: 'Products' },
  product(1, 'Shirt <b>dress</b>'),
];

function opened(delimiter: string | null = null): SearchState {
  let state = initialSearchState('', delimiter);
  state = reduceSearch(state, { type: 'inputChanged', value: 'mug, shi', query: 'shi', meetsMinChars: true });
  return reduceSearch(state, { type: 'suggestionsLoaded', query: 'shi', suggestions: LIST });
}

describe('reduceSearch', () => {
  it('opens on an answer for the current query and ignores one for an older query', () => {
    const state = opened();
    expect(state).toMatchObject({ isOpen: true, status: 'ready', activeIndex: -1 });
    expect(reduceSearch(state, { type: 'suggestionsLoaded', query: 'old', suggestions: [] })).toBe(state);
  });

  it('puts the plain value of the active item in place of the last part after the delimiter', () => {
    const state = reduceSearch(opened(','), { type: 'arrowDownPressed' });
    expect(state.value).toBe('mug, Shirts');
    const next = reduceSearch(state, { type: 'arrowDownPressed' });
    expect(next).toMatchObject({ activeIndex: 3, value: 'mug, Shirt dress' });
    expect(
      reduceSearch(reduceSearch(next, { type: 'arrowUpPressed' }), { type: 'arrowUpPressed' }),
    ).toMatchObject({
      activeIndex: -1,
      value: 'mug, shi',
    });
  });

  it('does not move while closed, and hovering a headline changes nothing', () => {
    const closed = reduceSearch(opened(), { type: 'closed' });
    expect(reduceSearch(closed, { type: 'arrowDownPressed' })).toBe(closed);
    const state = opened();
    expect(reduceSearch(state, { type: 'itemHovered', index: 0 })).toBe(state);
    const hovered = reduceSearch(state, { type: 'itemHovered', index: 3 });
    expect(hovered).toMatchObject({ activeIndex: 3, activeBy: 'pointer', value: 'mug, shi' });
    expect(reduceSearch(hovered, { type: 'itemLeft' }).activeIndex).toBe(-1);
  });

  it('closes and empties the list when the query falls below the minimum', () => {
    const state = reduceSearch(opened(), {
      type: 'inputChanged',
      value: 'sh',
      query: 'sh',
      meetsMinChars: false,
    });
    expect(state).toMatchObject({ isOpen: false, suggestions: [], status: 'idle' });
  });

  it('shows the history view and reopens only with items', () => {
    const empty = reduceSearch(initialSearchState(), { type: 'historyShown', suggestions: [] });
    expect(empty.isOpen).toBe(false);
    expect(reduceSearch(empty, { type: 'reopened' })).toBe(empty);
    const full = reduceSearch(empty, {
      type: 'historyShown',
      suggestions: [{ type: 'history-search', value: 'mug' }],
    });
    expect(full).toMatchObject({ isOpen: true, mode: 'history' });
  });

  it('keeps details by object id and marks a failure', () => {
    let state = reduceSearch(opened(), { type: 'detailsRequested' });
    expect(state.detailsLoading).toBe(true);
    state = reduceSearch(state, {
      type: 'detailsLoaded',
      items: [{ objectID: 'product__1', html: '<p>1</p>' }],
    });
    expect(state).toMatchObject({ detailsLoading: false, details: { product__1: { html: '<p>1</p>' } } });
    expect(reduceSearch(state, { type: 'detailsFailed' })).toMatchObject({
      detailsLoading: false,
      detailsFailed: true,
    });
    expect(reduceSearch(state, { type: 'pricesLoaded', entries: [{ id: 1, price: '$2' }] }).prices).toEqual({
      1: '$2',
    });
  });
});

describe('reduceSearch, what the box shows after each event', () => {
  it('starts closed, with the page’s value as what the shopper typed', () => {
    expect(initialSearchState('mug', ',')).toEqual({
      value: 'mug',
      typedValue: 'mug',
      query: '',
      isOpen: false,
      mode: 'suggestions',
      status: 'idle',
      suggestions: [],
      resultsQuery: '',
      activeIndex: -1,
      activeBy: null,
      delimiter: ',',
      details: {},
      detailsLoading: false,
      detailsFailed: false,
      prices: {},
    });
  });

  it('keeps the open list while the next query loads, and forgets the active item', () => {
    const moved = reduceSearch(opened(), { type: 'arrowDownPressed' });
    const typing = reduceSearch(moved, {
      type: 'inputChanged',
      value: 'shir',
      query: 'shir',
      meetsMinChars: true,
    });
    expect(typing).toMatchObject({
      value: 'shir',
      typedValue: 'shir',
      query: 'shir',
      status: 'loading',
      isOpen: true,
      suggestions: LIST,
      activeIndex: -1,
      activeBy: null,
    });
  });

  it('closes the history list when the shopper starts typing, until the answer comes', () => {
    const history = reduceSearch(initialSearchState(), {
      type: 'historyShown',
      suggestions: [{ type: 'history-search', value: 'mug' }],
    });
    const typing = reduceSearch(history, {
      type: 'inputChanged',
      value: 'shi',
      query: 'shi',
      meetsMinChars: true,
    });
    expect(typing).toMatchObject({ mode: 'suggestions', isOpen: false, suggestions: [], status: 'loading' });
    const loaded = reduceSearch(typing, { type: 'suggestionsLoaded', query: 'shi', suggestions: LIST });
    expect(loaded).toMatchObject({ isOpen: true, status: 'ready', suggestions: LIST, resultsQuery: 'shi' });
  });

  it('drops an answer that arrives while the history is shown', () => {
    const history = reduceSearch(opened(), { type: 'historyShown', suggestions: [] });
    const withQuery = { ...history, query: 'shi' };
    expect(reduceSearch(withQuery, { type: 'suggestionsLoaded', query: 'shi', suggestions: LIST })).toBe(
      withQuery,
    );
  });

  it('an answer resets the active item the arrows or pointer had reached', () => {
    const hovered = reduceSearch(opened(), { type: 'itemHovered', index: 3 });
    expect(
      reduceSearch(hovered, { type: 'suggestionsLoaded', query: 'shi', suggestions: LIST }),
    ).toMatchObject({
      activeIndex: -1,
      activeBy: null,
    });
  });

  it('a failed request for the current query stops loading; one for an older query changes nothing', () => {
    let state = initialSearchState();
    state = reduceSearch(state, { type: 'inputChanged', value: 'shi', query: 'shi', meetsMinChars: true });
    expect(reduceSearch(state, { type: 'requestFailed', query: 'old' })).toBe(state);
    expect(reduceSearch(state, { type: 'requestFailed', query: 'shi' }).status).toBe('idle');
  });

  it('shows the history list ready, with nothing active, and answers from nothing', () => {
    const state = reduceSearch(reduceSearch(opened(), { type: 'itemHovered', index: 3 }), {
      type: 'historyShown',
      suggestions: [{ type: 'history-search', value: 'mug' }],
    });
    expect(state).toMatchObject({ status: 'ready', resultsQuery: '', activeIndex: -1, activeBy: null });
  });

  it('closing forgets the active item; closing what is closed changes nothing', () => {
    const moved = reduceSearch(opened(), { type: 'arrowDownPressed' });
    const closed = reduceSearch(moved, { type: 'closed' });
    expect(closed).toMatchObject({ isOpen: false, activeIndex: -1, activeBy: null });
    expect(reduceSearch(closed, { type: 'closed' })).toBe(closed);
    expect(reduceSearch(closed, { type: 'reopened' })).toMatchObject({ isOpen: true, activeIndex: -1 });
  });

  it('Down stays on the last item, Up does nothing with no item active or while closed', () => {
    let state = opened();
    expect(reduceSearch(state, { type: 'arrowUpPressed' })).toBe(state);
    state = reduceSearch(reduceSearch(state, { type: 'arrowDownPressed' }), { type: 'arrowDownPressed' });
    expect(state.activeIndex).toBe(3);
    expect(reduceSearch(state, { type: 'arrowDownPressed' })).toBe(state);
    const closed = { ...state, isOpen: false };
    expect(reduceSearch(closed, { type: 'arrowUpPressed' })).toBe(closed);
  });

  it('the arrows reached an item by keyboard, even one the pointer had reached before', () => {
    const hovered = reduceSearch(opened(), { type: 'itemHovered', index: 1 });
    const down = reduceSearch(hovered, { type: 'arrowDownPressed' });
    expect(down).toMatchObject({ activeIndex: 3, activeBy: 'keyboard' });
    const up = reduceSearch(reduceSearch(down, { type: 'itemHovered', index: 3 }), {
      type: 'arrowUpPressed',
    });
    expect(up).toMatchObject({ activeIndex: 1, activeBy: 'keyboard', value: 'Shirts' });
  });

  it('more products keeps the typed value in the input', () => {
    let state = initialSearchState();
    state = reduceSearch(state, { type: 'inputChanged', value: 'shi', query: 'shi', meetsMinChars: true });
    state = reduceSearch(state, {
      type: 'suggestionsLoaded',
      query: 'shi',
      suggestions: [product(1, 'Shirt'), { type: 'more_products', value: 'See all', total: 9 }],
    });
    state = reduceSearch(reduceSearch(state, { type: 'arrowDownPressed' }), { type: 'arrowDownPressed' });
    expect(state).toMatchObject({ activeIndex: 1, value: 'shi' });
    expect(reduceSearch(state, { type: 'arrowUpPressed' })).toMatchObject({ activeIndex: 0, value: 'Shirt' });
  });

  it('hovering ignores a closed list, an item past the end and the item already hovered', () => {
    const state = opened();
    expect(reduceSearch(state, { type: 'itemHovered', index: 9 })).toBe(state);
    const closed = reduceSearch(state, { type: 'closed' });
    expect(reduceSearch(closed, { type: 'itemHovered', index: 3 })).toBe(closed);
    const hovered = reduceSearch(state, { type: 'itemHovered', index: 3 });
    expect(reduceSearch(hovered, { type: 'itemHovered', index: 3 })).toBe(hovered);
    expect(reduceSearch(hovered, { type: 'itemHovered', index: 1 })).toMatchObject({ activeIndex: 1 });
  });

  it('hovering the item the keyboard reached makes it the pointer’s (Enter then submits the search)', () => {
    const moved = reduceSearch(opened(), { type: 'arrowDownPressed' });
    expect(moved).toMatchObject({ activeIndex: 1, activeBy: 'keyboard' });
    expect(reduceSearch(moved, { type: 'itemHovered', index: 1 })).toMatchObject({
      activeIndex: 1,
      activeBy: 'pointer',
    });
  });

  it('an empty box starts with nothing typed', () => {
    expect(initialSearchState()).toMatchObject({ value: '', typedValue: '', delimiter: null });
  });

  it('the pointer leaving keeps an item the keyboard reached', () => {
    const moved = reduceSearch(opened(), { type: 'arrowDownPressed' });
    expect(reduceSearch(moved, { type: 'itemLeft' })).toBe(moved);
  });

  it('a filled value becomes what the shopper typed', () => {
    expect(reduceSearch(opened(), { type: 'valueFilled', value: 'linen' })).toMatchObject({
      value: 'linen',
      typedValue: 'linen',
    });
  });

  it('adds details and prices to the ones already loaded, and a new request clears an earlier failure', () => {
    let state = reduceSearch(opened(), { type: 'detailsFailed' });
    state = reduceSearch(state, { type: 'detailsRequested' });
    expect(state).toMatchObject({ detailsLoading: true, detailsFailed: false });
    state = reduceSearch(state, { type: 'detailsLoaded', items: [{ objectID: 'product__1', html: '1' }] });
    state = reduceSearch(reduceSearch(state, { type: 'detailsFailed' }), {
      type: 'detailsLoaded',
      items: [{ objectID: 'product__2', html: '2' }],
    });
    expect(state).toMatchObject({ detailsLoading: false, detailsFailed: false });
    expect(Object.keys(state.details)).toEqual(['product__1', 'product__2']);
    state = reduceSearch(state, { type: 'pricesLoaded', entries: [{ id: 1, price: '$1' }] });
    state = reduceSearch(state, { type: 'pricesLoaded', entries: [{ id: 2, price: '$2' }] });
    expect(state.prices).toEqual({ 1: '$1', 2: '$2' });
  });

  it('refuses an event it does not know in development', () => {
    expect(() => reduceSearch(opened(), { type: 'typo' } as never)).toThrow(/unknown event/);
  });
});

describe('selectHint', () => {
  it('completes the query from the first selectable suggestion when it starts with it', () => {
    expect(selectHint(opened())).toBe('shirts');
    const moved = reduceSearch(opened(), { type: 'arrowDownPressed' });
    expect(selectHint(moved)).toBe('');
  });

  it('offers nothing when the first suggestion does not start with the query', () => {
    let state = initialSearchState();
    state = reduceSearch(state, { type: 'inputChanged', value: 'dre', query: 'dre', meetsMinChars: true });
    state = reduceSearch(state, {
      type: 'suggestionsLoaded',
      query: 'dre',
      suggestions: [product(1, 'Shirt dress')],
    });
    expect(selectHint(state)).toBe('');
  });

  it('offers nothing while closed, while loading another query, for an empty query or an exact match', () => {
    const state = opened();
    expect(selectHint({ ...state, isOpen: false })).toBe('');
    expect(selectHint({ ...state, query: 'shir' })).toBe('');
    expect(selectHint({ ...state, mode: 'history' })).toBe('');
    let exact = initialSearchState();
    exact = reduceSearch(exact, { type: 'inputChanged', value: 'mug', query: 'mug', meetsMinChars: true });
    exact = reduceSearch(exact, {
      type: 'suggestionsLoaded',
      query: 'mug',
      suggestions: [product(1, 'Mug')],
    });
    expect(selectHint(exact)).toBe('');
    const empty = reduceSearch(exact, { type: 'inputChanged', value: '', query: '', meetsMinChars: true });
    expect(selectHint({ ...empty, resultsQuery: '', isOpen: true, suggestions: [product(1, 'Mug')] })).toBe(
      '',
    );
  });

  it('keeps the case the shopper typed and completes with the suggestion’s plain text', () => {
    let state = initialSearchState();
    state = reduceSearch(state, { type: 'inputChanged', value: 'SHI', query: 'SHI', meetsMinChars: true });
    state = reduceSearch(state, {
      type: 'suggestionsLoaded',
      query: 'SHI',
      suggestions: [{ type: 'headline', value: 'Products' }, product(1, '<b>Shi</b>rt &amp; tie')],
    });
    expect(selectHint(state)).toBe('SHIrt & tie');
  });

  it('offers nothing when the first item is more products', () => {
    let state = initialSearchState();
    state = reduceSearch(state, { type: 'inputChanged', value: 'shi', query: 'shi', meetsMinChars: true });
    state = reduceSearch(state, {
      type: 'suggestionsLoaded',
      query: 'shi',
      suggestions: [{ type: 'more_products', value: 'shirts and more' }, product(1, 'Shirt')],
    });
    expect(selectHint(state)).toBe('');
  });
});
