import { formatDecimal, parseDecimal } from './decimals';
import { EMPTY_SELECTION, type FacetSelection, STOCK_STATUSES, type StockStatus } from './facetTypes';

/*
 * The filters in the URL, with WooCommerce's names where it has them: `filter_{attribute}=red,blue` (its layered
 * navigation), `min_price`/`max_price` in major units (its price filter), `rating_filter=4,5` (its rating filter),
 * `filter_stock_status=instock` (its stock filter block). Categories use `filter_product_cat=slug,slug` in the same
 * style. The plain form (no JavaScript) sends repeated keys (`filter_color=red&filter_color=blue`) and a price range
 * as `price_range=2000-3999` (minor units); the server reads both and answers with the canonical address.
 */

/** More values than this in one facet, or facets than this, are ignored: no listing needs them. */
const MAX_VALUES = 50;
const MAX_FACETS = 20;
const SLUG = /^[\p{L}\p{N}_%-]{1,200}$/u;

export type RawQuery = Record<string, unknown>;

function values(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const out = new Set<string>();
  for (const item of list) {
    if (typeof item !== 'string') continue;
    for (const part of item.split(',')) {
      const value = part.trim().toLowerCase();
      if (value && SLUG.test(value)) out.add(value);
    }
  }
  return [...out].sort().slice(0, MAX_VALUES);
}

function single(raw: unknown): string | undefined {
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  return typeof value === 'string' ? value : undefined;
}

/** The shopper's choice from a query string's parameters; junk values are left out, as WooCommerce does. */
export function parseFacetParams(query: RawQuery, decimals = 2): FacetSelection {
  const selection: FacetSelection = { ...EMPTY_SELECTION, attributes: {} };
  let facets = 0;
  for (const [name, raw] of Object.entries(query)) {
    if (!name.startsWith('filter_')) continue;
    const key = name.slice('filter_'.length);
    const list = values(raw);
    if (list.length === 0) continue;
    if (key === 'product_cat') selection.categories = list;
    else if (key === 'stock_status')
      selection.stock = list.filter((value): value is StockStatus =>
        STOCK_STATUSES.includes(value as StockStatus),
      );
    else if (SLUG.test(key) && facets < MAX_FACETS) {
      selection.attributes[key] = list;
      facets++;
    }
  }
  selection.ratings = [...new Set(values(query.rating_filter).map(Number))]
    .filter((stars) => Number.isInteger(stars) && stars >= 1 && stars <= 5)
    .sort((a, b) => a - b);

  // `min-max` in minor units; an open end is left empty (`2000-`: from 20 up).
  const range = single(query.price_range)?.match(/^(\d{0,12})-(\d{0,12})$/);
  if (range && (range[1] || range[2])) {
    selection.minPrice = range[1] ? Number(range[1]) : null;
    selection.maxPrice = range[2] ? Number(range[2]) : null;
  } else if (single(query.price_range) === undefined || single(query.price_range) === '') {
    selection.minPrice = parseDecimal(single(query.min_price), decimals);
    selection.maxPrice = parseDecimal(single(query.max_price), decimals);
  }
  if (selection.minPrice !== null && selection.maxPrice !== null && selection.minPrice > selection.maxPrice)
    [selection.minPrice, selection.maxPrice] = [selection.maxPrice, selection.minPrice];
  return selection;
}

/** The canonical parameters of a choice, in a stable order (what the address bar shows). */
export function facetParams(selection: FacetSelection, decimals = 2): [string, string][] {
  const params: [string, string][] = [];
  if (selection.categories.length)
    params.push(['filter_product_cat', [...selection.categories].sort().join(',')]);
  for (const attribute of Object.keys(selection.attributes).sort()) {
    const list = selection.attributes[attribute] ?? [];
    if (list.length) params.push([`filter_${attribute}`, [...list].sort().join(',')]);
  }
  if (selection.minPrice !== null) params.push(['min_price', formatDecimal(selection.minPrice, decimals)]);
  if (selection.maxPrice !== null) params.push(['max_price', formatDecimal(selection.maxPrice, decimals)]);
  if (selection.stock.length) params.push(['filter_stock_status', [...selection.stock].sort().join(',')]);
  if (selection.ratings.length)
    params.push(['rating_filter', [...selection.ratings].sort((a, b) => a - b).join(',')]);
  return params;
}

/** Whether a query parameter belongs to the filters (so the canonical address replaces it). */
export function isFacetParam(name: string): boolean {
  return (
    name.startsWith('filter_') || ['min_price', 'max_price', 'price_range', 'rating_filter'].includes(name)
  );
}

export function hasSelection(selection: FacetSelection): boolean {
  return facetParams(selection).length > 0;
}

/**
 * The canonical address's query for a request's query string: its other parameters as they came, then the filters
 * in canonical form. Null when the request already says it that way.
 */
export function canonicalFacetSearch(search: string, decimals = 2): string | null {
  const given = new URLSearchParams(search);
  const raw: RawQuery = {};
  for (const [name, value] of given) {
    if (!isFacetParam(name)) continue;
    const previous = raw[name];
    raw[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  const pairs = [...given];
  const canonical: [string, string][] = [
    ...pairs.filter(([name]) => !isFacetParam(name)),
    ...facetParams(parseFacetParams(raw, decimals), decimals),
  ];
  const same =
    canonical.length === pairs.length &&
    canonical.every(([name, value], index) => pairs[index]?.[0] === name && pairs[index]?.[1] === value);
  return same ? null : queryText(canonical);
}

/** A query string that keeps commas literal, as WooCommerce's filter links write them (`filter_color=red,blue`). */
export function queryText(params: readonly [string, string][]): string {
  return params
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value).replace(/%2C/g, ',')}`)
    .join('&');
}
