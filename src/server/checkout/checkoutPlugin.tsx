import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CheckoutPage } from '../../client/pages/CheckoutPage';
import { OrderReceivedPage } from '../../client/pages/OrderReceivedPage';
import { orderReceivedUrl } from '../../shared/catalog/urls';
import { checkBilling } from '../../shared/checkout/billingSchema';
import { isShopError, ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { parseAttributionFields } from '../attribution/parseAttributionFields';
import { setCartCookies } from '../cart/cartCookies';
import type { Repositories } from '../db/ports';
import { ERROR_STATUS } from '../http/errorStatus';
import { parseInput } from '../http/parseInput';
import { requestFields } from '../http/requestFields';
import type { PurchaseFacts } from '../insights/purchaseFacts';

interface CheckoutPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  /** Records the order's visit and searches for the owner's figures. */
  purchaseFacts?: PurchaseFacts;
}

const CHECKOUT_NONCE_ACTION = 'checkout';

/** The checkout form's idempotency key: minted with each form, 22 base64url characters (128 bits). */
const CHECKOUT_KEY_FIELD = 'checkout_key';
const CHECKOUT_KEY_PATTERN = /^[A-Za-z0-9_-]{22}$/;

function submittedCheckoutKey(body: Record<string, string>): string | null {
  const key = body[CHECKOUT_KEY_FIELD];
  return key !== undefined && CHECKOUT_KEY_PATTERN.test(key) ? key : null;
}

/** Checkout: the billing form, placing the order in one transaction, and the order-received page. */
export async function checkoutPlugin(
  app: FastifyInstance,
  { repositories, config, purchaseFacts }: CheckoutPluginOptions,
) {
  async function sendCheckout(
    request: FastifyRequest,
    reply: FastifyReply,
    form: { values: Record<string, string>; errors: Record<string, string> },
    status = 200,
    notice?: string,
  ) {
    const cart = await request.cartView();
    return reply.sendPage(
      {
        title: 'Checkout',
        noindex: true,
        body: (
          <CheckoutPage
            cart={cart}
            form={{
              nonce: app.nonces.create(CHECKOUT_NONCE_ACTION, request.visitor),
              cartHash: cart.hash,
              checkoutKey: randomBytes(16).toString('base64url'),
              ...form,
            }}
          />
        ),
      },
      { status, notices: notice ? [{ type: 'error', message: notice }] : [] },
    );
  }

  /** A submit with nothing to order: the cart was emptied, or another submit of the same cart made its order. */
  function sendEmptyCart(reply: FastifyReply) {
    return reply.sendPage(
      { title: 'Checkout', noindex: true, body: null },
      {
        status: ERROR_STATUS.empty_cart,
        notices: [{ type: 'error', message: 'Your cart is empty, so there is nothing to order.' }],
      },
    );
  }

  app.get('/checkout/', async function checkoutPage(request, reply) {
    if ((await request.cartView()).lines.length === 0) return reply.redirect('/cart/', 303);
    return sendCheckout(request, reply, { values: {}, errors: {} });
  });

  app.post('/checkout/', async function placeOrder(request, reply) {
    const body = Object.fromEntries(
      Object.entries(parseInput(requestFields, request.body)).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
    // A replay of a submit that made its order (double click, refresh, retry after a dropped answer) is sent to
    // that order again, whatever the cart holds now.
    const checkoutKey = submittedCheckoutKey(body);
    const sessionId = request.visitor.id;
    if (checkoutKey && sessionId) {
      const made = await repositories.orders.findByIdempotencyKey(sessionId, checkoutKey);
      if (made) return reply.redirect(orderReceivedUrl(made.id, made.orderKey), 303);
    }
    const cart = await request.cartView();
    if (cart.lines.length === 0) return sendEmptyCart(reply);
    if (!app.nonces.verify(body._wpnonce, CHECKOUT_NONCE_ACTION, request.visitor)) {
      return sendCheckout(
        request,
        reply,
        { values: body, errors: {} },
        403,
        'Your session has expired. Please check your order and try again.',
      );
    }
    if (body.cart_hash !== undefined && body.cart_hash !== cart.hash) {
      return sendCheckout(
        request,
        reply,
        { values: body, errors: {} },
        409,
        'Your cart changed while you were checking out. Please review your order.',
      );
    }
    const checked = checkBilling(body);
    if ('errors' in checked) {
      return sendCheckout(request, reply, { values: body, errors: checked.errors }, 400);
    }
    const billing = checked.values;
    if (!sessionId) throw new ShopError('empty_cart', 'Your cart is empty.');
    try {
      const { order, replayed } = await repositories.orders.placeOrder({
        orderKey: `wc_order_${randomBytes(12).toString('base64url')}`,
        currency: config.shop.currency.code,
        paymentMethod: 'cod',
        customerNote: billing.order_comments,
        sessionId,
        idempotencyKey: checkoutKey,
        pricedCart: await request.visitor.cart(),
        attribution: parseAttributionFields(
          body,
          config.attribution.fieldPrefix,
          request.headers['user-agent'],
        ),
        billing: {
          firstName: billing.billing_first_name,
          lastName: billing.billing_last_name,
          company: billing.billing_company,
          address1: billing.billing_address_1,
          address2: billing.billing_address_2,
          city: billing.billing_city,
          postcode: billing.billing_postcode,
          country: billing.billing_country,
          email: billing.billing_email,
          phone: billing.billing_phone,
        },
        lines: cart.lines.map((line) => ({
          productId: line.productId,
          variationId: line.variationId,
          name: line.name,
          sku: line.sku,
          attributes: Object.fromEntries(line.attributes.map((each) => [each.label, each.value])),
          quantity: line.quantity,
          unitPrice: line.unitPrice,
        })),
      });
      // Queued (written) before the answer, sent after it: a mail server never holds up or fails the order.
      if (!replayed) {
        await app.mail.queueOrderMail('order_received', order.id);
        await app.mail.queueOrderMail('new_order', order.id);
      }
      if (!replayed && purchaseFacts)
        await purchaseFacts
          .orderPlaced(request, { id: order.id, createdAt: order.createdAt, sessionId })
          .catch((error: unknown) =>
            request.log.error({ err: error }, 'recording the order for insights failed'),
          );
      setCartCookies(
        reply,
        { lines: [], itemCount: 0, subtotal: 0, total: 0, hash: '' },
        request.protocol === 'https',
      );
      return reply.redirect(orderReceivedUrl(order.id, order.orderKey), 303);
    } catch (error) {
      if (!isShopError(error)) throw error;
      if (error.code === 'empty_cart') return sendEmptyCart(reply);
      return sendCheckout(
        request,
        reply,
        { values: body, errors: {} },
        ERROR_STATUS[error.code],
        error.message,
      );
    }
  });

  const orderParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
  const orderQuery = z.object({ key: z.string().max(100).optional() });
  app.get('/checkout/order-received/:id/', async function orderReceived(request, reply) {
    const { id } = parseInput(orderParams, request.params);
    const { key } = parseInput(orderQuery, request.query);
    const order = await repositories.orders.getOrder(id);
    // Without its key an order is not shown, nor is its existence confirmed.
    if (!order || !key || order.orderKey !== key) throw new ShopError('not_found', 'There is no such order.');
    return reply.sendPage({
      title: 'Order received',
      noindex: true,
      body: <OrderReceivedPage order={order} />,
    });
  });
}
