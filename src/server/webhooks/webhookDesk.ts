import { randomBytes } from 'node:crypto';
import { ShopError } from '../../shared/errors/ShopError';
import type {
  Webhook,
  WebhookAttempt,
  WebhookInput,
  WebhookStatus,
  WebhookTopic,
} from '../../shared/webhooks/webhookTypes';
import type { WebhookRepository } from '../db/ports';

/*
 * The owner's webhook rules in one home (the back office's pages only translate HTTP to this): what a webhook may
 * be, its generated secret, the ping, and its delivery log.
 */

export const MAX_WEBHOOK_NAME = 200;
export const MAX_DELIVERY_URL = 2000;
export const MAX_SECRET = 200;
/** How many attempts the edit page shows (the log keeps this many per webhook). */
export const LOG_SHOWN = 25;

/** What the owner typed, before the rules: blank name and secret are filled in. */
export interface WebhookDraft {
  name: string;
  status: WebhookStatus;
  topic: WebhookTopic;
  deliveryUrl: string;
  secret: string;
}

export type WebhookFieldErrors = Partial<Record<keyof WebhookDraft, string>>;

export type WebhookSaveResult =
  | { ok: true; webhook: Webhook; pingError: string | null; pinged: boolean }
  | { ok: false; fieldErrors: WebhookFieldErrors };

export interface WebhookDesk {
  list(): Promise<Webhook[]>;
  /** Throws not_found for an unknown id. */
  get(id: number): Promise<Webhook>;
  /**
   * Checks and saves (id null: creates). Saved active, the webhook is pinged as WooCommerce does (`webhook_id=ID`
   * posted as a form); a failed ping is reported, not refused: the receiver may come up later.
   */
  save(
    id: number | null,
    draft: WebhookDraft,
    context: { shopHosts: readonly string[] },
  ): Promise<WebhookSaveResult>;
  /** Throws not_found for an unknown id. */
  delete(id: number): Promise<void>;
  /** The webhook's delivery log, newest first. */
  log(id: number): Promise<WebhookAttempt[]>;
}

interface WebhookDeskOptions {
  webhooks: WebhookRepository;
  ping: (webhook: Webhook) => Promise<string | null>;
  /** After a save or a delete: deliver what may now be due. */
  onChange?: () => void;
  now?: () => number;
}

function notFound(id: number): ShopError {
  return new ShopError('not_found', `There is no webhook #${id}.`);
}

/** A fresh secret: 32 random bytes, URL-safe base64 (WooCommerce generates a 50-character password). */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The delivery URL's rules: http(s) only, and never the shop itself. Why not the shop: a webhook pointed at the
 * shop's own REST API (an API key in its query) could update the product whose update fires it, and so on without
 * end. Addresses on the owner's own network are allowed on purpose (see docs/security.md "Webhooks").
 */
export function deliveryUrlError(text: string, shopHosts: readonly string[]): string | null {
  if (text === '') return 'Enter the delivery URL.';
  if (text.length > MAX_DELIVERY_URL) return `A delivery URL is at most ${MAX_DELIVERY_URL} characters.`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter a full address, like https://example.com/hooks/orders.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The delivery URL must start with http:// or https://.';
  const host = url.host.toLowerCase();
  const withDefaultPort =
    url.port === '' ? `${url.hostname.toLowerCase()}:${url.protocol === 'https:' ? 443 : 80}` : host;
  if (shopHosts.some((shop) => shop === host || shop === withDefaultPort))
    return 'The delivery URL points at this shop: it would send webhooks to itself.';
  return null;
}

export function createWebhookDesk({
  webhooks,
  ping,
  onChange = () => undefined,
  now = Date.now,
}: WebhookDeskOptions): WebhookDesk {
  return {
    list: () => webhooks.list(),
    async get(id) {
      const webhook = await webhooks.get(id);
      if (!webhook) throw notFound(id);
      return webhook;
    },
    async save(id, draft, { shopHosts }) {
      const fieldErrors: WebhookFieldErrors = {};
      const name = draft.name.trim();
      const deliveryUrl = draft.deliveryUrl.trim();
      if (name.length > MAX_WEBHOOK_NAME)
        fieldErrors.name = `A name is at most ${MAX_WEBHOOK_NAME} characters.`;
      const urlError = deliveryUrlError(deliveryUrl, shopHosts);
      if (urlError) fieldErrors.deliveryUrl = urlError;
      if (draft.secret.length > MAX_SECRET)
        fieldErrors.secret = `A secret is at most ${MAX_SECRET} characters.`;
      if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors };
      const input: WebhookInput = {
        name: name || `Webhook created on ${new Date(now()).toISOString().slice(0, 10)}`,
        status: draft.status,
        topic: draft.topic,
        deliveryUrl,
        secret: draft.secret.trim() === '' ? generateWebhookSecret() : draft.secret,
      };
      const webhook =
        id === null ? await webhooks.create(input, now()) : await webhooks.update(id, input, now());
      if (!webhook) throw notFound(id as number);
      onChange();
      if (webhook.status !== 'active') return { ok: true, webhook, pingError: null, pinged: false };
      return { ok: true, webhook, pingError: await ping(webhook), pinged: true };
    },
    async delete(id) {
      if (!(await webhooks.delete(id))) throw notFound(id);
    },
    async log(id) {
      if (!(await webhooks.get(id))) throw notFound(id);
      return webhooks.attempts(id, LOG_SHOWN);
    },
  };
}
