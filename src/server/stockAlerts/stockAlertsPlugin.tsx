import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { StockAlertUnsubscribePage } from '../../client/pages/StockAlertUnsubscribePage';
import { productUrl } from '../../shared/catalog/urls';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { isEmail } from '../../shared/validation/isEmail';
import { productPageDocument } from '../catalog/productPageDocument';
import type { Repositories } from '../db/ports';
import { parseInput } from '../http/parseInput';
import type { ReviewsView } from '../reviews/reviewsView';
import { type RateLimit, refuseWhenLimited } from '../security/rateLimiter';
import { StockAlertSender, type StockAlertSenderSettings } from './StockAlertSender';
import { normalizeEmail, stockAlertEmailKey, verifyUnsubscribeToken } from './stockAlertTokens';

export const STOCK_ALERT_NONCE_ACTION = 'stock_alert';
const UNSUBSCRIBE_NONCE_ACTION = 'stock_alert_unsubscribe';

/**
 * Alerts asked per client (its address) across every process: enough for a shopper waiting for a few products,
 * too few to mail-bomb someone else's address through the shop.
 */
export const STOCK_ALERT_LIMIT: RateLimit = { name: 'stock-alert', limit: 10, windowMs: 60 * 60 * 1000 };

const subscribeBody = z.object({
  product_id: z.coerce.number().int().positive('Choose the product to be told about.'),
  email: z
    .string()
    .trim()
    .max(254, 'That email address is too long.')
    .refine((value) => isEmail(value), 'Please enter a valid email address.'),
  _wpnonce: z.string().optional(),
  /** The product whose page the form is on (a variation's parent), to show that page again if the form is refused. */
  page_id: z.coerce.number().int().positive().optional().catch(undefined),
});
const unsubscribeQuery = z.object({ token: z.string().max(200) });
const unsubscribeBody = z.object({ token: z.string().max(200), _wpnonce: z.string().optional() });

interface StockAlertsPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  /** The product page's reviews, for showing the page again with a refused form. */
  reviewsView?: ReviewsView;
  secret: string;
  sender?: StockAlertSenderSettings;
}

/** `app.stockAlerts`: the back-in-stock sender of this process. */
export interface ShopStockAlerts {
  /** Queues the mail of every due alert and sends it; answers how many alerts were queued. */
  process(): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    stockAlerts: ShopStockAlerts;
  }
}

const INVALID_LINK = 'This unsubscribe link is not valid. Please open the link exactly as the email gave it.';

/** "Notify me when available": the form's POST, the unsubscribe page, and the sender of the alerts' mail. */
export const stockAlertsPlugin = fp(
  async function stockAlertsPlugin(
    app: FastifyInstance,
    { repositories, config, secret, reviewsView, sender: senderOptions = {} }: StockAlertsPluginOptions,
  ) {
    const sender = new StockAlertSender({
      repositories,
      config,
      secret,
      flushMail: () => app.mail.flush(),
      log: app.log,
      ...senderOptions,
    });
    app.decorate('stockAlerts', { process: () => sender.process() } satisfies ShopStockAlerts);
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', async () => sender.stop());
    // The owner's writes are what bring stock back here (a product saved, an order cancelled or refunded, an
    // upload that starts an import): look at once rather than at the next tick of the timer. Shoppers' requests
    // never give stock back, so they cost nothing; the timer covers other processes and the import command.
    app.addHook('onResponse', async (request) => {
      if (request.method === 'POST' && request.url.startsWith('/admin/')) sender.kick();
    });

    app.post('/back-in-stock/', async function subscribe(request, reply) {
      const body = parseInput(subscribeBody, request.body ?? {});
      if (!app.nonces.verify(body._wpnonce, STOCK_ALERT_NONCE_ACTION, request.visitor)) {
        // A page answered from the render cache carries no nonce; the browser fetches the visitor's own before
        // sending, but without JavaScript the form arrives without one. Show the product page again, with this
        // visitor's nonce (a session is started now) and what was typed, and ask to send once more.
        const product = await repositories.catalog.getProductById(body.page_id ?? body.product_id);
        if (!product)
          throw new ShopError(
            'invalid_nonce',
            'Your session has expired. Please reload the page and try again.',
          );
        const query = request.query as Record<string, unknown>;
        return reply.sendPage(
          await productPageDocument(
            { app, repositories, config },
            request,
            product,
            query,
            await reviewsView?.(request, product),
            {
              message: 'Your request was not sent yet: please press “Notify me” once more to confirm it.',
              email: body.email,
              productId: body.product_id,
            },
          ),
          { status: 403 },
        );
      }
      refuseWhenLimited(
        reply,
        await app.rateLimiter.take(STOCK_ALERT_LIMIT, request.ip),
        'Too many back-in-stock requests have come from your connection. Please try again later.',
      );
      const { result, slug } = await repositories.stockAlerts.subscribe({
        productId: body.product_id,
        email: body.email,
        emailKey: stockAlertEmailKey(secret, normalizeEmail(body.email)),
        now: Date.now(),
      });
      if (result === 'not_found' || !slug) {
        throw new ShopError('product_not_found', 'That product does not exist or is no longer available.');
      }
      // The same answer whether or not the address already waited: the page never tells who asked before.
      const notice = result === 'available' ? 'available' : 'subscribed';
      return reply.redirect(`${productUrl(slug)}?stock-alert=${notice}#back-in-stock`, 303);
    });

    app.get('/back-in-stock/unsubscribe/', async function unsubscribePage(request, reply) {
      const { token } = parseInput(unsubscribeQuery, request.query);
      if (!verifyUnsubscribeToken(secret, token)) throw new ShopError('invalid_request', INVALID_LINK);
      return reply.sendPage({
        title: config.i18n.unsubscribeTitle,
        noindex: true,
        body: (
          <StockAlertUnsubscribePage
            token={token}
            nonce={app.nonces.create(UNSUBSCRIBE_NONCE_ACTION, request.visitor)}
            done={false}
          />
        ),
      });
    });

    app.post('/back-in-stock/unsubscribe/', async function unsubscribe(request, reply) {
      const body = parseInput(unsubscribeBody, request.body ?? {});
      if (!app.nonces.verify(body._wpnonce, UNSUBSCRIBE_NONCE_ACTION, request.visitor)) {
        throw new ShopError(
          'invalid_nonce',
          'Your session has expired. Please reload the page and try again.',
        );
      }
      const emailKey = verifyUnsubscribeToken(secret, body.token);
      if (!emailKey) throw new ShopError('invalid_request', INVALID_LINK);
      await repositories.stockAlerts.unsubscribe(emailKey);
      return reply.sendPage({
        title: config.i18n.unsubscribeTitle,
        noindex: true,
        body: <StockAlertUnsubscribePage token="" nonce="" done />,
      });
    });
  },
  { name: 'shop-stock-alerts', fastify: '5.x', dependencies: ['shop-mail'] },
);
