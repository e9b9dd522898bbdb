import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderToString } from 'react-dom/server';
import { z } from 'zod';
import { OrderReview } from '../../client/checkout/OrderReview';
import { CheckoutPage } from '../../client/pages/CheckoutPage';
import { OrderReceivedPage } from '../../client/pages/OrderReceivedPage';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import { orderReceivedUrl } from '../../shared/catalog/urls';
import { checkBilling } from '../../shared/checkout/billingSchema';
import type { CheckoutQuote } from '../../shared/checkout/checkoutQuote';
import { isShopError, ShopError } from '../../shared/errors/ShopError';
import { toPageSettings } from '../../shared/settings/parseSettings';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { parseAttributionFields } from '../attribution/parseAttributionFields';
import { setCartCookies } from '../cart/cartCookies';
import type { Repositories } from '../db/ports';
import { ERROR_STATUS } from '../http/errorStatus';
import { parseInput } from '../http/parseInput';
import { requestFields } from '../http/requestFields';
import type { PurchaseFacts } from '../insights/purchaseFacts';
import { paymentMethodsOf, priceCheckout, statusForPayment, submittedQuoteProblem } from './checkoutPricing';

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
    const quote = priceCheckout(config.checkout, cart, form.values);
    return reply.sendPage(
      {
        title: 'Checkout',
        noindex: true,
        body: (
          <CheckoutPage
            cart={cart}
            quote={quote}
            pricesIncludeTax={config.checkout.pricesIncludeTax}
            form={{
              nonce: app.nonces.create(CHECKOUT_NONCE_ACTION, request.visitor),
              cartHash: cart.hash,
              checkoutKey: randomBytes(16).toString('base64url'),
              allowedCountries: config.checkout.allowedCountries,
              defaultCountry: config.checkout.defaultCountry,
              paymentMethods: paymentMethodsOf(config.checkout),
              shipping: { rates: quote.rates, chosen: quote.chosen?.id ?? null },
              shownTotal: quote.totals.total,
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

  const pageSettings = toPageSettings(config);
  /** The order review as the checkout page renders it, for the checkout to swap in after a change. */
  function renderReview(cart: Awaited<ReturnType<FastifyRequest['cartView']>>, quote: CheckoutQuote) {
    return renderToString(
      <ShopSettingsContext value={pageSettings}>
        <OrderReview cart={cart} quote={quote} pricesIncludeTax={config.checkout.pricesIncludeTax} />
      </ShopSettingsContext>,
    );
  }

  // WooCommerce's endpoint for the checkout's totals: the form as it stands (address, shipping method) in, the
  // shipping choices, the total and the order review's markup out. Nothing is stored.
  app.ajax.wcAjax('update_order_review', {
    // The whole form is posted (attribution fields too, whatever their size): only its strings are read.
    schema: z
      .record(z.string(), z.unknown())
      .transform((fields) =>
        Object.fromEntries(
          Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
        ),
      ),
    methods: ['POST'],
    handle: async (input, request) => {
      const cart = await request.cartView();
      if (cart.lines.length === 0) throw new ShopError('empty_cart', 'Your cart is empty.');
      const quote = priceCheckout(config.checkout, cart, input);
      return {
        cart_hash: cart.hash,
        review: renderReview(cart, quote),
        shipping: { rates: quote.rates, chosen: quote.chosen?.id ?? null },
        total: quote.totals.total,
      };
    },
  });

  app.get('/checkout/', async function checkoutPage(request, reply) {
    // The redirect depends on this visitor's cart: no shared cache may keep it.
    if ((await request.cartView()).lines.length === 0)
      return reply.header('cache-control', 'private, no-store').redirect('/cart/', 303);
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
    const paymentMethods = paymentMethodsOf(config.checkout).map((method) => method.id);
    const checked = checkBilling(body, {
      allowedCountries: config.checkout.allowedCountries,
      paymentMethods,
    });
    if ('errors' in checked) {
      return sendCheckout(request, reply, { values: body, errors: checked.errors }, 400);
    }
    // Shipping and tax are computed again here from the posted address; posted totals are only compared.
    const quote = priceCheckout(config.checkout, cart, body);
    const problem = submittedQuoteProblem(quote, body, config.shop.currency);
    if (problem) {
      return sendCheckout(
        request,
        reply,
        { values: { ...body, ...problem.values }, errors: problem.errors ?? {} },
        problem.status,
        problem.notice,
      );
    }
    if (!quote.chosen) throw new ShopError('internal_error', 'A quote without shipping passed the checks');
    const { billing, shipping } = checked.values;
    if (!sessionId) throw new ShopError('empty_cart', 'Your cart is empty.');
    const lineTax = new Map(quote.lines.map((line) => [line.key, line.lineTax]));
    try {
      const { order, replayed } = await repositories.orders.placeOrder({
        orderKey: `wc_order_${randomBytes(12).toString('base64url')}`,
        currency: config.shop.currency.code,
        paymentMethod: checked.values.paymentMethod,
        status: statusForPayment(checked.values.paymentMethod),
        customerNote: checked.values.orderComments,
        sessionId,
        idempotencyKey: checkoutKey,
        pricedCart: await request.visitor.cart(),
        attribution: parseAttributionFields(
          body,
          config.attribution.fieldPrefix,
          request.headers['user-agent'],
        ),
        billing,
        shippingAddress: shipping,
        shipping: {
          methodId: quote.chosen.id,
          title: quote.chosen.title,
          cost: quote.totals.shippingTotal,
          tax: quote.totals.shippingTax,
        },
        taxLabel: quote.taxLabel,
        pricesIncludeTax: config.checkout.pricesIncludeTax,
        lines: cart.lines.map((line) => ({
          productId: line.productId,
          variationId: line.variationId,
          name: line.name,
          sku: line.sku,
          attributes: Object.fromEntries(line.attributes.map((each) => [each.label, each.value])),
          quantity: line.quantity,
          unitPrice: line.unitPrice,
          lineTax: lineTax.get(line.key) ?? 0,
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
      body: (
        <OrderReceivedPage
          order={order}
          payment={{
            bacsAccounts: config.checkout.payment.bacs.accounts,
            chequeInstructions: config.checkout.payment.cheque.instructions,
          }}
        />
      ),
    });
  });
}
