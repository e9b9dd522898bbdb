import { BILLING_FIELDS, SHIPPING_FIELDS } from '../../shared/checkout/billingFields';

/*
 * Every page, form and endpoint the shop answers, in one table: the bad-input and script-injection tests walk
 * it, so an endpoint added here is fuzzed and checked for reflected markup without writing a new test.
 * A feature adds its rows here.
 */

export interface SurfaceEntry {
  name: string;
  method: 'GET' | 'POST';
  /** Path (and any fixed query) of the request; generated fields are appended as query (GET) or body (POST). */
  url: string;
  /** How a refusal looks: `json` is a 4xx `{code, message}`, `page` a readable HTML page (or a redirect). */
  answers: 'json' | 'page';
  /** The fields the handler reads, which the generators fill with junk (real names reach the deep code paths). */
  fields: string[];
  /** Fields that carry a nonce: filled with junk, with real nonces of other actions and with stale ones. */
  nonceFields?: string[];
  /** Sent with a cart (a session holding one line), for handlers that refuse early without one. */
  withCart?: boolean;
}

const ARCHIVE_FIELDS = ['orderby', 's', 'post_type', 'paged'];
const CHECKOUT_FIELDS = [
  ...BILLING_FIELDS.map((field) => field.name),
  ...SHIPPING_FIELDS.map((field) => field.name),
  'ship_to_different_address',
  'shipping_method',
  'shown_total',
  'order_comments',
  'payment_method',
  'cart_hash',
];
const ADD_TO_CART_FIELDS = [
  'product_id',
  'quantity',
  'variation_id',
  'attribute_pa_color',
  'attribute_pa_size',
];

