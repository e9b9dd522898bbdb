import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AdminLayout } from '../../../client/admin/AdminLayout';
import { OrderPage } from '../../../client/admin/OrderPage';
import { OrdersPage } from '../../../client/admin/OrdersPage';
import type { CurrencyFormat } from '../../../shared/money/formatMoney';
import { ORDER_STATUS_LABELS, ORDER_STATUSES } from '../../../shared/orders/orderStatus';
import { parseInput } from '../../http/parseInput';
import type { OrderDesk } from '../../orders/orderDesk';
import { ADMIN_NONCES, type AdminGuards } from '../adminGuards';

/* `/admin/orders/`: the list, one order, its status form and its notes. Rules live in the order desk. */

const listQuery = z.object({
  status: z
    .union([z.enum(ORDER_STATUSES), z.literal('')])
    .optional()
    .transform((status) => status || null),
  s: z.string().max(200).optional().default(''),
  paged: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
const orderParam = z.object({ number: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const detailQuery = z.object({
  updated: z.enum(ORDER_STATUSES).optional(),
  stock: z.enum(['returned', 'taken']).optional(),
  note: z.enum(['added']).optional(),
});
const statusBody = z.object({ status: z.enum(ORDER_STATUSES), _wpnonce: z.string().max(100).optional() });
const noteBody = z.object({ note: z.string().max(2000), _wpnonce: z.string().max(100).optional() });

interface OrderRoutesOptions {
  desk: OrderDesk;
  guards: AdminGuards;
  currency: CurrencyFormat;
}

export async function orderRoutes(app: FastifyInstance, { desk, guards, currency }: OrderRoutesOptions) {
  app.get('/admin/orders/', async function ordersList(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    const query = parseInput(listQuery, request.query);
    const page = await desk.list({ status: query.status, search: query.s.trim(), page: query.paged });
    return reply.sendPage({
      title: 'Orders',
      noindex: true,
      body: (
        <AdminLayout title="Orders" current="orders" csrf={guards.nonce(request, ADMIN_NONCES.logout)}>
          <OrdersPage
            orders={page.orders}
            total={page.total}
            page={query.paged}
            perPage={page.perPage}
            status={query.status}
            search={query.s.trim()}
            currency={currency}
          />
        </AdminLayout>
      ),
    });
  });

  app.get('/admin/orders/:number/', async function orderDetail(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    const { number } = parseInput(orderParam, request.params);
    const query = parseInput(detailQuery, request.query);
    const detail = await desk.detail(number);
    const title = `Order #${number}`;
    return reply.sendPage({
      title,
      noindex: true,
      body: (
        <AdminLayout title={title} current="orders" csrf={guards.nonce(request, ADMIN_NONCES.logout)}>
          <OrderPage
            detail={detail}
            currency={currency}
            statusNonce={guards.nonce(request, ADMIN_NONCES.orderStatus)}
            noteNonce={guards.nonce(request, ADMIN_NONCES.orderNote)}
            notice={noticeOf(query)}
          />
        </AdminLayout>
      ),
    });
  });

  app.post('/admin/orders/:number/status', async function orderStatus(request, reply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.orderStatus);
    const { number } = parseInput(orderParam, request.params);
    const { status } = parseInput(statusBody, body);
    const change = await desk.changeStatus(number, status);
    const query = new URLSearchParams({ updated: change.to });
    if (change.restocked) query.set('stock', 'returned');
    if (change.reduced) query.set('stock', 'taken');
    return reply.redirect(`/admin/orders/${number}/?${query}`, 303);
  });

  app.post('/admin/orders/:number/notes', async function orderNote(request, reply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.orderNote);
    const { number } = parseInput(orderParam, request.params);
    const { note } = parseInput(noteBody, body);
    await desk.addOrderNote(number, { author: 'owner', text: note });
    return reply.redirect(`/admin/orders/${number}/?note=added#order-notes`, 303);
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function noticeOf(query: z.output<typeof detailQuery>): string | null {
  if (query.note) return 'Note added.';
  if (!query.updated) return null;
  const stock =
    query.stock === 'returned'
      ? ' Its items went back to stock.'
      : query.stock === 'taken'
        ? ' Its items were taken from stock again.'
        : '';
  return `Order status: ${ORDER_STATUS_LABELS[query.updated]}.${stock}`;
}
