import type { CartLine, Session, SessionRepository } from '../ports';
import { inTransaction, type PgPool } from './openPostgres';

const UPSERT = `INSERT INTO sessions (id, cart, created_at, expires_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (id) DO UPDATE SET cart = excluded.cart, expires_at = excluded.expires_at`;

export class PgSessionRepository implements SessionRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async get(id: string, now: number): Promise<Session | null> {
    // Every page with a cart reads it: a prepared statement.
    const { rows } = await this.#pool.query({
      name: 'session-get',
      text: 'SELECT id, cart, expires_at FROM sessions WHERE id = $1 AND expires_at > $2',
      values: [id, now],
    });
    const row = rows[0] as { id: string; cart: string; expires_at: number } | undefined;
    return row ? { id: row.id, cart: JSON.parse(row.cart) as CartLine[], expiresAt: row.expires_at } : null;
  }

  async saveCart(id: string, cart: CartLine[], expiresAt: number): Promise<void> {
    await this.#pool.query(UPSERT, [id, JSON.stringify(cart), Date.now(), expiresAt]);
  }

  async updateCart(
    id: string,
    update: (cart: CartLine[]) => CartLine[],
    expiresAt: number,
  ): Promise<CartLine[]> {
    return inTransaction(this.#pool, async (client) => {
      // The row must exist to be locked: create it empty first, then read it FOR UPDATE, so two processes
      // changing the same cart take turns (SQLite's BEGIN IMMEDIATE does the same for one file).
      await client.query(
        `INSERT INTO sessions (id, cart, created_at, expires_at) VALUES ($1, '[]', $2, $3)
         ON CONFLICT (id) DO NOTHING`,
        [id, Date.now(), expiresAt],
      );
      const { rows } = await client.query('SELECT cart, expires_at FROM sessions WHERE id = $1 FOR UPDATE', [
        id,
      ]);
      const row = rows[0] as { cart: string; expires_at: number };
      const cart = update(row.expires_at > Date.now() ? (JSON.parse(row.cart) as CartLine[]) : []);
      await client.query(UPSERT, [id, JSON.stringify(cart), Date.now(), expiresAt]);
      return cart;
    });
  }

  async deleteExpired(now: number): Promise<number> {
    return (await this.#pool.query('DELETE FROM sessions WHERE expires_at <= $1', [now])).rowCount ?? 0;
  }
}
