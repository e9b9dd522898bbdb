import { randomBytes } from 'node:crypto';
import type { CartLine, Session, SessionRepository } from '../db/ports';

export const SESSION_COOKIE = 'shop_session';

interface CookieWriter {
  setCookie(name: string, value: string, options: Record<string, unknown>): unknown;
}

/**
 * The visitor's server-side session, stored only when there is something to keep (a cart), so bots and
 * browsing visitors cost no database write. Its id lives in an HttpOnly cookie; everything else in the store,
 * so any server process can serve the next request. A page that hands out a nonce mints the id first (a cookie,
 * still no row): nonces are bound to a real per-visitor id, never to a shared "no session".
 */
export class VisitorSession {
  #store: SessionRepository;
  #ttlMs: number;
  #cookies: CookieWriter;
  #secure: boolean;
  #beforeCreate: () => Promise<void>;
  #loaded: Promise<Session | null> | null = null;
  id: string | null;
  /**
   * The page being rendered is the one every anonymous visitor gets from the render cache
   * (render/pageCache): nothing of this visitor may go into it, so nonces are left empty and the cart is empty.
   */
  shared = false;

  constructor(options: {
    store: SessionRepository;
    ttlMs: number;
    cookieValue: string | undefined;
    cookies: CookieWriter;
    secure: boolean;
    /** Runs before a new session row is stored; throws to refuse it (the limit on new carts per client). */
    beforeCreate?: () => Promise<void>;
  }) {
    this.#beforeCreate = options.beforeCreate ?? (async () => {});
    this.#store = options.store;
    this.#ttlMs = options.ttlMs;
    this.#cookies = options.cookies;
    this.#secure = options.secure;
    this.id =
      options.cookieValue && /^[A-Za-z0-9_-]{32,64}$/.test(options.cookieValue) ? options.cookieValue : null;
  }

  /** The stored session, or null for a new visitor or an expired session. */
  load(): Promise<Session | null> {
    if (!this.#loaded) {
      const id = this.id;
      this.#loaded = id ? this.#store.get(id, Date.now()) : Promise.resolve(null);
    }
    return this.#loaded;
  }

  /** The visitor's id, minted (random, in the HttpOnly cookie, no database write) when there is none yet. */
  ensureId(): string {
    if (this.id === null) {
      this.id = randomBytes(24).toString('base64url');
      this.#setCookie(this.id);
      // An id minted just now has no row: reading the cart later in this request needs no round trip.
      this.#loaded ??= Promise.resolve(null);
    }
    return this.id;
  }

  async cart(): Promise<CartLine[]> {
    return (await this.load())?.cart ?? [];
  }

  async saveCart(cart: CartLine[]): Promise<void> {
    await this.updateCart(() => cart);
  }

  /** Changes the stored cart atomically from its latest state (see SessionRepository.updateCart). */
  async updateCart(update: (cart: CartLine[]) => CartLine[]): Promise<CartLine[]> {
    if (!(await this.load())) await this.#beforeCreate();
    const expiresAt = Date.now() + this.#ttlMs;
    // An id without a row (minted for a nonce, or expired) is kept: the nonces on the visitor's page stay valid.
    const id = this.id ?? randomBytes(24).toString('base64url');
    this.id = id;
    const cart = await this.#store.updateCart(id, update, expiresAt);
    this.#loaded = Promise.resolve({ id, cart, expiresAt });
    this.#setCookie(id);
    return cart;
  }

  #setCookie(id: string) {
    this.#cookies.setCookie(SESSION_COOKIE, id, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      maxAge: Math.floor(this.#ttlMs / 1000),
    });
  }
}
