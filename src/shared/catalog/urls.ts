import type { Taxonomy, Term } from './types';

/* WooCommerce's permalinks (docs/contract.md "Pages"), built in one place. */

export const productUrl = (slug: string) => `/product/${encodeURIComponent(slug)}/`;

const TAXONOMY_BASE: Record<Taxonomy, string> = {
  product_cat: '/product-category/',
  product_tag: '/product-tag/',
  product_brand: '/brand/',
};

export function termUrl(term: Pick<Term, 'taxonomy' | 'path' | 'slug'>): string {
  const segments = term.taxonomy === 'product_cat' ? term.path : [term.slug];
  return `${TAXONOMY_BASE[term.taxonomy]}${segments.map(encodeURIComponent).join('/')}/`;
}

export const vendorUrl = (slug: string) => `/vendor/${encodeURIComponent(slug)}/`;
export const postUrl = (slug: string) => `/${encodeURIComponent(slug)}/`;
export const orderReceivedUrl = (id: number, key: string) =>
  `/checkout/order-received/${id}/?key=${encodeURIComponent(key)}`;
export const searchUrl = (query: string) => `/?s=${encodeURIComponent(query)}&post_type=product`;
