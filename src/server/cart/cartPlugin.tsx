import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { CartPage } from '../../client/pages/CartPage';
import { ProductPage } from '../../client/pages/ProductPage';
import type { Notice } from '../../client/theme/Notices';
import type { CartView } from '../../shared/cart/cartTypes';
import { productUrl } from '../../shared/catalog/urls';
import { isShopError, ShopError } from '../../shared/errors/ShopError';
import { toPageSettings } from '../../shared/settings/parseSettings';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { ERROR_STATUS } from '../http/errorStatus';
import { parseInput } from '../http/parseInput';
import type { PurchaseFacts } from '../insights/purchaseFacts';
import { cartCrossSells } from '../merchandising/productLists';
import { isSameOrigin } from '../security/isSameOrigin';
import { setCartCookies } from './cartCookies';
import {
  addToCartRequests,
  attributeFields,
  cartFormBody,
  cartItemKey,
  formField,
  positiveId,
  quantityChanges,
  quantityText,
  typedQuantity,
} from './cartForm';
import { cartFragments } from './cartFragments';
import type { CartService } from './cartService';

interface CartPluginOptions {
  repositories: Repositories;
  cartService: CartService;
  config: ShopConfig;
  /** Records an add-to-cart of a product a search found, for the owner's figures. */
  purchaseFacts?: PurchaseFacts;
}

const CART_NONCE_ACTION = 'cart';
/** The nonce action of `set_cart_item_quantity`; pages carry it as `cart.qtyNonce`. */
const QTY_NONCE_ACTION = 'set_cart_item_quantity';

/** The ajax add-to-cart fields (WooCommerce's names); attribute_* fields are read separately. */
const addToCartInput = z.looseObject({
  product_id: positiveId,
  quantity: quantityText.optional(),
  variation_id: z.union([z.literal(''), positiveId]).optional(),
});
const noticeQuery = z.object({ added: positiveId.optional(), updated: z.literal('1').optional() }).catch({});

