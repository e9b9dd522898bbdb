import { replaceQuery, stripTags } from './normalizeQuery';
import { type DetailsItem, isSelectable, type Suggestion } from './suggestionTypes';

/*
 * The search box's state machine: a pure reducer, one case per event, named after
 * what happened. Requests, timers, storage and navigation run in createSearchStore, never here.
 */

export interface SearchState {
  /** What the input shows: the typed text, or the value of the suggestion the arrows moved to. */
  value: string;
  /** What the shopper typed last; Up from the first item returns to it. */
  typedValue: string;
  /** The searched part of typedValue (trimmed, after the delimiter). */
  query: string;
  isOpen: boolean;
  mode: 'suggestions' | 'history';
  status: 'idle' | 'loading' | 'ready';
  suggestions: Suggestion[];
  /** The query `suggestions` answer; the UI highlights it. */
  resultsQuery: string;
  activeIndex: number;
  /** How the active item was reached: Enter after a pointer activation submits the form (docs/contract.md). */
  activeBy: 'keyboard' | 'pointer' | null;
  delimiter: string | null;
  /** Details panel content by object id; each id is requested once. */
  details: Readonly<Record<string, DetailsItem>>;
  detailsLoading: boolean;
  /** The last details request failed: the preloader hides and the panel is cleared. */
  detailsFailed: boolean;
  /** Dynamic prices by post id. */
  prices: Readonly<Record<string, string>>;
}

export type SearchEvent =
  | { type: 'inputChanged'; value: string; query: string; meetsMinChars: boolean }
  | { type: 'suggestionsLoaded'; query: string; suggestions: Suggestion[] }
  | { type: 'requestFailed'; query: string }
  | { type: 'historyShown'; suggestions: Suggestion[] }
  | { type: 'reopened' }
  | { type: 'closed' }
  | { type: 'arrowDownPressed' }
  | { type: 'arrowUpPressed' }
  | { type: 'itemHovered'; index: number }
  | { type: 'itemLeft' }
  | { type: 'valueFilled'; value: string }
  | { type: 'detailsRequested' }
  | { type: 'detailsLoaded'; items: DetailsItem[] }
  | { type: 'detailsFailed' }
  | { type: 'pricesLoaded'; entries: { id: number; price: string }[] };

export function initialSearchState(value = '', delimiter: string | null = null): SearchState {
  return {
    value,
    typedValue: value,
    query: '',
    isOpen: false,
    mode: 'suggestions',
    status: 'idle',
    suggestions: [],
    resultsQuery: '',
    activeIndex: -1,
    activeBy: null,
    delimiter,
    details: {},
    detailsLoading: false,
    detailsFailed: false,
    prices: {},
  };
}

/** The input value while `suggestion` is active: its plain-text value in place of the query. */
function valueFor(state: SearchState, suggestion: Suggestion | undefined): string {
  if (!suggestion || suggestion.type === 'more_products') return state.typedValue;
  return replaceQuery(state.typedValue, stripTags(suggestion.value), state.delimiter);
}

function nextSelectable(suggestions: Suggestion[], from: number, step: 1 | -1): number {
  for (let index = from + step; index >= 0 && index < suggestions.length; index += step) {
    const suggestion = suggestions[index];
    if (suggestion && isSelectable(suggestion)) return index;
  }
  return -2;
}

