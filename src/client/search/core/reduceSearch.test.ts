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
});
