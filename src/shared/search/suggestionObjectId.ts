import type { Taxonomy } from '../catalog/types';

/*
 * The object id of a suggestion: built here only, so the server's index keys, the
 * details endpoint and the browser's history and panel cache all agree.
 */
export type SuggestionObject =
  | { type: 'product'; postId: number }
  | { type: 'product_variation'; postId: number; variationId: number }
  | { type: 'post'; postId: number; postType: string }
  | { type: 'taxonomy'; termId: number; taxonomy: Taxonomy | string }
  | { type: 'vendor'; vendorId: number };

export function suggestionObjectId(object: SuggestionObject): string {
  switch (object.type) {
    case 'product':
      return `product__${object.postId}`;
    case 'product_variation':
      return `product_variation__${object.postId}__${object.variationId}`;
    case 'post':
      return `post__${object.postId}__${object.postType}`;
    case 'taxonomy':
      return `taxonomy__${object.termId}__${object.taxonomy}`;
    case 'vendor':
      return `vendor__${object.vendorId}`;
  }
}

/** The inverse of suggestionObjectId; null for anything else (ids arrive from the browser). */
export function parseSuggestionObjectId(objectId: string): SuggestionObject | null {
  const parts = objectId.split('__');
  const number = (value: string | undefined) => (value && /^\d{1,12}$/.test(value) ? Number(value) : null);
  const [type, first, second] = parts;
  const id = number(first);
  if (id === null) return null;
  if (type === 'product' && parts.length === 2) return { type, postId: id };
  if (type === 'vendor' && parts.length === 2) return { type, vendorId: id };
  if (parts.length !== 3 || !second) return null;
  if (type === 'product_variation') {
    const variationId = number(second);
    return variationId === null ? null : { type, postId: id, variationId };
  }
  if (type === 'post' && /^[a-z_]{1,20}$/.test(second)) return { type, postId: id, postType: second };
  // WordPress taxonomy names: up to 32 lowercase letters, digits, dashes and underscores (`pwb-brand`).
  if (type === 'taxonomy' && /^[a-z0-9_-]{1,32}$/.test(second)) return { type, termId: id, taxonomy: second };
  return null;
}
