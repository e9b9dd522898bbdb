import { suggestionObjectId as buildObjectId } from '../../../shared/search/suggestionObjectId';
import {
  type DetailsItem,
  SUGGESTION_TYPES,
  type Suggestion,
  type SuggestionType,
} from '../../../shared/search/suggestionTypes';

/*
 * What the box needs to know of the suggestion payloads, whose types are shared with the server that builds them.
 * The zod schemas that parse the endpoints' answers live in responseSchemas.ts and are loaded on first use, so that
 * the search box every page hydrates does not carry zod in the page's first JavaScript.
 */

export type { DetailsItem, Suggestion, SuggestionType };
export { SUGGESTION_TYPES };

let responseSchemas: Promise<typeof import('./responseSchemas')> | null = null;

/**
 * The response schemas, fetched once (again after a failed fetch, e.g. offline); the store asks for them as soon as
 * the shopper focuses or types in the box, so they have usually arrived before the first answer.
 */
export function loadResponseSchemas(): Promise<typeof import('./responseSchemas')> {
  responseSchemas ??= import('./responseSchemas').catch((error: unknown) => {
    responseSchemas = null;
    throw error;
  });
  return responseSchemas;
}

/**
 * Whether a history entry read back from local storage is a suggestion this version can show. History holds only
 * suggestions the box saved after parsing them, so a shape check is enough; it is synchronous because history
 * opens on focus, before the schemas may have arrived.
 */
export function isStoredSuggestion(value: unknown): value is Suggestion {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  if (!(SUGGESTION_TYPES as readonly unknown[]).includes(entry.type) || typeof entry.value !== 'string')
    return false;
  return Object.entries(STORED_FIELD_TYPES).every(
    ([field, type]) => entry[field] === undefined || typeof entry[field] === type,
  );
}

const STORED_FIELD_TYPES: Partial<Record<keyof Suggestion, 'string' | 'number' | 'boolean'>> = {
  url: 'string',
  post_id: 'number',
  variation_id: 'number',
  vendor_id: 'number',
  term_id: 'number',
  post_type: 'string',
  taxonomy: 'string',
  image: 'string',
  thumb_html: 'string',
  sku: 'string',
  desc: 'string',
  on_sale: 'boolean',
  featured: 'boolean',
};

/** Headlines group the results; they are shown but never selectable (a listbox's options are what one can choose). */
export function isHeadline(suggestion: Suggestion): boolean {
  return suggestion.type === 'headline' || suggestion.type === 'headline-v2';
}

/**
 * Whether the keyboard can land on the suggestion: not headlines, not the no-results block, not the did-you-mean
 * notice (shown above the list, its link reached with Tab).
 */
export function isSelectable(suggestion: Suggestion): boolean {
  return !isHeadline(suggestion) && suggestion.type !== 'no-results' && suggestion.type !== 'did-you-mean';
}

/**
 * A suggestion's object id: the key of the details panel and its cache, built by the one builder the server's
 * index uses too. Suggestion types without an object of their own (headlines,
 * `more_products`) get a key of their type.
 */
export function suggestionObjectId(suggestion: Suggestion): string {
  const postId = suggestion.post_id ?? 0;
  switch (suggestion.type) {
    case 'product':
      return buildObjectId({ type: 'product', postId });
    case 'product_variation':
      return buildObjectId({ type: 'product_variation', postId, variationId: suggestion.variation_id ?? 0 });
    case 'post':
      return buildObjectId({ type: 'post', postId, postType: suggestion.post_type ?? 'post' });
    case 'taxonomy':
      return buildObjectId({
        type: 'taxonomy',
        termId: suggestion.term_id ?? 0,
        taxonomy: suggestion.taxonomy ?? '',
      });
    case 'vendor':
      return buildObjectId({ type: 'vendor', vendorId: suggestion.vendor_id ?? postId });
    default:
      return `${suggestion.type}__${suggestion.post_id ?? ''}`;
  }
}
