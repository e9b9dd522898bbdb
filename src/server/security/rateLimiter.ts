import { createHmac } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { ShopError } from '../../shared/errors/ShopError';
import type { RateLimitRepository } from '../db/ports';

/*
 * One rate limiter for every abuse limit (page passwords, uploads, logins by address): fixed windows counted in the
 * database, so every server process shares one count and a restart forgets nothing. Written here rather than taken
 * from @fastify/rate-limit because its shared stores need Redis, which this shop does not run; the count is one
 * upsert on the shop's own database (see RateLimitRepository.hit).
 *
 * Clients are keyed by a keyed hash (HMAC with the shop's secret) of whatever identifies them — an address, an
 * address and a page, an account — so no raw address is ever stored.
 */

export interface RateLimit {
  /** Names the limit in its buckets, so two limits on the same client never share a count. */
  name: string;
  /** Tries allowed per window; the next one is refused until the window ends. */
  limit: number;
  windowMs: number;
}

export interface RateVerdict {
  allowed: boolean;
  /** Tries counted in the current window, this one included. */
  count: number;
  /** Whole seconds until the window ends (the `Retry-After` answer), at least 1. */
  retryAfterSeconds: number;
}

export class RateLimiter {
  #store: RateLimitRepository;
  #secret: string;

  constructor(store: RateLimitRepository, secret: string) {
    this.#store = store;
    this.#secret = secret;
  }

  /** Counts one try of `client` against `limit`. */
  async take(limit: RateLimit, client: string, now = Date.now()): Promise<RateVerdict> {
    const { bucket, windowStart, windowEnd } = this.#window(limit, client, now);
    const count = await this.#store.hit(bucket, windowStart, windowEnd);
    return { allowed: count <= limit.limit, count, retryAfterSeconds: secondsUntil(windowEnd, now) };
  }

  /**
   * Counts several tries of several clients against `limit` at once (one transaction) and answers how many of each
   * client's tries fall within the limit: a batch of records decides which to keep without a write per record.
   */
  async takeMany(
    limit: RateLimit,
    tries: ReadonlyMap<string, number>,
    now = Date.now(),
  ): Promise<Map<string, number>> {
    const clients = [...tries.keys()];
    const windowStart = now - (now % limit.windowMs);
    const counts = await this.#store.hitMany(
      clients.map((client) => ({ bucket: this.#bucket(limit, client), tries: tries.get(client) ?? 0 })),
      windowStart,
      windowStart + limit.windowMs,
    );
    return new Map(
      clients.map((client, i) => {
        const wanted = tries.get(client) ?? 0;
        const before = (counts[i] ?? 0) - wanted;
        return [client, Math.max(0, Math.min(wanted, limit.limit - before))];
      }),
    );
  }

  /** Whether `client` is already past `limit` in this window, without counting a try. */
  async check(limit: RateLimit, client: string, now = Date.now()): Promise<RateVerdict> {
    const { bucket, windowStart, windowEnd } = this.#window(limit, client, now);
    const count = await this.#store.peek(bucket, windowStart);
    return { allowed: count < limit.limit, count, retryAfterSeconds: secondsUntil(windowEnd, now) };
  }

  /** Forgets `client`'s tries against `limit` (a right password after wrong ones). */
  async reset(limit: RateLimit, client: string): Promise<void> {
    await this.#store.clear(this.#bucket(limit, client));
  }

  deleteExpired(now = Date.now()): Promise<number> {
    return this.#store.deleteExpired(now);
  }

  #bucket(limit: RateLimit, client: string): string {
    const hash = createHmac('sha256', this.#secret).update(`${limit.name}|${client}`).digest('base64url');
    return `${limit.name}:${hash.slice(0, 27)}`;
  }

  #window(limit: RateLimit, client: string, now: number) {
    const windowStart = now - (now % limit.windowMs);
    return { bucket: this.#bucket(limit, client), windowStart, windowEnd: windowStart + limit.windowMs };
  }
}

function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

/**
 * Refuses a request past its limit: 429 `rate_limited` with `Retry-After` and a message a person reads. Pages and
 * APIs both go through the app's error handler, which answers in the request's format.
 */
export function refuseWhenLimited(reply: FastifyReply, verdict: RateVerdict, message: string): void {
  if (verdict.allowed) return;
  reply.header('Retry-After', String(verdict.retryAfterSeconds));
  throw new ShopError('rate_limited', message, { retryAfterSeconds: verdict.retryAfterSeconds });
}
