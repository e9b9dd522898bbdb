import { createHmac } from 'node:crypto';
import type { Webhook, WebhookTopic } from '../../shared/webhooks/webhookTypes';

/*
 * One webhook POST as WooCommerce sends it: the JSON body, its signature and the X-WC-Webhook-* headers. The
 * answer's body is never read or kept (a receiver's page is none of the shop's business, and reading it could
 * hang); only its status counts: 2xx is delivered, anything else (a redirect too: they are not followed) failed.
 */

/** The user agent of every delivery, shaped like WooCommerce's ("WooCommerce/x Hookshot (WordPress/y)"). */
export const WEBHOOK_USER_AGENT = 'WooCommerce/9.0 Hookshot (Storefront)';

/** How long a receiver may take to answer before the attempt counts as failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** WooCommerce's X-WC-Webhook-Signature: base64 of the HMAC-SHA256 of the exact body bytes, keyed by the secret. */
export function webhookSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

export interface WebhookDeliveryRequest {
  webhook: Pick<Webhook, 'id' | 'deliveryUrl' | 'secret'>;
  topic: WebhookTopic;
  deliveryId: number;
  body: string;
  /** X-WC-Webhook-Source: the shop's public address with a trailing slash; '' leaves the header out. */
  source: string;
}

export function webhookHeaders({ webhook, topic, deliveryId, body, source }: WebhookDeliveryRequest) {
  const [resource, event] = topic.split('.') as [string, string];
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    ...(source ? { 'x-wc-webhook-source': source } : {}),
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': resource,
    'x-wc-webhook-event': event,
    'x-wc-webhook-signature': webhookSignature(body, webhook.secret),
    'x-wc-webhook-id': String(webhook.id),
    'x-wc-webhook-delivery-id': String(deliveryId),
  };
}

export interface WebhookResponse {
  status: number | null;
  durationMs: number;
  /** Null when the receiver answered 2xx. */
  error: string | null;
}

export type WebhookPoster = (request: WebhookDeliveryRequest) => Promise<WebhookResponse>;

/** POSTs with Node's fetch, a timeout, and no redirects followed; never throws. */
export function fetchWebhookPoster(
  timeoutMs = WEBHOOK_TIMEOUT_MS,
  now = () => performance.now(),
): WebhookPoster {
  return async (request) => {
    const started = now();
    const took = () => Math.max(0, Math.round(now() - started));
    try {
      const response = await fetch(request.webhook.deliveryUrl, {
        method: 'POST',
        headers: webhookHeaders(request),
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The body is not wanted: cancel it so a receiver that keeps streaming cannot hold the connection.
      await response.body?.cancel().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return {
        status: response.status,
        durationMs: took(),
        error: ok ? null : `The delivery URL answered HTTP ${response.status}.`,
      };
    } catch (error) {
      return { status: null, durationMs: took(), error: describeFetchError(error, timeoutMs) };
    }
  };
}

/** Why no answer came, in words (never the URL's credentials: the error text holds none of the URL). */
function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `No answer within ${Math.round(timeoutMs / 1000)} seconds.`;
  const cause =
    error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code === 'ECONNREFUSED') return 'The delivery URL refused the connection.';
  if (cause?.code === 'ENOTFOUND') return 'The delivery URL’s host name does not resolve.';
  const text = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `Could not reach the delivery URL: ${text}`.slice(0, 300);
}

/** How long saving a webhook waits for its ping (the owner is waiting on the page). */
export const PING_TIMEOUT_MS = 5_000;

/** WooCommerce's ping when a webhook is saved active: `webhook_id=ID` as a form, a 200 expected. */
export async function pingWebhook(
  webhook: Pick<Webhook, 'id' | 'deliveryUrl'>,
  timeoutMs = PING_TIMEOUT_MS,
): Promise<string | null> {
  try {
    const response = await fetch(webhook.deliveryUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': WEBHOOK_USER_AGENT },
      body: `webhook_id=${webhook.id}`,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    return response.status === 200
      ? null
      : `The delivery URL answered the ping with HTTP ${response.status}.`;
  } catch (error) {
    return describeFetchError(error, timeoutMs);
  }
}
