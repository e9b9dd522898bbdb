/*
 * What the visitor statistics store of an address, and when an address is a new page view. Shared by the tracker
 * (which sends a hit only when the page's identity changes) and the server (which strips the address again at
 * recording: a tracker is never trusted to have done it).
 */

/**
 * Query parameters that may carry something private: an order's key, a login or reset token, a nonce, an email.
 * They are removed before a hit, a referrer or an entry page is stored, so nothing private reaches the tables.
 * Matched case-insensitively; a parameter whose value looks like an email address is removed whatever its name.
 */
export const PRIVATE_QUERY_PARAMS = [
  'key',
  'order_key',
  'token',
  'access_token',
  'auth',
  'nonce',
  '_wpnonce',
  'password',
  'pwd',
  'email',
  'billing_email',
  'login',
  'reset',
  'session',
  'code',
] as const;

/**
 * Query parameters the shop itself writes into the address while a visitor stays on the page: a variation
 * choice (a swatch click rewrites `?attribute_pa_color=blue` with `history.replaceState`). A name is matched when
 * it equals an entry, or starts with one that ends in `*`. Changing them is not a new page view, and they are not
 * part of a page's identity in the statistics.
 */
export const SHOP_VARIATION_PARAMS = ['attribute_*', 'variation_id'] as const;

/**
 * An email address anywhere in a text. Not anchored: a `+` in the query is read as a space, so
 * `?ref=john+shop@example.com` arrives as "john shop@example.com", still someone's address.
 */
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
/** Names that say "token" in any spelling (`reset_token`, `apiToken`) are private too. */
const TOKEN_LIKE = /token|nonce|secret|passw/i;

function listed(name: string, list: readonly string[]): boolean {
  const lower = name.toLowerCase();
  return list.some((entry) => (entry.endsWith('*') ? lower.startsWith(entry.slice(0, -1)) : lower === entry));
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Whether a query parameter is private: by name, by a token-like name, or by an email address in its value or in
 * its name (a bare `?someone@example.com`).
 */
export function isPrivateParam(name: string, value: string): boolean {
  const plainName = decoded(name);
  return (
    listed(plainName, PRIVATE_QUERY_PARAMS) ||
    TOKEN_LIKE.test(plainName) ||
    EMAIL.test(plainName) ||
    EMAIL.test(decoded(value))
  );
}

/** A query string (with or without `?`) without private and shop-written parameters; `''` or `?a=b&c=d`. */
export function recordedSearch(search: string): string {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (!query) return '';
  const kept = query.split('&').filter((pair) => {
    if (!pair) return false;
    const at = pair.indexOf('=');
    const name = at < 0 ? pair : pair.slice(0, at);
    const value = at < 0 ? '' : pair.slice(at + 1);
    return !isPrivateParam(name, value) && !listed(decoded(name), SHOP_VARIATION_PARAMS);
  });
  return kept.length ? `?${kept.join('&')}` : '';
}

/** A page address (`/path?query#hash`) as the statistics store it: no hash, no private or shop-written parameter. */
export function recordedPage(uri: string): string {
  const withoutHash = uri.split('#')[0] ?? '';
  const at = withoutHash.indexOf('?');
  if (at < 0) return withoutHash;
  return `${withoutHash.slice(0, at)}${recordedSearch(withoutHash.slice(at))}`;
}

/** A full URL (a referrer) without its private parameters and hash; text that is not a URL is kept as it is. */
export function recordedUrl(url: string): string {
  if (!url) return url;
  const withoutHash = url.split('#')[0] ?? '';
  const at = withoutHash.indexOf('?');
  if (at < 0) return withoutHash;
  const query = withoutHash.slice(at + 1);
  const kept = query
    .split('&')
    .filter((pair) => pair && !isPrivateParam(pair.split('=')[0] ?? '', pair.split('=').slice(1).join('=')));
  return `${withoutHash.slice(0, at)}${kept.length ? `?${kept.join('&')}` : ''}`;
}
