import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { productUrl } from '../../shared/catalog/urls';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { productPageDocument } from '../catalog/productPageDocument';
import type { Repositories } from '../db/ports';
import { parseInput } from '../http/parseInput';
import { readReviewForm } from './reviewForm';
import { REVIEW_NONCE_ACTION, type ReviewsView } from './reviewsView';
import { submitReview } from './submitReview';

/*
 * The review form's POST (docs/reviews.md). Works without JavaScript: a review sent goes back to the product page
 * with a notice (303); a refused one renders the product page again with the messages beside the fields and
 * everything typed kept. The rules live in submitReview.
 */

interface ReviewsPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  reviewsView: ReviewsView;
}

const slugParam = z.object({ slug: z.string().min(1).max(200) });

export async function reviewsPlugin(
  app: FastifyInstance,
  { repositories, config, reviewsView }: ReviewsPluginOptions,
) {
  app.post('/product/:slug/review', async function postReview(request, reply) {
    const { slug } = parseInput(slugParam, request.params);
    const product = await repositories.catalog.getProductBySlug(slug);
    if (!product)
      throw new ShopError('product_not_found', 'That product does not exist or is no longer available.');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const query = request.query as Record<string, unknown>;

    const showAgain = async (status: number, state: Parameters<ReviewsView>[2]) =>
      reply.sendPage(
        await productPageDocument(
          { app, repositories, config },
          request,
          product,
          query,
          await reviewsView(request, product, state),
        ),
        { status },
      );

    if (!app.nonces.verify(body._wpnonce, REVIEW_NONCE_ACTION, request.visitor)) {
      return showAgain(403, {
        values: readReviewForm(body),
        message:
          'Your review was not sent yet: please press “Submit review” once more to send it. What you wrote is kept below.',
      });
    }

    const outcome = await submitReview(
      { reviews: repositories.reviews, rateLimiter: app.rateLimiter, settings: config.reviews },
      { productId: product.id, body, clientAddress: request.ip },
    );
    switch (outcome.kind) {
      case 'invalid':
        return showAgain(outcome.status, { values: outcome.values, errors: outcome.errors });
      case 'limited':
        reply.header('Retry-After', String(outcome.verdict.retryAfterSeconds));
        return showAgain(429, {
          values: outcome.values,
          message: `You have sent several reviews in a short time. Please try again in ${Math.ceil(outcome.verdict.retryAfterSeconds / 60)} minutes; what you wrote is kept below.`,
        });
      case 'no_product':
        throw new ShopError('product_not_found', 'That product does not exist or is no longer available.');
      case 'ignored':
        return reply.redirect(`${productUrl(product.slug)}?review=held#reviews`, 303);
      case 'stored':
        return reply.redirect(`${productUrl(product.slug)}?review=${outcome.status}#reviews`, 303);
    }
  });
}
