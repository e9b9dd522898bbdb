import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import type { Suggestion, SuggestionsResponse } from '../../shared/search/suggestionTypes';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES } from './SearchIndex';

/*
 * The suggestions' "see all" total when the index stopped counting: with no budget for an exact count, a broad
 * one-word keystroke answers its top and flags the total as a lower bound; the results page still lists every match.
 */

describe('the more_products total of a cut keystroke', () => {
  let shop: TestApp;
  const index = new MemorySearchIndex(DEFAULT_RULES, { exactTotalBudget: 0 });
  beforeAll(async () => {
    shop = await createTestApp({ searchIndex: index });
  });
  afterAll(async () => shop?.close());

  async function suggestions(query: string): Promise<Suggestion[]> {
    const response = await shop.app.inject(`/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`);
    expect(response.statusCode).toBe(200);
    return (response.json() as SuggestionsResponse).suggestions;
  }

  it('is flagged as a lower bound, at least the products shown and at most every match', async () => {
    const flagged: string[] = [];
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      const list = await suggestions(letter);
      const more = list.find((each) => each.type === 'more_products');
      if (!more?.total_is_lower_bound) continue;
      flagged.push(letter);
      const shown = list.filter((each) => each.type === 'product').length;
      expect(more.total).toBeGreaterThanOrEqual(shown);
      const all = await index.searchProductIds(letter);
      expect(more.total).toBeLessThanOrEqual(all.length);
    }
    expect(flagged.length).toBeGreaterThan(0);
  });
});
