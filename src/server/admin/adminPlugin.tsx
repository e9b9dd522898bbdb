import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AdminLoginPage } from '../../client/admin/AdminLoginPage';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { ReviewRepository } from '../db/ports';
import { parseInput } from '../http/parseInput';
import type { OrderDesk } from '../orders/orderDesk';
import type { ApiKeyService } from '../wcRest/apiKeys/apiKeyService';
import type { WebhookDesk } from '../webhooks/webhookDesk';
import { ADMIN_NONCES, type AdminGuards } from './adminGuards';
import { orderRoutes } from './orders/orderRoutes';
import { reviewRoutes } from './reviews/reviewRoutes';
import { DEFAULT_ADMIN_PATH, safeNextPath } from './safeNextPath';
import { apiKeyRoutes } from './settings/apiKeyRoutes';
import { webhookRoutes } from './webhooks/webhookRoutes';

/*
 * The owner's back office over HTTP: the one owner login (/admin/login, for /admin/ and /insights/ alike), logging
 * out here or everywhere, and the sections' routes. Every page asks for the owner session (a stranger is sent to the
 * login with `next`), every form carries a nonce. Nothing here may be cached by a shared cache or indexed.
 */

interface AdminPluginOptions {
  config: ShopConfig;
  /** The orders' rules (built by the app, which hands the same desk to whoever else adds order notes). */
  orderDesk: OrderDesk;
  /** Moderation at /admin/reviews/. */
  reviews: ReviewRepository;
  /** The webhooks' rules (app.webhooks.desk). */
  webhookDesk: WebhookDesk;
  /** The REST API's keys (the same service checks them on every API call). */
  apiKeys: ApiKeyService;
}

const loginQuery = z.object({ next: z.string().max(2000).optional() });
const loginBody = z.object({
  password: z.string().max(500),
  next: z.string().max(2000).optional(),
  _wpnonce: z.string().max(100).optional(),
});
const logoutBody = z.object({
  _wpnonce: z.string().max(100).optional(),
  everywhere: z.enum(['1']).optional(),
});

export async function adminPlugin(app: FastifyInstance, options: AdminPluginOptions) {
  const owner = app.owner;

  app.addHook('onSend', async function privateBackOffice(_request, reply) {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex, nofollow');
  });

  const guards: AdminGuards = {
    async ownerPage(request, reply) {
      if (await owner.authenticate(request, reply)) return true;
      await reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 303);
      return false;
    },
    async ownerAction(request, reply, nonce, action) {
      await owner.requireOwner(request, reply);
      if (!app.nonces.verify(nonce, action, request.visitor))
        throw new ShopError(
          'invalid_nonce',
          'Your session has expired. Please reload the page and try again.',
        );
    },
    nonce: (request, action) => app.nonces.create(action, request.visitor),
  };

  async function sendLogin(
    request: FastifyRequest,
    reply: FastifyReply,
    next: string,
    error: string | null,
    status: number,
  ) {
    return reply.sendPage(
      {
        title: 'Owner login',
        noindex: true,
        body: (
          <AdminLoginPage
            nonce={guards.nonce(request, ADMIN_NONCES.login)}
            next={next}
            error={error}
            configured={await owner.isConfigured()}
          />
        ),
      },
      { status },
    );
  }

  app.get('/admin/', async function adminHome(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    return reply.redirect(DEFAULT_ADMIN_PATH, 303);
  });

  app.get('/admin/login', async function adminLoginForm(request, reply) {
    const next = safeNextPath(parseInput(loginQuery, request.query).next);
    if (await owner.authenticate(request, reply)) return reply.redirect(next, 303);
    return sendLogin(request, reply, next, null, 200);
  });

  app.post('/admin/login', async function adminLogin(request, reply) {
    const body = parseInput(loginBody, request.body ?? {});
    const next = safeNextPath(body.next);
    if (!app.nonces.verify(body._wpnonce, ADMIN_NONCES.login, request.visitor))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    const check = await owner.logIn(request, reply, body.password);
    if (!check.ok && check.retryAfterSeconds !== null) {
      reply.header('Retry-After', String(check.retryAfterSeconds));
      return sendLogin(
        request,
        reply,
        next,
        `Too many wrong attempts. Try again in ${waitText(check.retryAfterSeconds)}.`,
        429,
      );
    }
    if (!check.ok) return sendLogin(request, reply, next, 'That password or token is not right.', 401);
    return reply.redirect(next, 303);
  });

  app.post('/admin/logout', async function adminLogout(request, reply) {
    const body = parseInput(logoutBody, request.body ?? {});
    if (!app.nonces.verify(body._wpnonce, ADMIN_NONCES.logout, request.visitor))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    await owner.logOut(request, reply, { everywhere: body.everywhere === '1' });
    return reply.redirect('/admin/login', 303);
  });

  await orderRoutes(app, { desk: options.orderDesk, guards, currency: options.config.shop.currency });
  await reviewRoutes(app, { reviews: options.reviews, guards });
  await webhookRoutes(app, {
    desk: options.webhookDesk,
    guards,
    shopUrl: options.config.server.mail.shopUrl,
  });
  await apiKeyRoutes(app, { keys: options.apiKeys, guards });
}

/** How long a refused login must wait, in the unit a person would say. */
function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