export function reduceSearch(state: SearchState, event: SearchEvent): SearchState {
  switch (event.type) {
    case 'inputChanged':
      return {
        ...state,
        value: event.value,
        typedValue: event.value,
        query: event.query,
        activeIndex: -1,
        activeBy: null,
        status: event.meetsMinChars ? 'loading' : 'idle',
        // Below the minimum the dropdown hides; otherwise the old list stays until the answer.
        isOpen: event.meetsMinChars ? state.isOpen && state.mode === 'suggestions' : false,
        suggestions: event.meetsMinChars && state.mode === 'suggestions' ? state.suggestions : [],
        mode: 'suggestions',
      };
    case 'suggestionsLoaded':
      // A late answer for an older query is dropped (the request layer aborts it too).
      if (event.query !== state.query || state.mode !== 'suggestions') return state;
      return {
        ...state,
        status: 'ready',
        suggestions: event.suggestions,
        resultsQuery: event.query,
        isOpen: true,
        activeIndex: -1,
        activeBy: null,
      };
    case 'requestFailed':
      return event.query === state.query ? { ...state, status: 'idle' } : state;
    case 'historyShown':
      return {
        ...state,
        mode: 'history',
        status: 'ready',
        suggestions: event.suggestions,
        resultsQuery: '',
        isOpen: event.suggestions.length > 0,
        activeIndex: -1,
        activeBy: null,
      };
    case 'reopened':
      return state.suggestions.length > 0 ? { ...state, isOpen: true } : state;
    case 'closed':
      if (!state.isOpen && state.activeIndex === -1) return state;
      return { ...state, isOpen: false, activeIndex: -1, activeBy: null };
    case 'arrowDownPressed': {
      if (!state.isOpen) return state;
      const next = nextSelectable(state.suggestions, state.activeIndex, 1);
      // Down on the last item stays there.
      if (next === -2) return state;
      return {
        ...state,
        activeIndex: next,
        activeBy: 'keyboard',
        value: valueFor(state, state.suggestions[next]),
      };
    }
    case 'arrowUpPressed': {
      if (!state.isOpen || state.activeIndex === -1) return state;
      const previous = nextSelectable(state.suggestions, state.activeIndex, -1);
      if (previous === -2) {
        // Up from the first item returns to the typed value.
        return { ...state, activeIndex: -1, activeBy: null, value: state.typedValue };
      }
      return {
        ...state,
        activeIndex: previous,
        activeBy: 'keyboard',
        value: valueFor(state, state.suggestions[previous]),
      };
    }
    case 'itemHovered': {
      const suggestion = state.suggestions[event.index];
      if (!suggestion || !isSelectable(suggestion) || !state.isOpen) return state;
      if (state.activeIndex === event.index && state.activeBy === 'pointer') return state;
      return { ...state, activeIndex: event.index, activeBy: 'pointer' };
    }
    case 'itemLeft':
      return state.activeBy === 'pointer' ? { ...state, activeIndex: -1, activeBy: null } : state;
    case 'valueFilled':
      return { ...state, value: event.value, typedValue: event.value };
    case 'detailsRequested':
      return { ...state, detailsLoading: true, detailsFailed: false };
    case 'detailsLoaded': {
      const details = { ...state.details };
      for (const item of event.items) details[item.objectID] = item;
      return { ...state, details, detailsLoading: false, detailsFailed: false };
    }
    case 'detailsFailed':
      return { ...state, detailsLoading: false, detailsFailed: true };
    case 'pricesLoaded': {
      const prices = { ...state.prices };
      for (const entry of event.entries) prices[String(entry.id)] = entry.price;
      return { ...state, prices };
    }
    default: {
      // Development-only misuse check, as the house style asks.
      const unknown: never = event;
      if (import.meta.env?.DEV) throw new Error(`reduceSearch: unknown event ${JSON.stringify(unknown)}`);
      return state;
    }
  }
}

/**
 * The completion shown after the caret (Right arrow accepts it): the first suggestion's plain value when it
 * starts with the typed query, or '' when there is none.
 */
export function selectHint(state: SearchState): string {
  if (!state.isOpen || state.mode !== 'suggestions' || state.activeIndex !== -1 || !state.query) return '';
  if (state.resultsQuery !== state.query) return '';
  const first = state.suggestions.find(isSelectable);
  if (!first || first.type === 'more_products' || first.type === 'history-search') return '';
  const plain = stripTags(first.value);
  if (!plain.toLowerCase().startsWith(state.query.toLowerCase()) || plain.length <= state.query.length)
    return '';
  return state.query + plain.slice(state.query.length);
}
