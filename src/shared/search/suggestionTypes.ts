/*
 * The search endpoints' payloads, declared once for the server that builds them and the search box that reads them:
 * the box's zod schemas (client/search/core/responseSchemas.ts) are tied to these types by a test, so the two cannot
 * drift apart. The names are those of the WooCommerce search plugins whose box scripts read the same payloads.
 * Markup fields (thumb_html, price, the insertion slots) are built and escaped on the server.
 *
 * Plain types and constants only: the box's first script imports this file and must stay free of zod.
 */

export const SUGGESTION_TYPES = [
  'product',
  'product_variation',
  'headline',
  'headline-v2',
  'more_products',
  'no-results',
  'history-search',
  'taxonomy',
  'vendor',
  'post',
  'did-you-mean',
] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

/** Third-party markup a server-side suggestion decorator may add around a suggestion's parts. */
export interface SuggestionSlots {
  meta_before?: string;
  meta_after?: string;
  title_before?: string;
  title_after?: string;
  content_after?: string;
}

export interface Suggestion extends SuggestionSlots {
  type: SuggestionType;
  value: string;
  url?: string;
  post_id?: number;
  variation_id?: number;
  post_type?: string;
  term_id?: number;
  taxonomy?: string;
  /** The parent terms of a taxonomy suggestion, root first, joined with " > ". */
  breadcrumbs?: string;
  image_src?: string;
  image?: string;
  thumb_html?: string;
  sku?: string;
  desc?: string;
  /** Price markup (WooCommerce's price HTML: amounts, ranges, struck-through regular price on sale). */
  price?: string;
  on_sale?: boolean;
  featured?: boolean;
  /** A product's average rating (0–5) and how many ratings it rests on; absent when it has none. */
  rating?: number;
  rating_count?: number;
  vendor?: string;
  vendor_url?: string;
  vendor_id?: number;
  shop_city?: string;
  /** more_products: how many products match in all (at least that many with total_is_lower_bound). */
  total?: number;
  /** more_products: set when counting every match would have cost more than the answer; shown as "N+". */
  total_is_lower_bound?: boolean;
  /** Headlines: which group they head (products, product_cat, product_tag, product_brand, vendors, post, page). */
  group?: string;
  /**
   * did-you-mean (first in the list when present): the suggestions answer the corrected query `value` instead of
   * the text the shopper typed, `original`; `url` searches `original` as typed, without typo correction.
   */
  original?: string;
}

export interface SuggestionsResponse {
  suggestions: Suggestion[];
  /** Server time spent, e.g. "0.42 ms"; informative only, so the box accepts any value here. */
  time?: string;
}

export interface DetailsItem {
  objectID: string;
  html: string;
  price?: string;
}

/** The details panel of each asked-for suggestion, keyed by its object id (see suggestionObjectId). */
export interface DetailsResponse {
  items: DetailsItem[];
}

export interface PricesResponse {
  success: boolean;
  data: { id: number; price: string }[];
}
