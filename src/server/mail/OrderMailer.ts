import type { FastifyBaseLogger } from 'fastify';
import type { OrderMailKind, OrderMailRecord } from '../../shared/orders/orderMail';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { OutboxLoop, retryDelay } from '../outbox/OutboxLoop';
import type { MailTransport, OutgoingMail } from './mailTransport';
import { renderOrderMail } from './renderOrderMail';

const MINUTE = 60_000;
/** The wait after each failed attempt; the attempt after the last wait is the last one. */
export const RETRY_DELAYS_MS = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 360 * MINUTE] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/**
 * How long a claimed message is out of other senders' reach: well over one SMTP attempt (its timeouts are a minute
 * at most), so only a sender that died mid-send lets it go, and then the message is tried again.
 */
const CLAIM_LEASE_MS = 5 * MINUTE;
const CLAIM_BATCH = 10;
/** How long closing the shop waits for the last sends before leaving them to the next start. */
const CLOSE_FLUSH_MS = 5_000;

export interface OrderMailerOptions {
  repositories: Repositories;
  config: ShopConfig;
  transport: MailTransport;
  /** Where "new order" mail goes; default `server.mail.owner`. Null: no such mail. */
  ownerAddress?: () => Promise<string | null>;
  now?: () => number;
  /** Send right after queueing and every `pollMs` (default true): off only for tests that drive `flush()`. */
  autoSend?: boolean;
  pollMs?: number;
  log?: Pick<FastifyBaseLogger, 'error' | 'warn'>;
}

const SILENT = { error() {}, warn() {} };

/**
 * Order mail through a durable outbox. Queueing renders the message and writes it (the order never waits for a
 * mail server and a crash loses nothing queued); a sender loop in every process claims due messages (each one
 * by one sender only, on both engines), sends them and retries failures with growing waits, then gives up
 * (status failed). Nothing here throws into an order's request.
 */
export class OrderMailer {
  readonly #repositories: Repositories;
  readonly #config: ShopConfig;
  readonly #transport: MailTransport;
  readonly #ownerAddress: () => Promise<string | null>;
  readonly #now: () => number;
  readonly #log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  readonly #loop: OutboxLoop;

  constructor(options: OrderMailerOptions) {
    this.#repositories = options.repositories;
    this.#config = options.config;
    this.#transport = options.transport;
    // The settings' address wins; else the one `npm run owner -- set-password --email` stored.
    this.#ownerAddress =
      options.ownerAddress ??
      (async () =>
        options.config.server.mail.owner ??
        (await options.repositories.ownerAuth.getOwnerAccount())?.email ??
        null);
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? SILENT;
    this.#loop = new OutboxLoop({
      drain: () => this.#sendDue(),
      autoSend: options.autoSend ?? true,
      pollMs: options.pollMs ?? 15_000,
      onError: (error) => this.#log.error({ err: error }, 'order mail: send pass failed'),
    });
  }

  /** Polls for due messages (retries, and what other processes queued) on a timer that never keeps Node alive. */
  start(): void {
    this.#loop.start();
  }

  /** Stops the loop, then sends what is due for a few seconds at most; the rest waits for the next start. */
  async stop(): Promise<void> {
    await this.#loop.stop(CLOSE_FLUSH_MS);
    this.#transport.close();
  }

  /**
   * Queues the order's mail of `kind` (to the customer, or to the owner for `new_order`), rendered now so it says
   * what the order was at the event. Answers whether a message was queued: not when the order already has one of
   * that kind, there is no owner address, or queueing failed (logged; the caller's request goes on).
   */
  async queueOrderMail(kind: OrderMailKind, orderId: number): Promise<boolean> {
    try {
      const order = await this.#repositories.orders.getOrder(orderId);
      if (!order) return false;
      const recipient = kind === 'new_order' ? await this.#ownerAddress() : order.billing.email;
      if (!recipient) return false;
      const rendered = renderOrderMail(kind, order, this.#config);
      const queued = await this.#repositories.mailOutbox.enqueue(
        { kind, orderId, recipient, ...rendered },
        this.#now(),
      );
      if (queued) this.#loop.kick();
      return queued;
    } catch (error) {
      this.#log.error({ err: error, kind, orderId }, 'order mail: could not queue');
      return false;
    }
  }

  /**
   * Sends every message due now, after the pass already running in this process (if any) is done; answers how
   * many were sent. For tests and shutdown; the loop does the same on its own.
   */
  flush(): Promise<number> {
    return this.#loop.flush();
  }

  /** The order's mail, sent or not, oldest first (the order page's notes). */
  sentMailsForOrder(orderId: number): Promise<OrderMailRecord[]> {
    return this.#repositories.mailOutbox.forOrder(orderId);
  }

  async #sendDue(): Promise<number> {
    let sent = 0;
    for (;;) {
      const now = this.#now();
      const claimed = await this.#repositories.mailOutbox.claimDue(now, now + CLAIM_LEASE_MS, CLAIM_BATCH);
      if (claimed.length === 0) return sent;
      for (const mail of claimed) {
        const outgoing: OutgoingMail = {
          from: this.#from(),
          to: mail.recipient,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        };
        try {
          await this.#transport.send(outgoing);
        } catch (error) {
          const retryAt =
            mail.attempts >= MAX_ATTEMPTS ? null : this.#now() + retryDelay(RETRY_DELAYS_MS, mail.attempts);
          const reason = this.#describe(error);
          this.#log.warn(
            { outboxId: mail.id, orderId: mail.orderId, kind: mail.kind, attempts: mail.attempts, reason },
            retryAt === null ? 'order mail: giving up' : 'order mail: send failed, will retry',
          );
          await this.#repositories.mailOutbox.markFailed(mail.id, reason, retryAt);
          continue;
        }
        await this.#repositories.mailOutbox.markSent(mail.id, this.#now());
        sent++;
      }
    }
  }

  #from(): OutgoingMail['from'] {
    return this.#config.server.mail.from ?? { name: this.#config.shop.name, address: 'shop@localhost' };
  }

  /** The error as kept on the row and logged: short, and never with the SMTP password in it. */
  #describe(error: unknown): string {
    let text = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    for (const secret of smtpPassword(this.#config.server.mail.smtp)) text = text.replaceAll(secret, '***');
    return text || 'unknown error';
  }
}

/** The SMTP URL's password as written in the URL and decoded (either could appear in an error). */
function smtpPassword(url: string | null): string[] {
  if (!url) return [];
  try {
    const password = new URL(url).password;
    return password ? [password, decodeURIComponent(password)] : [];
  } catch {
    return [];
  }
}
