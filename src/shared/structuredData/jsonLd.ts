import type { ProductDetail, ProductSummary } from '../catalog/types';

/*
 * schema.org structured data as JSON-LD, built by pure functions from what the pages already show, so a test can
 * check it without a server. Google's Product snippet wants `name` and one of `offers`, `review` or
 * `aggregateRating`; it recommends image, sku, brand, description and, in the offer, price, priceCurrency,
 * availability and url. Addresses are absolute (the shop's origin in front of the pages' own paths).
 */

/** A review as the product page would pass it (the reviews feature supplies them). */
export interface JsonLdReview {
  author: string;
  /** ISO 8601 date (or date-time). */
  datePublished: string;
  reviewBody: string;
  /** 1 to 5. */
  ratingValue: number;
}

export interface JsonLdCurrency {
  code: string;
  decimals: number;
}

export interface Crumb {
  name: string;
  /** The page's path (or absolute address). */
  url: string;
}

type Json = Record<string, unknown>;

const AVAILABILITY = {
  instock: 'https://schema.org/InStock',
  outofstock: 'https://schema.org/OutOfStock',
  onbackorder: 'https://schema.org/BackOrder',
} as const;

function absolute(origin: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${origin.replace(/\/$/, '')}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** Minor units as the decimal text schema.org wants ("12.50"), without currency symbol or grouping. */
function decimalPrice(minorUnits: number, decimals: number): string {
  return (minorUnits / 10 ** decimals).toFixed(decimals);
}

export function productJsonLd(input: {
  product: ProductDetail;
  /** The product page's path, e.g. /product/linen-shirt/. */
  url: string;
  origin: string;
  currency: JsonLdCurrency;
  /** Approved reviews, newest first; none: no `review` property. */
  reviews?: readonly JsonLdReview[];
  /** Plain text of the product's short description (or description). */
  description?: string;
}): Json {
  const { product, origin, currency } = input;
  const url = absolute(origin, input.url);
  const data: Json = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    url,
  };
  if (product.images.length > 0) data.image = product.images.map((image) => absolute(origin, image.src));
  if (input.description) data.description = input.description;
  if (product.sku) data.sku = product.sku;
  const brand = product.brands[0];
  if (brand) data.brand = { '@type': 'Brand', name: brand.name };
  const offers = offersOf(product, url, currency);
  if (offers) data.offers = offers;
  if (product.ratingCount > 0 && product.ratingAverage > 0) {
    data.aggregateRating = {
      '@type': 'AggregateRating',
      ratingValue: Math.round(product.ratingAverage * 100) / 100,
      ratingCount: product.ratingCount,
      bestRating: 5,
      worstRating: 1,
    };
  }
  if (input.reviews && input.reviews.length > 0) {
    data.review = input.reviews.map((review) => ({
      '@type': 'Review',
      author: { '@type': 'Person', name: review.author },
      datePublished: review.datePublished,
      reviewBody: review.reviewBody,
      reviewRating: { '@type': 'Rating', ratingValue: review.ratingValue, bestRating: 5, worstRating: 1 },
    }));
  }
  return data;
}

/** One Offer for one price; an AggregateOffer (lowest and highest) for a price range; nothing without a price. */
function offersOf(product: ProductDetail, url: string, currency: JsonLdCurrency): Json | null {
  const { min, max } = product.price;
  if (min === null) return null;
  const availability = AVAILABILITY[product.stockStatus];
  if (max !== null && max !== min) {
    return {
      '@type': 'AggregateOffer',
      lowPrice: decimalPrice(min, currency.decimals),
      highPrice: decimalPrice(max, currency.decimals),
      offerCount: Math.max(product.variations.length, product.groupedChildren.length, 1),
      priceCurrency: currency.code,
      availability,
      url,
    };
  }
  return {
    '@type': 'Offer',
    price: decimalPrice(min, currency.decimals),
    priceCurrency: currency.code,
    availability,
    url,
  };
}

/** The trail of a page, first to last; every item names its address. */
export function breadcrumbJsonLd(crumbs: readonly Crumb[], origin: string): Json {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: absolute(origin, crumb.url),
    })),
  };
}

/** A category page's products as a summary list (each item its product page's address), in the page's order. */
export function itemListJsonLd(
  products: readonly Pick<ProductSummary, 'name' | 'slug'>[],
  productUrl: (slug: string) => string,
  origin: string,
  firstPosition = 1,
): Json {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: products.map((product, index) => ({
      '@type': 'ListItem',
      position: firstPosition + index,
      name: product.name,
      url: absolute(origin, productUrl(product.slug)),
    })),
  };
}

/**
 * JSON for inside a `<script>`: `<`, `>` and `&` as \u escapes (so `</script>` or `<!--` in a product name cannot
 * end or bend the script), and the two line separators JavaScript once refused in strings.
 */
export function serializeJsonLd(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
