/*
 * Every interactive island of the pages, by name. The server renders an island's component inside a
 * `data-island` element; the browser loads only the islands present on the page (each its own chunk) and
 * hydrates them. Catalog content outside islands costs no JavaScript.
 */
export const islandLoaders = {
  orderingSelect: () => import('./theme/OrderingSelect'),
  variationForm: () => import('./product/VariationForm'),
  cardSwatches: () => import('./product/CardSwatches'),
  checkoutForm: () => import('./checkout/CheckoutForm'),
  headerMenu: () => import('./theme/HeaderMenu'),
  headerSearchToggle: () => import('./theme/HeaderSearchToggle'),
  scrollToTop: () => import('./theme/ScrollToTop'),
  storeNotice: () => import('./theme/StoreNotice'),
  comingSoonBanner: () => import('./theme/ComingSoonBanner'),
  searchBox: () => import('./search/SearchBox'),
  insightsChart: () => import('./insights/InsightsChart'),
} as const;

export type IslandName = keyof typeof islandLoaders;
