import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminLayout } from '../../../client/admin/AdminLayout';
import { ReviewsPage, reviewsTabHref } from '../../../client/admin/ReviewsPage';
import { ShopError } from '../../../shared/errors/ShopError';
import { REVIEW_STATUSES, type ReviewStatus } from '../../../shared/reviews/reviewTypes';
import type { ReviewRepository } from '../../db/ports';
import { parseInput } from '../../http/parseInput';
import { ADMIN_NONCES, type AdminGuards } from '../adminGuards';

/*
 * `/admin/reviews/`: the owner's moderation. Approving, holding again, marking as spam and deleting each change the
 * product's stored rating in the same transaction (the review repository), so the product page, listings and
 * search suggestions show the new figures on their next request.
 */

const PER_PAGE = 20;

const listQuery = z.object({
  status: z.enum(REVIEW_STATUSES).catch('pending').default('pending'),
  paged: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  done: z.enum(['approved', 'pending', 'spam', 'deleted']).optional().catch(undefined),
});
const reviewParam = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const statusBody = z.object({
  status: z.enum(REVIEW_STATUSES),
  tab: z.enum(REVIEW_STATUSES).catch('pending').default('pending'),
  _wpnonce: z.string().max(100).optional(),
});
const deleteBody = z.object({
  tab: z.enum(REVIEW_STATUSES).catch('pending').default('pending'),
  _wpnonce: z.string().max(100).optional(),
});

const NOTICES: Record<ReviewStatus | 'deleted', string> = {
  approved: 'Review approved: it is published and counted in the product’s rating.',
  pending: 'Review held: it is no longer shown nor counted.',
  spam: 'Review marked as spam: it is not shown nor counted.',
  deleted: 'Review deleted.',
};

export async function reviewRoutes(
  app: FastifyInstance,
  { reviews, guards }: { reviews: ReviewRepository; guards: AdminGuards },
) {
  app.get('/admin/reviews/', async function reviewsList(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    const query = parseInput(listQuery, request.query);
    const [page, counts] = await Promise.all([
      reviews.listForModeration({ status: query.status, page: query.paged, perPage: PER_PAGE }),
      reviews.countByStatus(),
    ]);
    return reply.sendPage({
      title: 'Reviews',
      noindex: true,
      body: (
        <AdminLayout title="Reviews" current="reviews" csrf={guards.nonce(request, ADMIN_NONCES.logout)}>
          <ReviewsPage
            status={query.status}
            reviews={page.items}
            total={page.total}
            page={query.paged}
            perPage={PER_PAGE}
            counts={counts}
            nonce={guards.nonce(request, ADMIN_NONCES.reviewModerate)}
            notice={query.done ? NOTICES[query.done] : null}
          />
        </AdminLayout>
      ),
    });
  });

  app.post('/admin/reviews/:id/status', async function reviewStatus(request, reply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.reviewModerate);
    const { id } = parseInput(reviewParam, request.params);
    const { status, tab } = parseInput(statusBody, body);
    const change = await reviews.setStatus(id, status);
    if (!change) throw new ShopError('not_found', 'That review does not exist (it may have been deleted).');
    return reply.redirect(`${reviewsTabHref(tab)}&done=${status}`, 303);
  });

  app.post('/admin/reviews/:id/delete', async function reviewDelete(request, reply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.reviewModerate);
    const { id } = parseInput(reviewParam, request.params);
    const { tab } = parseInput(deleteBody, body);
    if (!(await reviews.deleteReview(id)))
      throw new ShopError('not_found', 'That review does not exist (it may have been deleted already).');
    return reply.redirect(`${reviewsTabHref(tab)}&done=deleted`, 303);
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
