import { z } from 'zod';

/*
 * The suggestion and response formats of SPEC.md §3 ("Suggestion", "Details response", "Prices response") and
 * CONTRACT.md "Payloads". Responses are parsed with zod at the boundary; unknown fields pass through so the
 * engine can add to them.
 */

const id = z.union([z.number(), z.string()]).transform((value) => Number(value));
const text = z.union([z.string(), z.number()]).transform((value) => String(value));

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
  value: text.default(''),
  url: z.string().optional(),
  post_id: id.optional(),
  variation_id: id.optional(),
  vendor_id: id.optional(),
  post_type: z.string().optional(),
  term_id: id.optional(),
  taxonomy: z.string().optional(),
  breadcrumbs: z.string().optional(),
  image: z.string().optional(),
  image_src: z.string().optional(),
  thumb_html: z.string().optional(),
  sku: text.optional(),
  desc: z.string().optional(),
  price: z.string().optional(),
  on_sale: z.boolean().optional(),
  featured: z.boolean().optional(),
  vendor: z.string().optional(),
  vendor_url: z.string().optional(),
  shop_city: z.string().optional(),
  total: id.optional(),
  meta_before: z.string().optional(),
  meta_after: z.string().optional(),
  title_before: z.string().optional(),
  title_after: z.string().optional(),
  content_after: z.string().optional(),
});

export type Suggestion = z.infer<typeof suggestionSchema>;
export type SuggestionType = Suggestion['type'];

export const suggestionsResponseSchema = z.looseObject({
  suggestions: z.array(suggestionSchema),
  time: z.unknown().optional(),
});

const detailsObjectSchema = z.object({
  items: z.array(z.object({ objectID: z.string(), html: z.string(), price: z.string().optional() })),
});

/** The details endpoint may answer the object itself or the object serialized as a string (CONTRACT.md). */
export const detailsResponseSchema = z.union([
  detailsObjectSchema,
  z.string().transform((raw, ctx) => {
    try {
      return detailsObjectSchema.parse(JSON.parse(raw));
    } catch {
      ctx.addIssue({ code: 'custom', message: 'invalid_json' });
      return z.NEVER;
    }
  }),
]);
export type DetailsItem = z.infer<typeof detailsObjectSchema>['items'][number];

export const pricesResponseSchema = z.object({
  success: z.boolean(),
  data: z.array(z.object({ id, price: z.string() })).default([]),
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
 * A suggestion's object id (CONTRACT.md "Payloads"): the key of the details panel and its cache.
 * TODO(integrator): the engine helper's `src/shared/` builder is the one home; switch to it after the merge.
 */
export function suggestionObjectId(suggestion: Suggestion): string {
  switch (suggestion.type) {
    case 'product_variation':
      return `product_variation__${suggestion.post_id}__${suggestion.variation_id}`;
    case 'post':
      return `post__${suggestion.post_id}__${suggestion.post_type}`;
    case 'taxonomy':
      return `taxonomy__${suggestion.term_id}__${suggestion.taxonomy}`;
    case 'vendor':
      return `vendor__${suggestion.vendor_id ?? suggestion.post_id}`;
    default:
      return `${suggestion.type}__${suggestion.post_id ?? ''}`;
  }
}