export const SHOP_SURFACE: SurfaceEntry[] = [
  // Pages
  { name: 'home', method: 'GET', url: '/', answers: 'page', fields: ARCHIVE_FIELDS },
  {
    name: 'search results',
    method: 'GET',
    url: '/?s=linen&post_type=product',
    answers: 'page',
    fields: ['orderby'],
  },
  { name: 'search results page 2', method: 'GET', url: '/page/2/', answers: 'page', fields: ARCHIVE_FIELDS },
  { name: 'shop', method: 'GET', url: '/shop/', answers: 'page', fields: ARCHIVE_FIELDS },
  { name: 'shop page 2', method: 'GET', url: '/shop/page/2/', answers: 'page', fields: ARCHIVE_FIELDS },
  {
    name: 'category',
    method: 'GET',
    url: '/product-category/apparel/',
    answers: 'page',
    fields: ARCHIVE_FIELDS,
  },
  { name: 'tag', method: 'GET', url: '/product-tag/linen/', answers: 'page', fields: ARCHIVE_FIELDS },
  { name: 'brand', method: 'GET', url: '/brand/fern-and-flax/', answers: 'page', fields: ARCHIVE_FIELDS },
  { name: 'vendor', method: 'GET', url: '/vendor/tidewater-mill/', answers: 'page', fields: ARCHIVE_FIELDS },
  {
    name: 'product',
    method: 'GET',
    url: '/product/washed-linen-shirt/',
    answers: 'page',
    fields: ['attribute_pa_color'],
  },
  { name: 'placeholder image', method: 'GET', url: '/images/1001.svg', answers: 'page', fields: [] },
  {
    name: 'cart',
    method: 'GET',
    url: '/cart/',
    answers: 'page',
    fields: ['added', 'updated'],
    withCart: true,
  },
  { name: 'checkout', method: 'GET', url: '/checkout/', answers: 'page', fields: [], withCart: true },
  {
    name: 'order received',
    method: 'GET',
    url: '/checkout/order-received/1/',
    answers: 'page',
    fields: ['key'],
  },
  { name: 'journal', method: 'GET', url: '/journal/', answers: 'page', fields: [] },
  { name: 'content page', method: 'GET', url: '/about/', answers: 'page', fields: [] },
  { name: 'protected page', method: 'GET', url: '/trade-prices/', answers: 'page', fields: [] },
  { name: 'health', method: 'GET', url: '/healthz', answers: 'json', fields: [] },
  // Forms (they work without JavaScript)
  {
    name: 'add to cart form',
    method: 'POST',
    url: '/cart/',
    answers: 'page',
    fields: [
      'add-to-cart',
      'quantity',
      'variation_id',
      'attribute_pa_color',
      'quantity[1021]',
      'quantity[1022]',
    ],
  },
  {
    name: 'cart update form',
    method: 'POST',
    url: '/cart/',
    answers: 'page',
    fields: ['remove_item', 'cart[0123456789abcdef0123456789abcdef][qty]', 'update_cart'],
    nonceFields: ['_wpnonce'],
    withCart: true,
  },
  {
    name: 'checkout form',
    method: 'POST',
    url: '/checkout/',
    answers: 'page',
    fields: CHECKOUT_FIELDS,
    nonceFields: ['_wpnonce'],
    withCart: true,
  },
  {
    name: 'page password form',
    method: 'POST',
    url: '/trade-prices/',
    answers: 'page',
    fields: ['post_password'],
    nonceFields: ['_wpnonce'],
  },
  // wc-ajax and /ajax endpoints (docs/contract.md "Endpoints")
  {
    name: 'get_refreshed_fragments (GET)',
    method: 'GET',
    url: '/?wc-ajax=get_refreshed_fragments',
    answers: 'json',
    fields: ['time'],
    withCart: true,
  },
  {
    name: 'get_refreshed_fragments (POST)',
    method: 'POST',
    url: '/?wc-ajax=get_refreshed_fragments',
    answers: 'json',
    fields: ['time'],
    withCart: true,
  },
  {
    name: 'add_to_cart',
    method: 'POST',
    url: '/?wc-ajax=add_to_cart',
    answers: 'json',
    fields: ADD_TO_CART_FIELDS,
  },
  {
    name: 'remove_from_cart',
    method: 'POST',
    url: '/?wc-ajax=remove_from_cart',
    answers: 'json',
    fields: ['cart_item_key'],
    withCart: true,
  },
  {
    name: 'update_order_review',
    method: 'POST',
    url: '/?wc-ajax=update_order_review',
    answers: 'json',
    fields: CHECKOUT_FIELDS,
    withCart: true,
  },
  { name: 'unknown wc-ajax', method: 'POST', url: '/?wc-ajax=no_such_thing', answers: 'json', fields: ['x'] },
  {
    name: 'set_cart_item_quantity',
    method: 'POST',
    url: '/ajax?action=set_cart_item_quantity',
    answers: 'json',
    fields: ['hash', 'quantity'],
    nonceFields: ['qtyNonce'],
    withCart: true,
  },
  {
    name: 'site ajax without action',
    method: 'POST',
    url: '/ajax',
    answers: 'json',
    fields: ['action', 'hash'],
  },
  {
    name: 'search_suggestions',
    method: 'GET',
    url: '/?wc-ajax=search_suggestions',
    answers: 'json',
    fields: ['s', 'l'],
  },
  {
    name: 'search_details',
    method: 'POST',
    url: '/?wc-ajax=search_details',
    answers: 'json',
    fields: ['action', 'items'],
  },
  {
    name: 'search_prices',
    method: 'POST',
    url: '/?wc-ajax=search_prices',
    answers: 'json',
    fields: ['action', 'items'],
  },
  {
    name: 'get_variations',
    method: 'GET',
    url: '/?wc-ajax=get_variations',
    answers: 'json',
    fields: ['product_id'],
  },
  // Statistics (their signed parameters are junk here: refused with 400, never stored)
  {
    name: 'stats_hit (ajax)',
    method: 'POST',
    url: '/ajax?action=stats_hit',
    answers: 'json',
    fields: ['source_type', 'source_id', 'search_query', 'signature', 'referred', 'page_uri'],
  },
  {
    name: 'stats hit (REST)',
    method: 'POST',
    url: '/wp-json/stats/v1/hit',
    answers: 'json',
    fields: ['source_type', 'source_id', 'search_query', 'signature', 'referred', 'page_uri'],
  },
  {
    name: 'stats online (REST)',
    method: 'POST',
    url: '/wp-json/stats/v1/online',
    answers: 'json',
    fields: ['source_type', 'source_id', 'signature', 'referred', 'page_uri'],
  },
  {
    name: 'stats_event',
    method: 'POST',
    url: '/ajax?action=stats_event',
    answers: 'json',
    fields: ['en', 'et', 'eid', 'ec', 'ev', 'mb', 'fn', 'fx', 'm', 'tu', 'pid', 'wcdl', 'df', 'dk'],
  },
  {
    name: 'stats report',
    method: 'GET',
    url: '/wp-json/stats/v1/report',
    answers: 'json',
    fields: ['from', 'to'],
  },
  // REST API: errors are `{code, message, data: {status}}`, a superset of `{code, message}`
  { name: 'REST index', method: 'GET', url: '/wp-json/', answers: 'json', fields: [] },
  {
    name: 'REST posts',
    method: 'GET',
    url: '/wp-json/wp/v2/posts',
    answers: 'json',
    fields: ['page', 'per_page', 'search', '_fields', '_wpnonce'],
  },
  {
    name: 'REST page by id',
    method: 'GET',
    url: '/wp-json/wp/v2/pages/1',
    answers: 'json',
    fields: ['_fields'],
  },
  {
    name: 'REST media upload',
    method: 'POST',
    url: '/wp-json/wp/v2/media',
    answers: 'json',
    fields: ['file', 'title'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'REST users/me',
    method: 'POST',
    url: '/wp-json/wp/v2/users/me',
    answers: 'json',
    fields: ['meta', '_method'],
    nonceFields: ['_wpnonce'],
  },
  { name: 'REST nonce', method: 'GET', url: '/ajax?action=rest-nonce', answers: 'page', fields: [] },
  // Owner insights (signed out here: the pages ask for the password, the API and exports refuse)
  { name: 'insights', method: 'GET', url: '/insights/', answers: 'page', fields: ['range', 'from', 'to'] },
  // The back office (signed out here: pages send to the login, forms refuse)
  { name: 'owner login form', method: 'GET', url: '/admin/login', answers: 'page', fields: ['next'] },
  {
    name: 'owner login',
    method: 'POST',
    url: '/admin/login',
    answers: 'page',
    fields: ['password', 'next'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'owner logout',
    method: 'POST',
    url: '/admin/logout',
    answers: 'page',
    fields: ['everywhere'],
    nonceFields: ['_wpnonce'],
  },
  { name: 'back office', method: 'GET', url: '/admin/', answers: 'page', fields: [] },
  { name: 'orders', method: 'GET', url: '/admin/orders/', answers: 'page', fields: ['status', 's', 'paged'] },
  {
    name: 'order',
    method: 'GET',
    url: '/admin/orders/1/',
    answers: 'page',
    fields: ['updated', 'stock', 'note'],
  },
  {
    name: 'order status',
    method: 'POST',
    url: '/admin/orders/1/status',
    answers: 'page',
    fields: ['status'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'order note',
    method: 'POST',
    url: '/admin/orders/1/notes',
    answers: 'page',
    fields: ['note'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'API keys',
    method: 'GET',
    url: '/admin/settings/api/',
    answers: 'page',
    fields: ['revoked'],
  },
  {
    name: 'API key create',
    method: 'POST',
    url: '/admin/settings/api/',
    answers: 'page',
    fields: ['description', 'permissions'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'API key revoke',
    method: 'POST',
    url: '/admin/settings/api/1/revoke',
    answers: 'page',
    fields: [],
    nonceFields: ['_wpnonce'],
  },
  // The owner's webhooks (docs/rest-api.md "Webhooks")
  {
    name: 'webhooks',
    method: 'GET',
    url: '/admin/settings/webhooks/',
    answers: 'page',
    fields: ['deleted'],
  },
  {
    name: 'webhook page',
    method: 'GET',
    url: '/admin/settings/webhooks/1/',
    answers: 'page',
    fields: ['saved', 'ping'],
  },
  {
    name: 'webhook create',
    method: 'POST',
    url: '/admin/settings/webhooks/',
    answers: 'page',
    fields: ['name', 'status', 'topic', 'deliveryUrl', 'secret'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'webhook update',
    method: 'POST',
    url: '/admin/settings/webhooks/1/',
    answers: 'page',
    fields: ['name', 'status', 'topic', 'deliveryUrl', 'secret'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'webhook delete',
    method: 'POST',
    url: '/admin/settings/webhooks/1/delete',
    answers: 'page',
    fields: [],
    nonceFields: ['_wpnonce'],
  },
  // WooCommerce REST API v3 (docs/rest-api.md): junk keys, dates and filters are refused as JSON
  {
    name: 'WooCommerce orders',
    method: 'GET',
    url: '/wp-json/wc/v3/orders',
    answers: 'json',
    fields: ['status', 'after', 'before', 'search', 'page', 'per_page', 'consumer_key', 'consumer_secret'],
  },
  {
    name: 'WooCommerce products',
    method: 'GET',
    url: '/wp-json/wc/v3/products',
    answers: 'json',
    fields: ['status', 'sku', 'search', 'category', 'stock_status', 'consumer_key', 'consumer_secret'],
  },
  {
    name: 'WooCommerce order update',
    method: 'POST',
    url: '/wp-json/wc/v3/orders/1',
    answers: 'json',
    fields: ['status', 'consumer_key', 'consumer_secret'],
  },
  {
    name: 'WooCommerce sales report',
    method: 'GET',
    url: '/wp-json/wc/v3/reports/sales',
    answers: 'json',
    fields: ['period', 'date_min', 'date_max', 'oauth_signature'],
  },
  { name: 'insights logout', method: 'POST', url: '/insights/logout', answers: 'page', fields: ['_wpnonce'] },
  {
    name: 'insights synonym',
    method: 'POST',
    url: '/insights/synonym',
    answers: 'page',
    fields: ['query', 'synonym'],
    nonceFields: ['_wpnonce'],
  },
  {
    name: 'insights API',
    method: 'GET',
    url: '/insights/api/visitors',
    answers: 'json',
    fields: ['range', 'from', 'to'],
  },
  {
    name: 'insights export',
    method: 'GET',
    url: '/insights/export/pages.csv',
    answers: 'json',
    fields: ['range', 'from', 'to'],
  },
];
