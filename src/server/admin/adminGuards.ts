import type { FastifyReply, FastifyRequest } from 'fastify';

/** The back office's nonce actions, one per form. */
export const ADMIN_NONCES = {
  login: 'admin_login',
  logout: 'admin_logout',
  orderStatus: 'admin_order_status',
  orderNote: 'admin_order_note',
  reviewModerate: 'admin_review_moderate',
  webhookSave: 'admin_webhook_save',
  webhookDelete: 'admin_webhook_delete',
  apiKeyCreate: 'admin_api_key_create',
  apiKeyRevoke: 'admin_api_key_revoke',
} as const;

/** What every back-office handler needs from the plugin: the owner checks and the nonces. */
export interface AdminGuards {
  /** For pages: true for the owner; otherwise the reply is already a redirect to the login (return it). */
  ownerPage(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** For forms: 401 without the owner session, then 403 without this action's nonce. */
  ownerAction(
    request: FastifyRequest,
    reply: FastifyReply,
    nonce: string | undefined,
    action: string,
  ): Promise<void>;
  nonce(request: FastifyRequest, action: string): string;
}
