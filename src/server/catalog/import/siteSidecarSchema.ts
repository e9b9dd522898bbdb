import { z } from 'zod';

/**
 * The sidecar JSON beside a products CSV: what WooCommerce's CSV format cannot hold.
 * Every section is optional so a shop can bring only what it has.
 */
export const siteSidecarSchema = z.strictObject({
  categories: z
    .array(z.strictObject({ path: z.string().min(1), description: z.string().default('') }))
    .default([]),
  brands: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        slug: z.string().min(1),
        description: z.string().default(''),
      }),
    )
    .default([]),
  vendors: z
    .array(
      z.strictObject({
        slug: z.string().min(1),
        name: z.string().min(1),
        storeUrl: z.url().nullable().default(null),
        city: z.string().nullable().default(null),
      }),
    )
    .default([]),
  attributes: z
    .record(
      z.string(),
      z.strictObject({
        swatchType: z.enum(['color', 'image', 'label', 'radio', 'select']).default('label'),
        terms: z
          .record(
            z.string(),
            z.strictObject({
              color: z
                .string()
                .regex(/^#[0-9a-fA-F]{3,8}$/)
                .optional(),
              image: z.string().optional(),
              swatchType: z.enum(['color', 'image', 'label', 'radio', 'select']).optional(),
            }),
          )
          .default({}),
      }),
    )
    .default({}),
  products: z
    .record(
      z.string(),
      z.strictObject({
        vendor: z.string().optional(),
        rating: z
          .strictObject({ average: z.number().min(0).max(5), count: z.number().int().min(0) })
          .optional(),
        totalSales: z.number().int().min(0).optional(),
      }),
    )
    .default({}),
  posts: z
    .array(
      z.strictObject({
        type: z.enum(['post', 'page']),
        slug: z.string().min(1),
        title: z.string().min(1),
        excerpt: z.string().default(''),
        content: z.string().default(''),
        publishedAt: z.iso.datetime(),
        password: z.string().optional(),
      }),
    )
    .default([]),
});

export type SiteSidecar = z.output<typeof siteSidecarSchema>;

export const EMPTY_SIDECAR: SiteSidecar = siteSidecarSchema.parse({});
