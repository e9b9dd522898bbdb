import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A webhook receiver on a free local port, checking each delivery the way WooCommerce's documentation tells a
 * receiver to: the base64 HMAC-SHA256 of the raw body bytes with the webhook's secret must equal the
 * X-WC-Webhook-Signature header. `answer` decides each response (by default 200).
 */

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Whether the signature matched the raw body under the receiver's secret. */
  signatureValid: boolean;
  /** The body parsed as JSON (undefined for a form such as the ping). */
  json: unknown;
  /** What the receiver answered. */
  answered: number | 'hung';
}

export type ReceiverAnswer = (request: { index: number; headers: IncomingHttpHeaders }) => number | 'hang';

export function verifyWooCommerceSignature(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
): boolean {
  if (!header) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest('base64');
  const given = Buffer.from(header);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(
  secret: string,
  answer: ReceiverAnswer = () => 200,
  port = 0,
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { count: number; resolve: (all: ReceivedWebhook[]) => void }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const decision = answer({ index: received.length, headers: request.headers });
      let json: unknown;
      if (String(request.headers['content-type']).startsWith('application/json'))
        json = JSON.parse(rawBody.toString('utf8'));
      received.push({
        headers: request.headers,
        rawBody,
        signatureValid: verifyWooCommerceSignature(
          rawBody,
          request.headers['x-wc-webhook-signature'] as string,
          secret,
        ),
        json,
        answered: decision === 'hang' ? 'hung' : decision,
      });
      for (const waiter of [...waiters])
        if (received.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(received.slice());
        }
      if (decision !== 'hang') response.writeHead(decision, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
