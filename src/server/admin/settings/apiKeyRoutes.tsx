import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AdminLayout } from '../../../client/admin/AdminLayout';
import { ApiKeysPage, type IssuedKeyView } from '../../../client/admin/ApiKeysPage';
import { API_KEY_PERMISSIONS, type ApiKeyPermissions } from '../../../shared/apiKeys/apiKeyTypes';
import { isShopError } from '../../../shared/errors/ShopError';
import { parseInput } from '../../http/parseInput';
import type { ApiKeyService } from '../../wcRest/apiKeys/apiKeyService';
import { ADMIN_NONCES, type AdminGuards } from '../adminGuards';

/*
 * `/admin/settings/api/`: the owner's keys for the WooCommerce REST API. Making and revoking go through the API
 * key service (the same one `npm run owner -- api-key` uses). A new key's secret is in the answer to the POST
 * that made it, never in a URL or a redirect, and the back office's pages are `no-store`.
 */

const PAGE = '/admin/settings/api/';
const pageQuery = z.object({ revoked: z.enum(['1']).optional() });
const keyParam = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const createBody = z.object({
  description: z.string().max(1000).default(''),
  permissions: z.string().max(20).default('read'),
});

export async function apiKeyRoutes(
  app: FastifyInstance,
  { keys, guards }: { keys: ApiKeyService; guards: AdminGuards },
) {
  async function sendPage(
    request: FastifyRequest,
    reply: FastifyReply,
    state: {
      issued?: IssuedKeyView | null;
      notice?: string | null;
      error?: string | null;
      values?: { description: string; permissions: ApiKeyPermissions };
      status?: number;
    } = {},
  ) {
    const title = 'REST API keys';
    return reply.sendPage(
      {
        title,
        noindex: true,
        body: (
          <AdminLayout title={title} current="api" csrf={guards.nonce(request, ADMIN_NONCES.logout)}>
            <ApiKeysPage
              keys={await keys.list()}
              createNonce={guards.nonce(request, ADMIN_NONCES.apiKeyCreate)}
              revokeNonce={guards.nonce(request, ADMIN_NONCES.apiKeyRevoke)}
              issued={state.issued ?? null}
              notice={state.notice ?? null}
              error={state.error ?? null}
              values={state.values ?? { description: '', permissions: 'read' }}
            />
          </AdminLayout>
        ),
      },
      { status: state.status ?? 200 },
    );
  }

  app.get(PAGE, async function apiKeysPage(request, reply) {
    if (!(await guards.ownerPage(request, reply))) return reply;
    const query = parseInput(pageQuery, request.query);
    return sendPage(request, reply, {
      notice: query.revoked ? 'The key is revoked: it opens nothing now.' : null,
    });
  });

  app.post(PAGE, async function createApiKey(request, reply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.apiKeyCreate);
    const input = parseInput(createBody, body);
    try {
      const issued = await keys.create(input);
      return sendPage(request, reply, {
        issued: {
          description: issued.key.description,
          consumerKey: issued.consumerKey,
          consumerSecret: issued.consumerSecret,
        },
      });
    } catch (error) {
      if (!isShopError(error) || error.code !== 'invalid_request') throw error;
      const permissions = API_KEY_PERMISSIONS.find((each) => each === input.permissions);
      return sendPage(request, reply, {
        error: error.message,
        values: { description: input.description, permissions: permissions ?? 'read' },
        status: 400,
      });
    }
  });

  app.post(`${PAGE}:id/revoke`, async function revokeApiKey(request, reply) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    await guards.ownerAction(request, reply, stringOf(body._wpnonce), ADMIN_NONCES.apiKeyRevoke);
    const { id } = parseInput(keyParam, request.params);
    await keys.revoke(id);
    return reply.redirect(`${PAGE}?revoked=1`, 303);
  });
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
