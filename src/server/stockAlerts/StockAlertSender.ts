import type { FastifyBaseLogger } from 'fastify';
import { productUrl } from '../../shared/catalog/urls';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { renderStockAlertMail } from './renderStockAlertMail';
import { unsubscribeToken } from './stockAlertTokens';

const BATCH = 50;

/** What a caller of the app may set of the sender (tests drive `process()` with the loop off). */
export type StockAlertSenderSettings = Pick<StockAlertSenderOptions, 'autoRun' | 'pollMs' | 'now'>;

export interface StockAlertSenderOptions {
  repositories: Repositories;
  config: ShopConfig;
  secret: string;
  /** Sends what the outbox holds now (the mail module's flush). */
  flushMail: () => Promise<number>;
  now?: () => number;
  /** How often every process looks for due alerts another process (or the import CLI) caused; default 5 s. */
  pollMs?: number;
  /** Look on a timer and after writes (default true); off only for tests that drive `process()`. */
  autoRun?: boolean;
  log?: Pick<FastifyBaseLogger, 'error'>;
}

/**
 * Turns alerts the database marked due (its trigger sees every stock change that brings a product back) into
 * outbox mail. Safe to run in every process at once: the repository hands each due alert to one sender only.
 */
export class StockAlertSender {
  readonly #options: StockAlertSenderOptions;
  readonly #now: () => number;
  #running: Promise<number> | null = null;
  #again = false;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(options: StockAlertSenderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  start(): void {
    if (this.#options.autoRun === false || this.#timer) return;
    this.#timer = setInterval(() => this.kick(), this.#options.pollMs ?? 5_000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running?.catch(() => 0);
  }

  /** Looks for due alerts soon (after a write that may have restocked something); never throws. */
  kick(): void {
    if (this.#options.autoRun === false || this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.process().catch((error) => this.#options.log?.error({ err: error }, 'stock alerts: pass failed'));
  }

  /** Queues the mail of every due alert, then sends the outbox; answers how many alerts were queued. */
  async process(): Promise<number> {
    if (this.#running) await this.#running.catch(() => 0);
    const run = this.#pass().finally(() => {
      if (this.#running === run) this.#running = null;
      if (this.#again) {
        this.#again = false;
        this.kick();
      }
    });
    this.#running = run;
    return run;
  }

  async #pass(): Promise<number> {
    const { repositories, config, secret } = this.#options;
    if (!(await repositories.stockAlerts.hasDue())) return 0;
    const origin = config.server.mail.shopUrl?.replace(/\/$/, '') ?? null;
    let queued = 0;
    for (;;) {
      const count = await repositories.stockAlerts.queueDue(
        (alert) =>
          renderStockAlertMail(alert, config.shop.name, {
            productUrl: origin && alert.productSlug ? `${origin}${productUrl(alert.productSlug)}` : null,
            unsubscribeUrl: origin
              ? `${origin}/back-in-stock/unsubscribe/?token=${unsubscribeToken(secret, alert.emailKey)}`
              : null,
          }),
        this.#now(),
        BATCH,
      );
      queued += count;
      if (count < BATCH) break;
    }
    if (queued > 0) await this.#options.flushMail();
    return queued;
  }
}
