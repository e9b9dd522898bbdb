export interface CartLine {
  /** Stable key of the line: the same product, variation and attributes always give the same key. */
  key: string;
  productId: number;
  variationId: number | null;
  /** The chosen values, keyed `attribute_{slug}`, including values a variation left as "any". */
  attributes: Record<string, string>;
  quantity: number;
}

export interface Session {
  id: string;
  cart: CartLine[];
  expiresAt: number;
}

export interface SessionRepository {
  get(id: string, now: number): Promise<Session | null>;
  /** Creates the session if it does not exist yet, and pushes its expiry forward. */
  saveCart(id: string, cart: CartLine[], expiresAt: number): Promise<void>;
  /**
   * Reads the cart, applies `update` and writes the result atomically (creating the session if needed), so two
   * tabs changing different lines at once never undo each other. `update` is synchronous; if it throws, nothing
   * is written. Returns the cart as written.
   */
  updateCart(id: string, update: (cart: CartLine[]) => CartLine[], expiresAt: number): Promise<CartLine[]>;
  deleteExpired(now: number): Promise<number>;
}
