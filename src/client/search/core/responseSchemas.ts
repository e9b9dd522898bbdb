// zod's tree-shakable build, and only once the shopper turns to the search box (loadResponseSchemas): the box is on
// every page, and zod's core would be an eighth of the page's first JavaScript.
import * as z from 'zod/mini';
import { SUGGESTION_TYPES } from '../../../shared/search/suggestionTypes';

/*
 * The runtime form of the payload types in shared/search/suggestionTypes.ts, which
 * shared/search/suggestionPayload.test.ts ties them to (a field added on one side only fails it). Responses are
 * parsed with zod at the boundary: numbers and strings may arrive as each other from other engines, and unknown
 * fields pass through so an engine can add to them.
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
  type: z.enum(SUGGESTION_TYPES),
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
  rating: z.optional(z.number()),
  rating_count: z.optional(z.number()),
  vendor: z.optional(z.string()),
  vendor_url: z.optional(z.string()),
  shop_city: z.optional(z.string()),
  total: z.optional(id),
  total_is_lower_bound: z.optional(z.boolean()),
  group: z.optional(z.string()),
  original: z.optional(z.string()),
  meta_before: z.optional(z.string()),
  meta_after: z.optional(z.string()),
  title_before: z.optional(z.string()),
  title_after: z.optional(z.string()),
  content_after: z.optional(z.string()),
});

export const suggestionsResponseSchema = z.looseObject({
  suggestions: z.array(suggestionSchema),
  time: z.optional(z.unknown()),
});

const detailsObjectSchema = z.object({
  items: z.array(z.object({ objectID: z.string(), html: z.string(), price: z.optional(z.string()) })),
});

/** The details endpoint may answer the object itself or the object serialized as a string, as some engines do. */
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

export const pricesResponseSchema = z.object({
  success: z.boolean(),
  data: z._default(z.array(z.object({ id, price: z.string() })), []),
});
