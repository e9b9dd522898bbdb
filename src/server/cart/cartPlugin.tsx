import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderToString } from 'react-dom/server';
import { z } from 'zod';
import { HeaderCartLink } from '../../client/cart/HeaderCartLink';
import { MiniCartContent } from '../../client/cart/MiniCartContent';
import { CartPage } from '../../client/pages/CartPage';
import { ProductPage } from '../../client/pages/ProductPage';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import type { Notice } from '../../client/theme/Notices';
import type { CartView } from '../../shared/cart/cartTypes';
import { MAX_LINE_QUANTITY } from '../../shared/cart/cartTypes';
import { productUrl } from '../../shared/catalog/urls';
import { isShopError, ShopError } from '../../shared/errors/ShopError';
import { toPageSettings } from '../../shared/settings/parseSettings';
import type { PageSettings, ShopConfig } from '../../shared/settings/settingsSchema';
import type { CartLine, Repositories } from '../db/ports';
import { ERROR_STATUS } from '../http/errorStatus';
import { parseInput } from '../http/parseInput';
import { isSameOrigin } from '../security/isSameOrigin';
import { type AddToCartRequest, applyAdd, applyQuantity, type CartService } from './cartService';

export interface CartPluginOptions {
  repositories: Repositories;
  cartService: CartService;
  config: ShopConfig;
}

const CART_NONCE_ACTION = 'cart';
/** The nonce action of `set_cart_item_quantity`; pages carry it as `cart.qtyNonce`. */
export const QTY_NONCE_ACTION = 'set_cart_item_quantity';
const quantityText = z
  .string()
  .trim()
  .regex(/^\d{1,6}$/, 'Quantity must be a whole number.')
  .transform(Number);
