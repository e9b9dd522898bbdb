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
  internal_error: 500,
  rest_no_route: 404,
  rest_invalid_param: 400,
  rest_invalid_json: 400,
  rest_post_invalid_id: 404,
  rest_post_invalid_page_number: 400,
  rest_upload_no_data: 400,
  rest_upload_invalid_type: 415,
  rest_upload_file_too_big: 413,
  // Sub-size creation failed after the attachment row exists: the client resumes it with post-process.
  rest_upload_image_error: 500,
  rest_trash_not_supported: 501,
};
