import type { Fragments } from './fragmentsPayload';

/**
 * Replaces every element each selector matches with the fragment's markup (jQuery's `replaceWith`, as
 * WooCommerce does). The markup comes from our own server, which escapes everything it renders from data.
 */
export function replaceFragments(document: Document, fragments: Fragments) {
  for (const [selector, html] of Object.entries(fragments)) {
    let targets: NodeListOf<Element>;
    try {
      targets = document.querySelectorAll(selector);
    } catch {
      continue; // a selector the browser cannot parse names nothing on this page
    }
    for (const target of targets) {
      const template = document.createElement('template');
      template.innerHTML = html;
      target.replaceWith(template.content);
    }
  }
}
