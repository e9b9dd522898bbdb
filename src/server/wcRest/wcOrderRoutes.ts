import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isShopError, ShopError } from '../../shared/errors/ShopError';
import { isOrderStatus, ORDER_STATUSES, type OrderStatus } from '../../shared/orders/orderStatus';
import type { OrderDesk } from '../orders/orderDesk';
import type { ApiKeyService } from './apiKeys/apiKeyService';
import { toWcOrder, toWcOrderNote, type WcContext } from './resources';
import { bodyOf, parseWcInput, sendWcPage, wcRoute } from './wcRoute';

/*
 * wc/v3 orders and their notes. Every rule is the order desk's, the one the back office's order pages call: a
 * status change restocks or takes stock once under the order's lock and tells the mail listener, a note is the
 * owner's note.
 */

/** WooCommerce's ISO 8601 filter dates, with or without a zone (none: UTC, the shop's site time). */
const isoDate = z
  .string()
  .max(40)
  .transform((text, context) => {
    const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`;
    const time = Date.parse(zoned);
    if (Number.isNaN(time)) {
      context.addIssue({ code: 'custom', message: 'must be an ISO 8601 date, like 2026-11-01T00:00:00' });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });

const listQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  // `any`, one status, or several separated by commas (as WooCommerce takes them).
  status: z
    .string()
    .max(200)
    .default('any')
    .transform((text, context) => {
      const names = text.split(',').map((name) => name.trim());
      if (names.includes('any')) return null;
      const unknown = names.filter((name) => !isOrderStatus(name));
      if (unknown.length > 0) {
        context.addIssue({ code: 'custom', message: `unknown status ${unknown.join(', ')}` });
        return z.NEVER;
      }
      return names as OrderStatus[];
    }),
  search: z.string().max(100).default(''),
  after: isoDate.optional(),
  before: isoDate.optional(),
});
const idParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const noteParams = idParams.extend({
  note_id: z.coerce.number().int().max(Number.MAX_SAFE_INTEGER),
});
const updateBody = z.object({
  status: z.enum(ORDER_STATUSES).optional(),
  customer_note: z.string().max(10_000).optional(),
});
const noteBody = z.object({
  note: z.string().max(10_000),
  customer_note: z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).optional(),
});

/** The desk's not_found as WooCommerce's code for a missing order. */
async function orOrderMissing<T>(work: () => Promise<T>, code: 'shop_order' | 'order' = 'shop_order') {
  try {
    return await work();
  } catch (error) {
    if (isShopError(error) && error.code === 'not_found')
      throw new ShopError(
        code === 'shop_order'
          ? 'woocommerce_rest_shop_order_invalid_id'
          : 'woocommerce_rest_order_invalid_id',
        'Invalid ID.',
      );
    throw error;
  }
}

export function registerWcOrderRoutes(
  app: FastifyInstance,
  keys: ApiKeyService,
  desk: OrderDesk,
  contextOf: (request: FastifyRequest) => WcContext & { currencySymbol: string },
) {
  wcRoute(app, keys, '/orders', {
    async GET(request, reply) {
      const query = parseWcInput(listQuery, request.query);
      const page = await desk.list({
        status: null,
        statuses: query.status ?? undefined,
        search: query.search.trim(),
        page: query.page,
        perPage: query.per_page,
        after: query.after,
        before: query.before,
      });
      const context = contextOf(request);
      const items = await Promise.all(
        page.orders.map(async (summary) => toWcOrder(await desk.detail(summary.id), context)),
      );
      return sendWcPage(request, reply, context.origin, {
        items,
        total: page.total,
        page: query.page,
        perPage: query.per_page,
      });
    },
  });

  /** WooCommerce's routes answer POST, PUT and PATCH alike on one order (WP_REST_Server::EDITABLE). */
  async function updateOrder(request: FastifyRequest) {
    const { id } = parseWcInput(idParams, request.params);
    const body = parseWcInput(updateBody, bodyOf(request));
    await orOrderMissing(async () => {
      const detail = await desk.detail(id);
      if (body.customer_note !== undefined && body.customer_note.trim() !== detail.order.customerNote)
        await desk.setCustomerNote(id, body.customer_note);
      if (body.status !== undefined) await desk.changeStatus(id, body.status);
    });
    return toWcOrder(await desk.detail(id), contextOf(request));
  }

  wcRoute(app, keys, '/orders/:id', {
    async GET(request) {
      const { id } = parseWcInput(idParams, request.params);
      return toWcOrder(await orOrderMissing(() => desk.detail(id)), contextOf(request));
    },
    PUT: updateOrder,
    PATCH: updateOrder,
    POST: updateOrder,
  });
  wcRoute(app, keys, '/orders/:id/notes', {
    async GET(request) {
      const { id } = parseWcInput(idParams, request.params);
      const detail = await orOrderMissing(() => desk.detail(id), 'order');
      // Newest first, as WooCommerce lists notes.
      return [...detail.notes].reverse().map(toWcOrderNote);
    },
    async POST(request, reply) {
      const { id } = parseWcInput(idParams, request.params);
      const body = parseWcInput(noteBody, bodyOf(request));
      const note = await orOrderMissing(
        () => desk.addOrderNote(id, { author: 'owner', text: body.note }),
        'order',
      );
      return reply.status(201).send(toWcOrderNote(note));
    },
  });
  wcRoute(app, keys, '/orders/:id/notes/:note_id', {
    async GET(request) {
      const { id, note_id } = parseWcInput(noteParams, request.params);
      const detail = await orOrderMissing(() => desk.detail(id), 'order');
      const note = detail.notes.find((candidate) => candidate.id === note_id);
      if (!note) throw new ShopError('woocommerce_rest_invalid_id', 'Invalid resource ID.');
      return toWcOrderNote(note);
    },
  });
}
