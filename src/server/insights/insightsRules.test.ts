import { describe, expect, it } from 'vitest';
import type { SourceRow } from '../../shared/insights/insightsTypes';
import { parseSettings } from '../../shared/settings/parseSettings';
import type { RelevanceRules } from '../search/SearchIndex';
import { sortSourceRows } from './insightsPanels';
import { addSynonym } from './insightsSynonyms';

/** The insights' own rules, apart from HTTP: the synonym inbox and the order of the sources table. */

function rulesStore(saved: RelevanceRules | null) {
  const store = {
    saved,
    getRules: async () => (store.saved ? structuredClone(store.saved) : null),
    saveRules: async (rules: RelevanceRules) => {
      store.saved = rules;
    },
  };
  return store;
}

describe('addSynonym', () => {
  const relevance = parseSettings({ search: { relevance: { synonyms: ['mug=cup'] } } }).search.relevance;

  it("starts from the settings' synonyms before the owner's first change", async () => {
    const store = rulesStore(null);
    await addSynonym(store, relevance, 'beaker', 'tumbler');
    expect(store.saved?.synonyms).toEqual([
      ['mug', 'cup'],
      ['beaker', 'tumbler'],
    ]);
  });

  it('joins the group that holds either word, without repeating a word', async () => {
    const store = rulesStore(null);
    await addSynonym(store, relevance, 'beaker', 'cup');
    await addSynonym(store, relevance, 'cup', 'beaker');
    expect(store.saved?.synonyms).toEqual([['mug', 'cup', 'beaker']]);
  });
});

describe('sortSourceRows', () => {
  const row = (source: string, conversionRate: number | null): SourceRow => ({
    sourceType: 'utm',
    source,
    visitors: 0,
    buyers: 0,
    orders: 0,
    revenue: 0,
    conversionRate,
  });

  it('sorts numbers as numbers and text as text, a missing rate below every rate', () => {
    const rows = [row('b', 0.5), row('a', null), row('c', 0.05)];
    expect(sortSourceRows(rows, 'conversionRate', 'desc').map((each) => each.source)).toEqual([
      'b',
      'c',
      'a',
    ]);
    expect(sortSourceRows(rows, 'source', 'asc').map((each) => each.source)).toEqual(['a', 'b', 'c']);
    expect(rows.map((each) => each.source)).toEqual(['b', 'a', 'c']);
  });
});
