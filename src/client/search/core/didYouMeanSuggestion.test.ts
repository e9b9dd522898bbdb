import { describe, expect, it } from 'vitest';
import { initialSearchState, reduceSearch } from './reduceSearch';
import { isSelectable, type Suggestion } from './suggestionTypes';
import { product } from './testSupport';

/*
 * The did-you-mean entry travels first in the suggestions; the box shows it as a notice, never as an option:
 * the arrows pass it by and the input never takes its value.
 */

const CORRECTED: Suggestion[] = [
  { type: 'did-you-mean', value: 'hoodie', original: 'hodie', url: '/?s=hodie&post_type=product&exact=1' },
  { type: 'headline-v2', value: 'Products' },
  product(1, 'Zip Hoodie'),
];

describe('the did-you-mean entry', () => {
  it('is not selectable', () => {
    expect(isSelectable(CORRECTED[0] as Suggestion)).toBe(false);
  });

  it('is passed by the arrows', () => {
    let state = initialSearchState('');
    state = reduceSearch(state, {
      type: 'inputChanged',
      value: 'hodie',
      query: 'hodie',
      meetsMinChars: true,
    });
    state = reduceSearch(state, { type: 'suggestionsLoaded', query: 'hodie', suggestions: CORRECTED });
    state = reduceSearch(state, { type: 'arrowDownPressed' });
    expect(state).toMatchObject({ activeIndex: 2, value: 'Zip Hoodie' });
    state = reduceSearch(state, { type: 'arrowUpPressed' });
    expect(state).toMatchObject({ activeIndex: -1, value: 'hodie' });
  });
});
