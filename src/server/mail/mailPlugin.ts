import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { OrderMailKind, OrderMailRecord } from '../../shared/orders/orderMail';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { type MailTransport, mailTransportFor } from './mailTransport';
import { OrderMailer } from './OrderMailer';
import { type OrderMailNote, orderMailNotes } from './orderMailNotes';

/** How the app sends order mail; every field optional (tests pass a transport, a clock, no loop). */
export interface MailOptions {
  /** Default: SMTP when `server.mail.smtp` is set, else `.eml` files in `DATA_DIR/mail/`. */
  transport?: MailTransport;
  /** Where "new order" mail goes; default `server.mail.owner`. */
  ownerAddress?: () => Promise<string | null>;
  now?: () => number;
  /** Send right after queueing and on a timer (default true). */
  autoSend?: boolean;
  pollMs?: number;
}

interface MailPluginOptions {
  config: ShopConfig;
  repositories: Repositories;
  dataDir: string;
  mail?: MailOptions;
}

/** `app.mail`: order mail for every feature that changes an order. */
export interface ShopMail {
  /** Where mail goes, for the start-up message: the `.eml` folder, or the SMTP server without its credentials. */
  readonly destination: string;
  /** Queues the order's mail of `kind`; never throws. Answers whether a message was queued (see OrderMailer). */
  queueOrderMail(kind: OrderMailKind, orderId: number): Promise<boolean>;
  /** Sends what is due now; answers how many were sent. */
  flush(): Promise<number>;
  sentMailsForOrder(orderId: number): Promise<OrderMailRecord[]>;
  /** The order page's notes about its mail ("Order received email sent to a@b.c on …"). */
  notesForOrder(orderId: number): Promise<OrderMailNote[]>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mail: ShopMail;
  }
}

export const mailPlugin = fp(
  async function mailPlugin(
    app: FastifyInstance,
    { config, repositories, dataDir, mail = {} }: MailPluginOptions,
  ) {
    const transport = mail.transport ?? mailTransportFor(config.server.mail.smtp, dataDir);
    const mailer = new OrderMailer({
      repositories,
      config,
      transport,
      ownerAddress: mail.ownerAddress,
      now: mail.now,
      autoSend: mail.autoSend,
      pollMs: mail.pollMs,
      log: app.log,
    });
    app.decorate('mail', {
      destination: transport.description,
      queueOrderMail: (kind, orderId) => mailer.queueOrderMail(kind, orderId),
      flush: () => mailer.flush(),
      sentMailsForOrder: (orderId) => mailer.sentMailsForOrder(orderId),
      notesForOrder: async (orderId) =>
        orderMailNotes(await mailer.sentMailsForOrder(orderId), config.i18n.locale),
    } satisfies ShopMail);
    app.addHook('onReady', async () => mailer.start());
    app.addHook('onClose', async () => mailer.stop());
  },
  { name: 'shop-mail', fastify: '5.x' },
);
