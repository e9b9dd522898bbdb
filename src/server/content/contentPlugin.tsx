import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ContentPage, PostListPage } from '../../client/pages/ContentPage';
import { postUrl } from '../../shared/catalog/urls';
import { ShopError } from '../../shared/errors/ShopError';
import type { Repositories } from '../db/ports';
import { parseInput } from '../http/parseInput';
import { pageTag } from '../render/pageCache/pageTags';
import { dependsOn, PAGE_CACHE_ROUTE, skipPageCache } from '../render/pagesPlugin';
import { refuseWhenLimited } from '../security/rateLimiter';
import { tryPostPassword } from './postPassword';

interface ContentPluginOptions {
  repositories: Repositories;
  secret: string;
}

const slugParam = z.object({ slug: z.string().regex(/^[\p{L}\p{N}_-]{1,200}$/u, 'Unknown page') });
const PASSWORD_NONCE_ACTION = 'post_password';

/** Posts and pages at /{slug}/, the journal listing, and WordPress-style password-protected pages. */
export async function contentPlugin(app: FastifyInstance, { repositories, secret }: ContentPluginOptions) {
  const { catalog } = repositories;
  // The cookie proves the visitor gave the password; it is bound to the stored hash, so changing the password locks it again.
  const unlockCookie = (postId: number) => `shop_postpass_${postId}`;
  const unlockToken = (passwordHash: string) =>
    createHmac('sha256', secret).update(passwordHash).digest('base64url');

  async function sendPost(request: FastifyRequest, reply: FastifyReply, slug: string, wrongPassword = false) {
    const post = await catalog.getPostBySlug(slug);
    if (!post) throw new ShopError('not_found', 'The page you are looking for does not exist.');
    // A protected page is the visitor's own (its password form, or its body once unlocked): never shared.
    if (post.passwordHash !== null) skipPageCache(request);
    // Posts and pages show posts only: no product change drops them.
    dependsOn(request, [pageTag.posts]);
    const token = request.cookies[unlockCookie(post.id)];
    const unlocked =
      post.passwordHash === null || (token !== undefined && safeEqual(token, unlockToken(post.passwordHash)));
    // The body of a protected page is handed over only here, after its password was given.
    const shown =
      unlocked && post.protectedContent !== null ? { ...post, content: post.protectedContent } : post;
    return reply.sendPage(
      {
        title: post.title,
        // Empty for a protected page (toPost withholds it), so the meta description tells nothing either.
        description: post.excerpt,
        noindex: post.passwordHash !== null,
        objectId: post.id,
        body: (
          <ContentPage
            post={shown}
            unlocked={unlocked}
            wrongPassword={wrongPassword}
            nonce={app.nonces.create(PASSWORD_NONCE_ACTION, request.visitor)}
          />
        ),
      },
      { status: wrongPassword ? 403 : 200 },
    );
  }

  app.get('/journal/', PAGE_CACHE_ROUTE, async (request, reply) => {
    dependsOn(request, [pageTag.posts]);
    return reply.sendPage({
      title: 'Journal',
      body: <PostListPage title="Journal" posts={await catalog.listPosts('post', 50)} />,
    });
  });

  // An address no post could have (`/wp-login.php`, `/old-page.html`) is simply not here: the 404 page, not a 400.
  app.get('/:slug/', PAGE_CACHE_ROUTE, async function postPage(request, reply) {
    const params = slugParam.safeParse(request.params);
    if (!params.success) throw new ShopError('not_found', 'The page you are looking for does not exist.');
    return sendPost(request, reply, params.data.slug);
  });

  app.post('/:slug/', async function unlockPost(request, reply) {
    const { slug } = parseInput(slugParam, request.params);
    const body = parseInput(
      z.object({ post_password: z.string().max(200), _wpnonce: z.string().optional() }),
      request.body ?? {},
    );
    if (!app.nonces.verify(body._wpnonce, PASSWORD_NONCE_ACTION, request.visitor)) {
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    }
    const post = await catalog.getPostBySlug(slug);
    if (!post?.passwordHash) throw new ShopError('not_found', 'The page you are looking for does not exist.');
    const attempt = await tryPostPassword(app.rateLimiter, {
      postId: post.id,
      passwordHash: post.passwordHash,
      password: body.post_password,
      address: request.ip,
    });
    if (attempt.result === 'throttled') {
      const minutes = Math.ceil(attempt.verdict.retryAfterSeconds / 60);
      refuseWhenLimited(
        reply,
        attempt.verdict,
        `Too many passwords have been tried for this page. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      );
    }
    if (attempt.result !== 'right') return sendPost(request, reply, slug, true);
    reply.setCookie(unlockCookie(post.id), unlockToken(post.passwordHash), {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      maxAge: 10 * 24 * 60 * 60,
    });
    return reply.redirect(postUrl(post.slug), 303);
  });
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
