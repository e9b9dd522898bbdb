import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ProductDetail } from '../../shared/catalog/types';
import { productUrl } from '../../shared/catalog/urls';
import type { PublicReview } from '../../shared/reviews/reviewTypes';
import type { Repositories } from '../db/ports';
import { escapeHtml } from '../search/priceHtml';
import { parseRestInput } from './parseRestInput';
import { restRoute } from './restRoute';
import { sendPage } from './sendPage';

/*
 * GET /wp-json/wc/store/v1/products/reviews: approved reviews in the shape of WooCommerce's Store API
 * (ProductReviewSchema), with WordPress's pagination headers. Never an email, nor anything derived from one: the
 * avatars are one generic picture (WooCommerce's Gravatar URLs carry a hash of the address).
 */

const ORDER_BY = { date: 'date', date_gmt: 'date', id: 'id', rating: 'rating', product: 'product' } as const;

const listQuery = z.object({
  product_id: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  order: z.enum(['asc', 'desc']).default('desc'),
  orderby: z.enum(['date', 'date_gmt', 'id', 'rating', 'product']).default('date'),
});

const AVATAR_SIZES = [24, 48, 96] as const;

/** A neutral silhouette, inline so no request (and no email hash) leaves the page. */
function avatarUrl(size: number): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24"><rect width="24" height="24" fill="#d8dee4"/><circle cx="12" cy="9" r="4" fill="#8c959f"/><path d="M4 22c0-4.4 3.6-7 8-7s8 2.6 8 7z" fill="#8c959f"/></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** Plain review text as the HTML WooCommerce sends: escaped, in paragraphs, single line breaks as <br />. */
export function reviewHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br />\n')}</p>`)
    .join('\n');
}

function productImage(product: ProductDetail | undefined, origin: string) {
  const image = product?.images[0];
  if (!image) return null;
  const absolute = (src: string) => (src.startsWith('/') ? `${origin}${src}` : src);
  return {
    id: image.id,
    src: absolute(image.src),
    thumbnail: absolute(image.src),
    srcset: image.srcSet ?? '',
    sizes: image.srcSet ? '(max-width: 600px) 100vw, 600px' : '',
    name: product?.name ?? '',
    alt: image.alt,
  };
}

function toStoreReview(review: PublicReview, product: ProductDetail | undefined, origin: string) {
  const gmt = review.createdAt.replace(/\.\d+Z$|Z$/, '');
  return {
    id: review.id,
    // The shop keeps UTC: its local time is GMT.
    date_created: gmt,
    formatted_date_created: new Intl.DateTimeFormat('en-US', {
      dateStyle: 'long',
      timeZone: 'UTC',
    }).format(new Date(review.createdAt)),
    date_created_gmt: gmt,
    product_id: review.productId,
    product_name: product?.name ?? '',
    product_permalink: product ? `${origin}${productUrl(product.slug)}` : '',
    product_image: productImage(product, origin),
    reviewer: review.reviewer,
    review: reviewHtml(review.content),
    rating: review.rating,
    verified: review.verified,
    reviewer_avatar_urls: Object.fromEntries(AVATAR_SIZES.map((size) => [String(size), avatarUrl(size)])),
  };
}

export function registerReviewRoutes(app: FastifyInstance, repositories: Repositories) {
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  restRoute(app, '/wp-json/wc/store/v1/products/reviews', {
    async GET(request, reply) {
      const query = parseRestInput(listQuery, request.query);
      const { items, total } = await repositories.reviews.listApproved({
        productId: query.product_id ?? null,
        page: query.page,
        perPage: query.per_page,
        order: query.order,
        orderBy: ORDER_BY[query.orderby],
      });
      const products = new Map<number, ProductDetail | undefined>();
      for (const id of new Set(items.map((review) => review.productId))) {
        products.set(id, (await repositories.catalog.getProductById(id)) ?? undefined);
      }
      const body = items.map((review) =>
        toStoreReview(review, products.get(review.productId), origin(request)),
      );
      return sendPage(request, reply, { items: body, total, page: query.page, perPage: query.per_page });
    },
  });
}
