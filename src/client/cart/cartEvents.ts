/** The contract's DOM events (docs/contract.md "DOM events"): CustomEvents on `document`, WooCommerce's names. */
type CartEventName =
  | 'wc_fragment_refresh'
  | 'adding_to_cart'
  | 'added_to_cart'
  | 'removed_from_cart'
  | 'updated_wc_div';

export function dispatchCartEvent(document: Document, name: CartEventName, detail?: unknown) {
  document.dispatchEvent(new CustomEvent(name, { detail }));
}

/** `/?wc-ajax=%%endpoint%%` with the endpoint filled in. */
export function wcAjaxUrl(template: string, endpoint: string): string {
  return template.replace('%%endpoint%%', encodeURIComponent(endpoint));
}
