import type { ProductImage } from '../catalog/types';

/** A priced cart line as pages and fragments show it. Money in minor units. */
export interface CartViewLine {
  key: string;
  productId: number;
  variationId: number | null;
  name: string;
  permalink: string;
  image: ProductImage | null;
  sku: string | null;
  /** Chosen attribute values to show under the name, e.g. [{label: 'Color', value: 'Blue'}]. */
  attributes: { label: string; value: string }[];
  quantity: number;
  /** Most that may be bought at once (stock or sold individually); null when unlimited. */
  maxQuantity: number | null;
  unitPrice: number;
  lineTotal: number;
}

export interface CartView {
  lines: CartViewLine[];
  itemCount: number;
  subtotal: number;
  total: number;
  /** Changes whenever the cart's contents change: the woocommerce_cart_hash cookie and fragment cache key. */
  hash: string;
}

export const EMPTY_CART: CartView = { lines: [], itemCount: 0, subtotal: 0, total: 0, hash: '' };

/** Quantity limits of docs/contract.md "Cart quantity". */
export const MAX_LINE_QUANTITY = 9999;
