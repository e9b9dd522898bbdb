import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Suggestion, SuggestionsResponse } from '../../shared/search/suggestionTypes';
import { createTestApp, type TestApp } from '../testing/createTestApp';
import { escapeHtml } from './priceHtml';
import type { SuggestionDecorator } from './SuggestionBuilder';

/*
 * The suggestion slots are the search box's server-side extension point: decorators handed to the app fill
 * meta_before, meta_after, title_before, title_after and content_after of each suggestion, in the order they are
 * given, and the slots reach the box in the search_suggestions answer.
 */

const makerLine: SuggestionDecorator = {
  decorate: (suggestion) =>
    suggestion.type === 'product' && suggestion.vendor
      ? { meta_before: `<span class="maker">${escapeHtml(suggestion.vendor)}</span>` }
      : undefined,
};

const staffPick: SuggestionDecorator = {
  decorate: (suggestion) =>
    suggestion.post_id === 1200
      ? {
          title_before: '<span class="pick">★</span>',
          title_after: '<span class="pick">Staff pick</span>',
          content_after: '<a href="/staff-picks/">More picks</a>',
        }
      : undefined,
};

/** Runs after the others: sees what they put in. */
const seesEarlierSlots: SuggestionDecorator = {
  decorate: (suggestion) =>
    suggestion.type === 'taxonomy'
      ? { meta_after: '<em>Browse the category</em>' }
      : suggestion.meta_before
        ? { meta_after: '<small>made to last</small>' }
        : undefined,
};

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ suggestionDecorators: [makerLine, staffPick, seesEarlierSlots] });
});
afterAll(async () => shop?.close());

async function suggestions(query: string): Promise<Suggestion[]> {
  const response = await shop.app.inject(`/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`);
  expect(response.statusCode).toBe(200);
  return (response.json() as SuggestionsResponse).suggestions;
}

describe('suggestion decorators', () => {
  it('fill the slots of the suggestions in the search_suggestions answer', async () => {
    const list = await suggestions('hood');
    const pullover = list.find((each) => each.post_id === 1200);
    expect(pullover).toMatchObject({
      value: 'Lined Pullover Hoodie',
      meta_before: '<span class="maker">Fern &amp; Flax Workshop</span>',
      title_before: '<span class="pick">★</span>',
      title_after: '<span class="pick">Staff pick</span>',
      meta_after: '<small>made to last</small>',
      content_after: '<a href="/staff-picks/">More picks</a>',
    });
    const zipUp = list.find((each) => each.post_id === 1203);
    expect(zipUp?.meta_before).toBe('<span class="maker">Tidewater Mill</span>');
    expect(zipUp).not.toHaveProperty('title_after');
    const category = list.find((each) => each.type === 'taxonomy');
    expect(category).toMatchObject({ value: 'Hoodies', meta_after: '<em>Browse the category</em>' });
    expect(category).not.toHaveProperty('meta_before');
  });
});
