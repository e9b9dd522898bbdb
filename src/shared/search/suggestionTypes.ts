/*
 * The search endpoints' payloads (SPEC.md §3 "Suggestion", "Details response", "Prices response";
 * CONTRACT.md "Payloads"). Markup fields (thumb_html, price, the insertion slots) are built and escaped on the server.
 */

export type SuggestionType =
  | 'product'
  | 'product_variation'
  | 'headline'
  | 'headline-v2'
  | 'more_products'
  | 'no-results'
  | 'history-search'
  | 'taxonomy'
  | 'vendor'
  | 'post';

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
  vendor?: string;
  vendor_url?: string;
  vendor_id?: number;
  shop_city?: string;
  /** more_products: how many products match in all. */
  total?: number;
  /** Headlines: which group they head (products, product_cat, product_tag, product_brand, vendors, post, page). */
  group?: string;
}

export interface SuggestionsResponse {
  suggestions: Suggestion[];
  /** Server time spent, e.g. "0.42 ms". */
  time?: string;
}

export interface DetailsItem {
  objectID: string;
  html: string;
  price?: string;
}

export interface DetailsResponse {
  items: DetailsItem[];
}

export interface PricesResponse {
  success: boolean;
  data: { id: number; price: string }[];
}
