// The checkout form as a script without a browser sees it, for benchmarks that place orders over HTTP.

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Undoes the HTML escaping React applies to attribute values. */
function unescapeHtml(text) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function attributesOf(tag) {
  const attributes = {};
  for (const [, name, value] of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) {
    attributes[name.toLowerCase()] = unescapeHtml(value);
  }
  return attributes;
}

/**
 * Every hidden input of the page's checkout form (`<form class="checkout">`) as name → value: the nonce and cart
 * hash today, and whatever hidden field the form gains later, so the bench posts what a browser would post
 * without knowing the fields' names. Null when the page has no checkout form.
 */
export function checkoutHiddenFields(html) {
  const form = /<form\b[^>]*\bclass="[^"]*\bcheckout\b[^"]*"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) return null;
  const fields = {};
  for (const [tag] of form[1].matchAll(/<input\b[^>]*>/g)) {
    const attributes = attributesOf(tag);
    if (attributes.type?.toLowerCase() === 'hidden' && attributes.name) {
      fields[attributes.name] = attributes.value ?? '';
    }
  }
  return fields;
}

/** Whether a place-order answer is the confirmation: a 303 to an order-received page. */
export function isOrderConfirmation(status, location) {
  if (status !== 303 || typeof location !== 'string') return false;
  return /^\/checkout\/order-received\/\d+\//.test(new URL(location, 'http://shop.invalid').pathname);
}

/** The first error notice of a page (what a refused shopper is told), unescaped; '' when there is none. */
export function errorNotice(html) {
  const notice = /<div class="notice notice--error"[^>]*>([^<]*)/.exec(html ?? '');
  return notice ? unescapeHtml(notice[1]).trim() : '';
}
