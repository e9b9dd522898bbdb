import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import {
  type detailsResponseSchema,
  type pricesResponseSchema,
  suggestionSchema,
  suggestionsResponseSchema,
} from '../../client/search/core/responseSchemas';
import { createTestApp, type TestApp } from '../../server/testing/createTestApp';
import type { DetailsResponse, PricesResponse, Suggestion, SuggestionsResponse } from './suggestionTypes';

/*
 * One payload, two sides: the server builds suggestions typed by suggestionTypes.ts, the search box parses them with
 * its own zod schemas (kept apart so zod loads lazily in the browser). These checks fail as soon as the two drift:
 * the type-level ones at `npm run typecheck`, the payload ones when the server sends a field the box does not know.
 */

/** A loose object's own fields, without the index signature its passthrough adds. */
type KnownFields<T> = { [K in keyof T as string extends K ? never : K]: T[K] };

describe('the box schemas and the shared payload types', () => {
  it('declare the same fields with the same types', () => {
    expectTypeOf<KnownFields<z.output<typeof suggestionSchema>>>().toEqualTypeOf<Suggestion>();
    expectTypeOf<
      KnownFields<z.output<typeof suggestionsResponseSchema>['suggestions'][number]>
    >().toEqualTypeOf<SuggestionsResponse['suggestions'][number]>();
    expectTypeOf<z.output<typeof detailsResponseSchema>>().toEqualTypeOf<DetailsResponse>();
    expectTypeOf<z.output<typeof pricesResponseSchema>>().toEqualTypeOf<PricesResponse>();
  });
});

describe('suggestions the server builds', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp({ settings: { search: { limits: { products: 4 } } } });
  });
  afterAll(async () => shop?.close());

  async function serverSuggestions(query: string): Promise<unknown> {
    const response = await shop.app.inject(`/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`);
    expect(response.statusCode).toBe(200);
    return response.json();
  }

  it('parse with the box schema unchanged, every field of them known to it', async () => {
    const known = new Set(Object.keys(suggestionSchema.shape));
    const seen = new Set<string>();
    for (const query of ['hood', 'DEMO-PULLOVER-HOODIE-OAT', 'access', 'tidewat', 'linen', 'qqqxzzv']) {
      const payload = await serverSuggestions(query);
      const parsed = suggestionsResponseSchema.parse(payload);
      expect(parsed, query).toEqual(payload);
      for (const suggestion of parsed.suggestions) {
        seen.add(suggestion.type);
        for (const field of Object.keys(suggestion))
          expect(known, `${suggestion.type}.${field}`).toContain(field);
      }
    }
    // Every kind the server builds was checked (history-search entries are the box's own).
    expect([...seen].sort()).toEqual(
      [
        'headline',
        'headline-v2',
        'more_products',
        'no-results',
        'post',
        'product',
        'product_variation',
        'taxonomy',
        'vendor',
      ].sort(),
    );
  });
});
