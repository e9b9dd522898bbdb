import type { ShopErrorCode } from '../../shared/errors/ShopError';

/** The one place that maps error codes to HTTP statuses; the compiler rejects a code left out. */
export const ERROR_STATUS: Record<ShopErrorCode, number> = {
  invalid_settings: 500,
  invalid_request: 400,
  invalid_nonce: 403,
  rest_cookie_invalid_nonce: 403,
  cross_origin: 403,
  not_found: 404,
  product_not_found: 404,
  invalid_quantity: 400,
  unknown_cart_item: 400,
  not_purchasable: 400,
  out_of_stock: 409,
  invalid_variation: 400,
  empty_cart: 400,
  invalid_checkout: 400,
  cart_changed: 409,
  import_failed: 400,
  invalid_signature: 400,
  invalid_timestamp: 400,
  rate_limited: 429,
  unauthorized: 401,
  internal_error: 500,
};
