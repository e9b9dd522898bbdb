import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal, parseDecimal } from './decimals';
import { EMPTY_SELECTION, type FacetSelection, STOCK_STATUSES } from './facetTypes';
import { canonicalFacetSearch, facetParams, parseFacetParams, queryText } from './facetUrl';

const slug = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,12}$/);
const sortedUnique = <T>(arb: fc.Arbitrary<T[]>, compare?: (a: T, b: T) => number) =>
  arb.map((list) => [...new Set(list)].sort(compare));

const selectionArb: fc.Arbitrary<FacetSelection> = fc
  .record({
    categories: sortedUnique(fc.array(slug, { maxLength: 4 })),
    attributes: fc.dictionary(
      slug.filter((key) => key !== 'product_cat' && key !== 'stock_status'),
      sortedUnique(fc.array(slug, { minLength: 1, maxLength: 4 })),
      { maxKeys: 4 },
    ),
    minPrice: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
    maxPrice: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
    stock: sortedUnique(fc.subarray([...STOCK_STATUSES])),
    ratings: sortedUnique(fc.subarray([1, 2, 3, 4, 5]), (a, b) => a - b),
  })
  .map((selection) =>
    selection.minPrice !== null && selection.maxPrice !== null && selection.minPrice > selection.maxPrice
      ? { ...selection, minPrice: selection.maxPrice, maxPrice: selection.minPrice }
      : selection,
  );

/** The query object a server framework makes of a query string (a repeated key becomes a list). */
function asQuery(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = query[name];
    query[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return query;
}

describe('filters in the URL', () => {
  it('round-trips any choice through the canonical query string', () => {
    fc.assert(
      fc.property(selectionArb, fc.constantFrom(0, 2, 3), (selection, decimals) => {
        const text = queryText(facetParams(selection, decimals));
        expect(parseFacetParams(asQuery(text), decimals)).toEqual(selection);
        // The canonical form is a fixed point: nothing to redirect.
        expect(canonicalFacetSearch(text, decimals)).toBeNull();
      }),
    );
  });

  it('writes WooCommerce’s names, commas literal', () => {
    const text = queryText(
      facetParams({
        ...EMPTY_SELECTION,
        categories: ['hoodies'],
        attributes: { color: ['red', 'blue'], size: ['l'] },
        minPrice: 2000,
        maxPrice: 3999,
        stock: ['instock'],
        ratings: [5, 4],
      }),
    );
    expect(text).toBe(
      'filter_product_cat=hoodies&filter_color=blue,red&filter_size=l&min_price=20&max_price=39.99' +
        '&filter_stock_status=instock&rating_filter=4,5',
    );
  });

  it('reads what the plain form sends (repeated keys, a price range) and names the canonical address', () => {
    const sent =
      's=hoodie&post_type=product&filter_color=red&filter_color=blue&price_range=2000-3999&rating_filter=5';
    expect(parseFacetParams(asQuery(sent))).toMatchObject({
      attributes: { color: ['blue', 'red'] },
      minPrice: 2000,
      maxPrice: 3999,
      ratings: [5],
    });
    expect(canonicalFacetSearch(sent)).toBe(
      's=hoodie&post_type=product&filter_color=blue,red&min_price=20&max_price=39.99&rating_filter=5',
    );
    // A range the URL chose that is none of the offered ones comes back as it was, open ends included.
    expect(canonicalFacetSearch('s=x&price_range=2000-')).toBe('s=x&min_price=20');
    expect(canonicalFacetSearch('s=x&price_range=-1550')).toBe('s=x&max_price=15.5');
    // "Any price" sends an empty range: no price filter, and the empty parameter goes away.
    expect(canonicalFacetSearch('s=x&price_range=&filter_size=')).toBe('s=x');
  });

  it('leaves junk out instead of failing the page', () => {
    const selection = parseFacetParams({
      filter_color: ['<script>', 'red'],
      filter_stock_status: 'instock,sold,outofstock',
      rating_filter: '0,3,9,x',
      min_price: 'ten',
      max_price: '-5',
      'filter_bad key': 'x',
    });
    expect(selection).toEqual({
      ...EMPTY_SELECTION,
      attributes: { color: ['red'] },
      stock: ['instock', 'outofstock'],
      ratings: [3],
    });
    // A reversed range is read the right way round.
    expect(parseFacetParams({ min_price: '50', max_price: '10' })).toMatchObject({
      minPrice: 1000,
      maxPrice: 5000,
    });
  });

  it('writes prices without trailing zeros and reads them back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.constantFrom(0, 1, 2, 3, 4), (minor, decimals) => {
        expect(parseDecimal(formatDecimal(minor, decimals), decimals)).toBe(minor);
      }),
    );
    expect(formatDecimal(2050, 2)).toBe('20.5');
    expect(formatDecimal(2000, 2)).toBe('20');
  });
});
