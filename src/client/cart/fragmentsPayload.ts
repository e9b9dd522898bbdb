/*
 * The cart endpoints' answers (docs/contract.md "Payloads": `{fragments, cart_hash}`, errors `{code, message}`),
 * checked at the boundary by hand rather than with zod: these checks run on every page load, and zod's core
 * alone would be an eighth of the page's JavaScript (README "Quality", "Why no zod in the page's first script").
 */

export type Fragments = Record<string, string>;

export interface FragmentsAnswer {
  fragments: Fragments;
  cart_hash: string;
}

interface ErrorAnswer {
  code: string;
  message: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A map of CSS selectors to markup: an object whose every value is a string. */
export function isFragments(value: unknown): value is Fragments {
  return isPlainObject(value) && Object.values(value).every((markup) => typeof markup === 'string');
}

/** The answer of `get_refreshed_fragments`, `add_to_cart` and `remove_from_cart`, or null when malformed. */
export function parseFragmentsAnswer(value: unknown): FragmentsAnswer | null {
  if (!isPlainObject(value) || !isFragments(value.fragments) || typeof value.cart_hash !== 'string')
    return null;
  return { fragments: value.fragments, cart_hash: value.cart_hash };
}

/** An API error `{code, message}`, or null when the body is something else. */
export function parseErrorAnswer(value: unknown): ErrorAnswer | null {
  if (!isPlainObject(value) || typeof value.code !== 'string' || typeof value.message !== 'string')
    return null;
  return { code: value.code, message: value.message };
}