const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** The ajax add-to-cart fields (WooCommerce's names); attribute_* fields are read separately. */
const addToCartInput = z.looseObject({
  product_id: id,
  quantity: quantityText.optional(),
  variation_id: z.union([z.literal(''), id]).optional(),
});

/** The cart: its page and form posts, the ajax endpoints, the cart cookies and the fragments. */
export async function cartPlugin(
  app: FastifyInstance,
  { repositories, cartService, config }: CartPluginOptions,
) {
  const settings = toPageSettings(config);

  /** Changes the cart from its latest stored state in one transaction (two tabs never undo each other). */
  async function updateCart(
    request: FastifyRequest,
    reply: FastifyReply,
    update: (cart: CartLine[]) => CartLine[],
  ) {
    const view = await cartService.view(await request.visitor.updateCart(update));
    setCartCookies(reply, view, request.protocol === 'https');
    return view;
  }

  /** The fragments answer, with a quantity nonce bound to the session the request may just have created. */
  function fragmentsFor(request: FastifyRequest, view: CartView) {
    return fragmentsResponse(view, settings, app.nonces.create(QTY_NONCE_ACTION, request.visitor));
  }

  function requireSameOrigin(request: FastifyRequest) {
    if (!isSameOrigin(request.headers, request.host)) {
      throw new ShopError('cross_origin', 'This request did not come from the shop.');
    }
  }

  // ---- ajax endpoints (CONTRACT.md "Endpoints") ----

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
      const prepared = await cartService.prepareAdd({
        productId: input.product_id,
        variationId: input.variation_id ? input.variation_id : null,
        quantity: input.quantity ?? 1,
        attributes: attributeFields(input),
      });
      const view = await updateCart(request, reply, (cart) => applyAdd(cart, prepared));
      return fragmentsFor(request, view);
    },
  });

  app.ajax.wcAjax('remove_from_cart', {
    schema: z.looseObject({ cart_item_key: z.string().regex(/^[a-f0-9]{32}$/, 'Unknown cart item') }),
    methods: ['POST'],
    handle: async (input, request, reply) => {
      requireSameOrigin(request);
      await cartService.allowedQuantity(await request.visitor.cart(), input.cart_item_key, 0);
      const view = await updateCart(request, reply, (cart) => applyQuantity(cart, input.cart_item_key, 0));
      return fragmentsFor(request, view);
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
      // Whole numbers only: `1e9`, `2.5`, `-1` and `abc` are all refused, never coerced.
      const text = input.quantity.trim();
      if (!/^\d{1,6}$/.test(text)) {
        throw new ShopError(
          'invalid_quantity',
          `Please enter a whole quantity between 0 and ${MAX_LINE_QUANTITY}.`,
        );
      }
      // Checked against the cart as read, applied to the cart as it is when written: last write wins on a line.
      const result = await cartService.allowedQuantity(
        await request.visitor.cart(),
        input.hash,
        Number(text),
      );
      const view = await updateCart(request, reply, (cart) =>
        applyQuantity(cart, input.hash, result.quantity),
      );
      return {
        ...fragmentsFor(request, view),
        quantity: result.quantity,
        ...(result.clamped ? { clamped: true } : {}),
      };
    },
  });

  // ---- the cart page and its form posts (work without JavaScript) ----

  const noticeQuery = z.object({ added: id.optional(), updated: z.literal('1').optional() }).catch({});

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
    return reply.sendPage(
      {
        title: 'Cart',
        noindex: true,
        body: (
          <CartPage
            cart={await request.cartView()}
            nonce={app.nonces.create(CART_NONCE_ACTION, request.visitor)}
          />
        ),
      },
      { notices, status },
    );
  }

  app.post('/cart/', async function cartForm(request, reply) {
    const body = parseInput(cartFormBody, request.body ?? {});
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);

    if (field('add-to-cart') !== undefined) {
      requireSameOrigin(request);
      const productId = parseInput(id, field('add-to-cart'));
      try {
        // Everything that needs the catalog is checked first; the additions are then applied to the cart as it is
        // when written, in the session's transaction, so a change made meanwhile in another tab is kept.
        const additions = await Promise.all(
          addToCartRequests(body, productId).map((each) => cartService.prepareAdd(each)),
        );
        await updateCart(request, reply, (cart) => additions.reduce(applyAdd, cart));
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

    if (!app.nonces.verify(field('_wpnonce'), CART_NONCE_ACTION, request.visitor)) {
      return sendCartPage(
        request,
        reply,
        [{ type: 'error', message: 'Your session has expired. Please try again.' }],
        403,
      );
    }
    try {
      // The quantities are checked against the cart as read and applied to the cart as written (as the ajax
      // endpoint does): only the lines this form names change.
      const read = await request.visitor.cart();
      const remove = field('remove_item');
      const wanted: [string, number][] =
        remove !== undefined
          ? [[remove, 0]]
          : Object.entries(body).flatMap(([name, value]) => {
              const key = /^cart\[([a-f0-9]{32})\]\[qty\]$/.exec(name)?.[1];
              return key && typeof value === 'string' ? [[key, parseInput(quantityText, value)]] : [];
            });
      const allowed: [string, number][] = [];
      for (const [key, quantity] of wanted) {
        allowed.push([key, (await cartService.allowedQuantity(read, key, quantity)).quantity]);
      }
      await updateCart(request, reply, (cart) =>
        allowed.reduce((next, [key, quantity]) => applyQuantity(next, key, quantity), cart),
      );
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

/** A form post's fields: single values or repeated ones (formbody gives an array), nothing else. */
const cartFormBody = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/**
 * The additions an add-to-cart form asks for: a grouped product posts one quantity per child (children left at 0
 * are skipped), any other product one line.
 */
function addToCartRequests(body: Record<string, string | string[]>, productId: number): AddToCartRequest[] {
  const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
  const grouped = Object.entries(body).filter(([name]) => /^quantity\[\d+\]$/.test(name));
  if (grouped.length === 0) {
    return [
      {
        productId,
        variationId: field('variation_id') ? parseInput(id, field('variation_id')) : null,
        quantity: field('quantity') === undefined ? 1 : parseInput(quantityText, field('quantity')),
        attributes: attributeFields(body),
      },
    ];
  }
  const children = grouped.flatMap(([name, value]) => {
    const quantity = parseInput(quantityText, value);
    return quantity === 0
      ? []
      : [{ productId: Number(name.slice(9, -1)), variationId: null, quantity, attributes: {} }];
  });
  if (children.length === 0) {
    throw new ShopError(
      'invalid_quantity',
      'Please choose the quantity of items you wish to add to your cart.',
    );
  }
  return children;
}

function attributeFields(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).filter(
      (entry): entry is [string, string] =>
        /^attribute_[a-z0-9_-]{1,100}$/.test(entry[0]) &&
        typeof entry[1] === 'string' &&
        entry[1].length <= 200,
    ),
  );
}

/** Cart cookies WooCommerce's scripts and caches read (CONTRACT.md "Cookies"): not HttpOnly on purpose. */
export function setCartCookies(reply: FastifyReply, cart: CartView, secure: boolean) {
  const options = { path: '/', sameSite: 'lax' as const, secure };
  if (cart.itemCount > 0) {
    reply.setCookie('woocommerce_items_in_cart', '1', options);
    reply.setCookie('woocommerce_cart_hash', cart.hash, options);
  } else {
    reply.clearCookie('woocommerce_items_in_cart', options);
    reply.clearCookie('woocommerce_cart_hash', options);
  }
}

/** `{fragments, cart_hash}`: selector → markup for the parts of every page that show the cart (SPEC.md §3). */
export function fragmentsResponse(cart: CartView, settings: PageSettings, qtyNonce: string) {
  const pageSettings = { ...settings, cart: { ...settings.cart, qtyNonce } };
  // The same components render these parts of every page, so a fragment is exactly what a fresh page would show.
  const render = (node: React.ReactNode) =>
    renderToString(<ShopSettingsContext value={pageSettings}>{node}</ShopSettingsContext>, {
      // Its own id prefix, so ids in a fragment never collide with the page's own.
      identifierPrefix: 'fragment-',
    });
  return {
    fragments: {
      'a.cart-contents': render(<HeaderCartLink cart={cart} />),
      'div.widget_shopping_cart_content': render(<MiniCartContent cart={cart} />),
    },
    cart_hash: cart.hash,
  };
}