/** The cart over HTTP: its page and form posts, and the ajax endpoints WooCommerce's cart scripts call. */
export async function cartPlugin(
  app: FastifyInstance,
  { repositories, cartService, config, purchaseFacts }: CartPluginOptions,
) {
  const settings = toPageSettings(config);

  /** After a successful add: the facts behind "searches that led to a purchase" (never fails the add). */
  async function noteCartAdd(request: FastifyRequest, productIds: number[]) {
    await purchaseFacts
      ?.cartAdded(request, productIds)
      .catch((error: unknown) =>
        request.log.error({ err: error }, 'recording the add-to-cart for insights failed'),
      );
  }

  /** A changed cart's answer starts with its cookies. */
  function changed(request: FastifyRequest, reply: FastifyReply, view: CartView) {
    setCartCookies(reply, view, request.protocol === 'https');
    return view;
  }

  /** The fragments answer, with a quantity nonce bound to the session the request may just have created. */
  function fragmentsFor(request: FastifyRequest, view: CartView) {
    return cartFragments(view, settings, app.nonces.create(QTY_NONCE_ACTION, request.visitor));
  }

  function requireSameOrigin(request: FastifyRequest) {
    if (!isSameOrigin(request.headers, request.host)) {
      throw new ShopError('cross_origin', 'This request did not come from the shop.');
    }
  }

  // ---- the ajax endpoints of WooCommerce's cart scripts ----

  app.ajax.wcAjax('get_refreshed_fragments', {
    schema: z.looseObject({ time: z.string().optional() }),
    methods: ['GET', 'POST'],
    handle: async (_input, request) => fragmentsFor(request, await request.cartView()),
  });

  app.ajax.wcAjax('add_to_cart', {
    schema: addToCartInput,
    methods: ['POST'],
    handle: async (input, request, reply) => {
      requireSameOrigin(request);
      const view = await cartService.addToStoredCart(request.visitor, [
        {
          productId: input.product_id,
          variationId: input.variation_id ? input.variation_id : null,
          quantity: input.quantity ?? 1,
          attributes: attributeFields(input),
        },
      ]);
      await noteCartAdd(request, [input.product_id]);
      return fragmentsFor(request, changed(request, reply, view));
    },
  });

  app.ajax.wcAjax('remove_from_cart', {
    schema: z.looseObject({ cart_item_key: cartItemKey }),
    methods: ['POST'],
    handle: async (input, request, reply) => {
      requireSameOrigin(request);
      const { view } = await cartService.setStoredQuantities(request.visitor, [[input.cart_item_key, 0]]);
      return fragmentsFor(request, changed(request, reply, view));
    },
  });

  app.ajax.siteAjax('set_cart_item_quantity', {
    schema: z.looseObject({
      hash: z.string().min(1, 'Missing hash'),
      quantity: z.string(),
      qtyNonce: z.string().optional(),
    }),
    methods: ['POST'],
    handle: async (input, request, reply) => {
      if (!app.nonces.verify(input.qtyNonce, QTY_NONCE_ACTION, request.visitor)) {
        throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page.');
      }
      const { view, allowed } = await cartService.setStoredQuantities(request.visitor, [
        [input.hash, typedQuantity(input.quantity)],
      ]);
      const [result] = allowed;
      return {
        ...fragmentsFor(request, changed(request, reply, view)),
        quantity: result?.quantity,
        ...(result?.clamped ? { clamped: true } : {}),
      };
    },
  });

  // ---- the cart page and its form posts (work without JavaScript) ----

  app.get('/cart/', async function cartPage(request, reply) {
    const query = parseInput(noticeQuery, request.query);
    const notices: Notice[] = [];
    if (query.added) {
      const product = await repositories.catalog.getProductById(query.added);
      if (product)
        notices.push({ type: 'success', message: `“${product.name}” has been added to your cart.` });
    }
    if (query.updated) notices.push({ type: 'success', message: 'Cart updated.' });
    return sendCartPage(request, reply, notices);
  });

  async function sendCartPage(request: FastifyRequest, reply: FastifyReply, notices: Notice[], status = 200) {
    const cart = await request.cartView();
    const crossSells = await cartCrossSells(repositories, [
      ...new Set(cart.lines.map((line) => line.productId)),
    ]);
    return reply.sendPage(
      {
        title: 'Cart',
        noindex: true,
        body: (
          <CartPage
            cart={cart}
            nonce={app.nonces.create(CART_NONCE_ACTION, request.visitor)}
            crossSells={crossSells}
          />
        ),
      },
      { notices, status },
    );
  }

  app.post('/cart/', async function cartForm(request, reply) {
    const body = parseInput(cartFormBody, request.body ?? {});
    const addToCart = formField(body, 'add-to-cart');

    if (addToCart !== undefined) {
      requireSameOrigin(request);
      const productId = parseInput(positiveId, addToCart);
      try {
        const requests = addToCartRequests(body, productId);
        const view = await cartService.addToStoredCart(request.visitor, requests);
        await noteCartAdd(
          request,
          requests.map((each) => each.productId),
        );
        changed(request, reply, view);
        return reply.redirect(`/cart/?added=${productId}`, 303);
      } catch (error) {
        if (!isShopError(error)) throw error;
        // Show the shopper the product again with the reason, as WooCommerce does.
        const product = await repositories.catalog.getProductById(productId);
        if (!product) throw error;
        return reply.sendPage(
          {
            title: product.name,
            canonical: productUrl(product.slug),
            body: <ProductPage product={product} />,
          },
          { notices: [{ type: 'error', message: error.message }], status: ERROR_STATUS[error.code] },
        );
      }
    }

    if (!app.nonces.verify(formField(body, '_wpnonce'), CART_NONCE_ACTION, request.visitor)) {
      return sendCartPage(
        request,
        reply,
        [{ type: 'error', message: 'Your session has expired. Please try again.' }],
        403,
      );
    }
    try {
      const { view } = await cartService.setStoredQuantities(request.visitor, quantityChanges(body));
      changed(request, reply, view);
    } catch (error) {
      if (!isShopError(error)) throw error;
      return sendCartPage(
        request,
        reply,
        [{ type: 'error', message: error.message }],
        ERROR_STATUS[error.code],
      );
    }
    return reply.redirect('/cart/?updated=1', 303);
  });
}
