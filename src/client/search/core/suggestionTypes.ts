// zod's tree-shakable build: the search box is on every page, and the full build would triple its JavaScript.
import * as z from 'zod/mini';
import { suggestionObjectId as buildObjectId } from '../../../shared/search/suggestionObjectId';

/*
 * The suggestion and response formats of SPEC.md §3 ("Suggestion", "Details response", "Prices response") and
 * CONTRACT.md "Payloads". Responses are parsed with zod at the boundary; unknown fields pass through so the
 * engine can add to them.
 */

const id = z.pipe(
  z.union([z.number(), z.string()]),
  z.transform((value: number | string) => Number(value)),
);
const text = z.pipe(
  z.union([z.string(), z.number()]),
  z.transform((value: string | number) => String(value)),
);

export const suggestionSchema = z.looseObject({
  type: z.enum([
    'product',
    'product_variation',
    'headline',
    'headline-v2',
    'more_products',
    'no-results',
    'history-search',
    'taxonomy',
    'vendor',
    'post',
  ]),
  value: z._default(text, ''),
  url: z.optional(z.string()),
  post_id: z.optional(id),
  variation_id: z.optional(id),
  vendor_id: z.optional(id),
  post_type: z.optional(z.string()),
  term_id: z.optional(id),
  taxonomy: z.optional(z.string()),
  breadcrumbs: z.optional(z.string()),
  image: z.optional(z.string()),
  image_src: z.optional(z.string()),
  thumb_html: z.optional(z.string()),
  sku: z.optional(text),
  desc: z.optional(z.string()),
  price: z.optional(z.string()),
  on_sale: z.optional(z.boolean()),
  featured: z.optional(z.boolean()),
  vendor: z.optional(z.string()),
  vendor_url: z.optional(z.string()),
  shop_city: z.optional(z.string()),
  total: z.optional(id),
  meta_before: z.optional(z.string()),
  meta_after: z.optional(z.string()),
  title_before: z.optional(z.string()),
  title_after: z.optional(z.string()),
  content_after: z.optional(z.string()),
});

export type Suggestion = z.infer<typeof suggestionSchema>;
export type SuggestionType = Suggestion['type'];

export const suggestionsResponseSchema = z.looseObject({
  suggestions: z.array(suggestionSchema),
  time: z.optional(z.unknown()),
});

const detailsObjectSchema = z.object({
  items: z.array(z.object({ objectID: z.string(), html: z.string(), price: z.optional(z.string()) })),
});

/** The details endpoint may answer the object itself or the object serialized as a string (CONTRACT.md). */
export const detailsResponseSchema = z.union([
  detailsObjectSchema,
  z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      try {
        return detailsObjectSchema.parse(JSON.parse(raw));
      } catch {
        ctx.issues.push({ code: 'custom', message: 'invalid_json', input: raw });
        return z.NEVER;
      }
    }),
  ),
]);
export type DetailsItem = z.infer<typeof detailsObjectSchema>['items'][number];

export const pricesResponseSchema = z.object({
  success: z.boolean(),
  data: z._default(z.array(z.object({ id, price: z.string() })), []),
});

/** Headlines group the results; they are shown but never selectable (CONTRACT.md accessibility contract). */
export function isHeadline(suggestion: Suggestion): boolean {
  return suggestion.type === 'headline' || suggestion.type === 'headline-v2';
}

/** Whether the keyboard can land on the suggestion: not headlines and not the no-results block. */
export function isSelectable(suggestion: Suggestion): boolean {
  return !isHeadline(suggestion) && suggestion.type !== 'no-results';
}

/**
 * A suggestion's object id (CONTRACT.md "Payloads"): the key of the details panel and its cache, built by the
 * one builder the server's index uses too. Suggestion types without an object of their own (headlines,
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
