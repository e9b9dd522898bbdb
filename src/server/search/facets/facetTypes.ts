/*
 * The shapes the facet index works on: one record per published parent product (what a filter can test, and what
 * ranks its related products), and the vocabulary that names the values (categories with their parents, global
 * attributes with their terms).
 */

export type StockStatus = 'instock' | 'onbackorder' | 'outofstock';
export const STOCK_STATUSES: readonly StockStatus[] = ['instock', 'onbackorder', 'outofstock'];

/** Which catalog visibility a listing honours, as ProductListQuery names it. */
export type FacetContext = 'shop' | 'search';

export interface FacetProduct {
  id: number;
  visibility: 'visible' | 'catalog' | 'search';
  /** The product's own category term ids (ancestors are added by the index from the vocabulary). */
  categories: number[];
  /** Global attribute term ids (attribute_terms.id), across all its attributes. */
  attributeTerms: number[];
  /** Minor units; null when the product has no price. */
  priceMin: number | null;
  priceMax: number | null;
  stockStatus: StockStatus;
  ratingAverage: number;
  ratingCount: number;
  /** The product's tag term ids: with its own categories, what it shares with its related products. */
  tags: number[];
  /** Units sold: related products that share as much rank by it. */
  totalSales: number;
  /** Not out of stock, and a managed stock above zero unless on backorder: a related product must be buyable. */
  purchasable: boolean;
}

export interface FacetCategory {
  id: number;
  slug: string;
  name: string;
  parentId: number | null;
}

export interface FacetAttribute {
  id: number;
  /** Without WooCommerce's `pa_` prefix, as `filter_{slug}` names it. */
  slug: string;
  name: string;
  terms: { id: number; slug: string; name: string }[];
}

export interface FacetVocabulary {
  categories: FacetCategory[];
  attributes: FacetAttribute[];
}

/** What the shopper chose, by slug (as the URL says it); prices in minor units. */
export interface FacetSelection {
  categories: string[];
  /** Attribute slug → term slugs. */
  attributes: Record<string, string[]>;
  minPrice: number | null;
  maxPrice: number | null;
  stock: StockStatus[];
  /** Rounded average ratings, 1–5. */
  ratings: number[];
}

export const EMPTY_SELECTION: FacetSelection = {
  categories: [],
  attributes: {},
  minPrice: null,
  maxPrice: null,
  stock: [],
  ratings: [],
};

export interface FacetValueCount {
  /** The value as the URL says it: a slug, a stock status, a star count, or `min-max` for a price range. */
  value: string;
  label: string;
  count: number;
  selected: boolean;
  /** Category depth, for indenting a subcategory under its parent. */
  depth?: number;
  /** A price range's bounds in minor units (max inclusive, as WooCommerce's price filter). */
  min?: number;
  max?: number;
}

export interface FacetCounts {
  /** `product_cat`, `pa_{slug}`, `price`, `stock_status`, `rating`. */
  key: string;
  /** The URL parameter that carries this facet's choice (`filter_color`, `min_price`/`max_price`, …). */
  param: string;
  label: string;
  values: FacetValueCount[];
}

export interface FacetResult {
  /** The base products that pass every chosen filter, in the base's order. */
  ids: number[];
  facets: FacetCounts[];
}
