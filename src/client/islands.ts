/*
 * Every interactive island of the pages, by name. The server renders an island's component inside a
 * `data-island` element; the browser loads only the islands present on the page (each its own chunk) and
 * hydrates them. Catalog content outside islands costs no JavaScript.
 */
export const islandLoaders = {
  orderingSelect: () => import('./theme/OrderingSelect'),
  variationForm: () => import('./product/VariationForm'),
  checkoutForm: () => import('./checkout/CheckoutForm'),
  searchBox: () => import('./search/SearchBox'),
} as const;

export type IslandName = keyof typeof islandLoaders;
