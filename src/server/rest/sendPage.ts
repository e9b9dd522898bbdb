import type { FastifyReply, FastifyRequest } from 'fastify';
import { ShopError } from '../../shared/errors/ShopError';

/**
 * A list response with WordPress's pagination headers: `X-WP-Total`, `X-WP-TotalPages` and `Link` with
 * `rel="prev"`/`rel="next"` URLs that repeat the request's own query with another `page`, which is what the
 * REST client follows for `per_page=-1`.
 */
export function sendPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  { items, total, page, perPage }: { items: T[]; total: number; page: number; perPage: number },
) {
  const totalPages = Math.ceil(total / perPage);
  if (page > Math.max(totalPages, 1)) {
    throw new ShopError(
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
    );
  }
  const [path = '', query = ''] = request.url.split('?', 2);
  const pageUrl = (target: number) => {
    const params = new URLSearchParams(query);
    params.set('page', String(target));
    return `${request.protocol}://${request.host}${path}?${params.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${pageUrl(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
  reply.header('X-WP-Total', String(total)).header('X-WP-TotalPages', String(totalPages));
  if (links.length > 0) reply.header('Link', links.join(', '));
  return reply.send(items);
}
