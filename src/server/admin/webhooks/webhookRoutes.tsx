import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AdminLayout } from '../../../client/admin/AdminLayout';
import {
  WEBHOOKS_PATH,
  WebhookEditPage,
  type WebhookFormErrors,
  type WebhookFormValues,
  WebhooksListPage,
} from '../../../client/admin/WebhooksPage';
import { WEBHOOK_STATUSES, WEBHOOK_TOPICS } from '../../../shared/webhooks/webhookTypes';
import { parseInput } from '../../http/parseInput';
import { MAX_DELIVERY_URL, MAX_SECRET, MAX_WEBHOOK_NAME, type WebhookDesk } from '../../webhooks/webhookDesk';
import { ADMIN_NONCES, type AdminGuards } from '../adminGuards';

/* `/admin/settings/webhooks/`: list, add, edit, delete, and each webhook's delivery log. Rules live in the desk. */

const idParam = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const listQuery = z.object({ deleted: z.enum(['1']).optional() });
const editQuery = z.object({
  saved: z.enum(['1']).optional(),
  ping: z.enum(['ok', 'failed']).optional(),
});
// Lengths a little past the desk's limits, so an over-long field gets the desk's words, not a generic refusal.
const saveBody = z.object({
  name: z
    .string()
    .max(MAX_WEBHOOK_NAME * 2)
    .default(''),
  status: z.enum(WEBHOOK_STATUSES),
  topic: z.enum(WEBHOOK_TOPICS),
  deliveryUrl: z
    .string()
    .max(MAX_DELIVERY_URL * 2)
    .default(''),
  secret: z
    .string()
    .max(MAX_SECRET * 2)
    .default(''),
  _wpnonce: z.string().max(100).optional(),
});

interface WebhookRoutesOptions {
  desk: WebhookDesk;
  guards: AdminGuards;
  /** The shop's own host:port as its public settings name it (beside the request's Host). */
  shopUrl: string | null;
}

const BLANK: WebhookFormValues = {
  name: '',
  status: 'active',
  topic: 'order.created',
  deliveryUrl: '',
  secret: '',
};

export async function webhookRoutes(app: FastifyInstance, { desk, guards, shopUrl }: WebhookRoutesOptions) {
  function shopHosts(request: FastifyRequest): string[] {
    const hosts = [request.host.toLowerCase()];
    if (shopUrl) hosts.push(new URL(shopUrl).host.toLowerCase());
    return hosts;
  }

  async function sendEdit(
    request: FastifyRequest,
    reply: FastifyReply,
    page: {
      webhookId: number | null;
      values: WebhookFormValues;
      errors: WebhookFormErrors;
      notice: string | null;
      status?: number;
    },
  ) {
    const title = page.webhookId === null ? 'Add webhook' : `Webhook #${page.webhookId}`;
    const [attempts, webhook] =
      page.webhookId === null
        ? [[], null]
        : await Promise.all([desk.log(page.webhookId), desk.get(page.webhookId)]);
    return reply.sendPage(
      {
        title,
        noindex: true,
        body: (
          <AdminLayout title={title} current="webhooks" csrf={guards.nonce(request, ADMIN_NONCES.logout)}>
            <WebhookEditPage
              webhookId={page.webhookId}
              values={page.values}
              errors={page.errors}
              nonce={guards.nonce(request, ADMIN_NONCES.webhookSave)}
              deleteNonce={guards.nonce(request, ADMIN_NONCES.webhookDelete)}
              attempts={attempts}
              failureCount={webhook?.failureCount ?? 0}
              notice={page.notice}
            />
          </AdminLayout>
        ),
      },
      { status: page.status ?? 200 },
    );
  }

  app.get(WEBHOOKS_PATH, async function webhooksList(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    const query = parseInput(listQuery, request.query);
    const webhooks = await desk.list();
    return reply.sendPage({
      title: 'Webhooks',
      noindex: true,
      body: (
        <AdminLayout title="Webhooks" current="webhooks" csrf={guards.nonce(request, ADMIN_NONCES.logout)}>
          <WebhooksListPage webhooks={webhooks} notice={query.deleted ? 'Webhook deleted.' : null} />
        </AdminLayout>
      ),
    });
  });

  app.get(`${WEBHOOKS_PATH}new`, async function webhookNew(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    return sendEdit(request, reply, { webhookId: null, values: BLANK, errors: {}, notice: null });
  });

  app.get(`${WEBHOOKS_PATH}:id/`, async function webhookEdit(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    const { id } = parseInput(idParam, request.params);
    const query = parseInput(editQuery, request.query);
    const webhook = await desk.get(id);
    return sendEdit(request, reply, { webhookId: id, values: webhook, errors: {}, notice: noticeOf(query) });
  });

  /** The owner and the nonce first, then the address's id (null: a new webhook), then the form. */
  async function save(request: FastifyRequest, reply: FastifyReply, idOf: () => number | null) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.webhookSave);
    const id = idOf();
    if (id !== null) await desk.get(id); // an unknown webhook is a 404 before its form is read
    const { _wpnonce: _nonce, ...draft } = parseInput(saveBody, body);
    const result = await desk.save(id, draft, { shopHosts: shopHosts(request) });
    if (!result.ok)
      return sendEdit(request, reply, {
        webhookId: id,
        values: draft,
        errors: result.fieldErrors,
        notice: null,
        status: 400,
      });
    const query = new URLSearchParams({ saved: '1' });
    if (result.pinged) query.set('ping', result.pingError === null ? 'ok' : 'failed');
    return reply.redirect(`${WEBHOOKS_PATH}${result.webhook.id}/?${query}`, 303);
  }

  app.post(WEBHOOKS_PATH, async function webhookCreate(request, reply) {
    return save(request, reply, () => null);
  });

  app.post(`${WEBHOOKS_PATH}:id/`, async function webhookUpdate(request, reply) {
    return save(request, reply, () => parseInput(idParam, request.params).id);
  });

  app.post(`${WEBHOOKS_PATH}:id/delete`, async function webhookDelete(request, reply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.webhookDelete);
    const { id } = parseInput(idParam, request.params);
    await desk.delete(id);
    return reply.redirect(`${WEBHOOKS_PATH}?deleted=1`, 303);
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function noticeOf(query: z.output<typeof editQuery>): string | null {
  if (!query.saved) return null;
  if (query.ping === 'ok') return 'Webhook saved. The delivery URL answered the ping.';
  if (query.ping === 'failed')
    return 'Webhook saved, but the delivery URL did not answer the ping with HTTP 200. Events are still queued and retried.';
  return 'Webhook saved.';
}
