import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Post } from '../../shared/catalog/types';
import { postUrl } from '../../shared/catalog/urls';
import { ShopError } from '../../shared/errors/ShopError';
import type { Repositories } from '../db/ports';
import { filterFields, parseFieldsParam } from './filterFields';
import { parseRestInput } from './parseRestInput';
import { restRoute } from './restRoute';
import { sendPage } from './sendPage';

const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  search: z.string().max(200).optional(),
});
const idParams = z.object({ id: z.coerce.number().int().positive() });

/** A post or page in WordPress's REST shape; a password-protected one keeps its content back, as WordPress does. */
function toRestPost(post: Post, origin: string) {
  const date = post.publishedAt.replace(/\.\d+Z$|Z$/, '');
  return {
    id: post.id,
    date,
    date_gmt: date,
    slug: post.slug,
    status: 'publish',
    type: post.type,
    link: `${origin}${postUrl(post.slug)}`,
    title: { rendered: post.title },
    content: { rendered: post.protected ? '' : post.content, protected: post.protected },
    excerpt: { rendered: post.protected ? '' : post.excerpt, protected: post.protected },
  };
}

/** wp/v2/posts and wp/v2/pages: lists with page, per_page (≤ 100), search and _fields; single items by id. */
export function registerPostRoutes(app: FastifyInstance, repositories: Repositories) {
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;
  for (const [base, type] of [
    ['posts', 'post'],
    ['pages', 'page'],
  ] as const) {
    restRoute(app, `/wp-json/wp/v2/${base}`, {
      async GET(request, reply) {
        const query = request.query as Record<string, unknown>;
        const { page, per_page, search } = parseRestInput(listQuery, query);
        const fields = parseFieldsParam(query._fields);
        const { items, total } = await repositories.posts.listPage({
          type,
          page,
          perPage: per_page,
          search: search?.trim() || undefined,
        });
        const body = items.map((post) => filterFields(toRestPost(post, origin(request)), fields));
        return sendPage(request, reply, { items: body, total, page, perPage: per_page });
      },
    });
    restRoute(app, `/wp-json/wp/v2/${base}/:id`, {
      async GET(request) {
        const { id } = parseRestInput(idParams, request.params);
        const post = await repositories.posts.getById(type, id);
        if (!post) throw new ShopError('rest_post_invalid_id', 'Invalid post ID.');
        const fields = parseFieldsParam((request.query as Record<string, unknown>)._fields);
        return filterFields(toRestPost(post, origin(request)), fields);
      },
    });
  }
}
