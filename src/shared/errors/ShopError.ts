/**
 * Every failure the shop reports has a code from this one list. The HTTP status of each code is mapped in
 * exactly one place (the server's error handler), typed so the compiler rejects an unmapped code.
 */
export const SHOP_ERROR_CODES = [
  'invalid_settings',
  'invalid_request',
  'invalid_nonce',
  'rest_cookie_invalid_nonce',
  'cross_origin',
  'not_found',
  'product_not_found',
  'invalid_quantity',
  'unknown_cart_item',
  'not_purchasable',
  'out_of_stock',
  'invalid_variation',
  'empty_cart',
  'invalid_checkout',
  'cart_changed',
  'import_failed',
  'invalid_signature',
  'invalid_timestamp',
  'rate_limited',
  'unauthorized',
  'internal_error',
  // REST API (WordPress's codes, so a client written for WordPress reads ours unchanged)
  'rest_no_route',
  'rest_invalid_param',
  'rest_invalid_json',
  'rest_post_invalid_id',
  'rest_post_invalid_page_number',
  'rest_upload_no_data',
  'rest_upload_invalid_type',
  'rest_upload_file_too_big',
  'rest_upload_image_error',
  'rest_trash_not_supported',
  // WooCommerce REST API v3 (/wp-json/wc/v3/), WooCommerce's own codes
  'woocommerce_rest_authentication_error',
  'woocommerce_rest_cannot_view',
  'woocommerce_rest_cannot_create',
  'woocommerce_rest_cannot_edit',
  'woocommerce_rest_cannot_delete',
  'woocommerce_rest_shop_order_invalid_id',
  'woocommerce_rest_order_invalid_id',
  'woocommerce_rest_invalid_id',
  'woocommerce_rest_product_invalid_id',
  'woocommerce_rest_product_variation_invalid_id',
  'woocommerce_rest_term_invalid',
  'woocommerce_rest_already_trashed',
  'woocommerce_rest_invalid_product_type',
  'product_invalid_sku',
] as const;

export type ShopErrorCode = (typeof SHOP_ERROR_CODES)[number];

interface ShopErrorDetails {
  /** Per-field messages for forms (checkout), keyed by field name. */
  fields?: Record<string, string>;
  [key: string]: unknown;
}

export class ShopError extends Error {
  override readonly name = 'ShopError';
  constructor(
    readonly code: ShopErrorCode,
    message: string,
    readonly details: ShopErrorDetails = {},
  ) {
    super(message);
  }
}

export function isShopError(error: unknown): error is ShopError {
  return error instanceof ShopError;
}
