import type Database from 'better-sqlite3';
import type { CartLine, Session, SessionRepository } from '../ports';
import { writeWhenFree } from './withoutBusyWait';

export class SqliteSessionRepository implements SessionRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async get(id: string, now: number): Promise<Session | null> {
    const row = this.#db
      .prepare('SELECT id, cart, expires_at FROM sessions WHERE id = ? AND expires_at > ?')
      .get(id, now) as { id: string; cart: string; expires_at: number } | undefined;
    return row ? { id: row.id, cart: JSON.parse(row.cart) as CartLine[], expiresAt: row.expires_at } : null;
  }

  async saveCart(id: string, cart: CartLine[], expiresAt: number): Promise<void> {
    // A cart change waits out an import (writeWhenFree) instead of failing after the busy timeout.
    await writeWhenFree(this.#db, () =>
      this.#db
        .prepare(
          `INSERT INTO sessions (id, cart, created_at, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET cart = excluded.cart, expires_at = excluded.expires_at`,
        )
        .run(id, JSON.stringify(cart), Date.now(), expiresAt),
    );
  }

  async updateCart(
    id: string,
    update: (cart: CartLine[]) => CartLine[],
    expiresAt: number,
  ): Promise<CartLine[]> {
    // IMMEDIATE takes the write lock before the read, so another process cannot write in between; an import's lock
    // is waited out without holding the process (writeWhenFree).
    return writeWhenFree(this.#db, () =>
      this.#db
        .transaction(() => {
          const row = this.#db
            .prepare('SELECT cart FROM sessions WHERE id = ? AND expires_at > ?')
            .pluck()
            .get(id, Date.now()) as string | undefined;
          const cart = update(row ? (JSON.parse(row) as CartLine[]) : []);
          this.#db
            .prepare(
              `INSERT INTO sessions (id, cart, created_at, expires_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET cart = excluded.cart, expires_at = excluded.expires_at`,
            )
            .run(id, JSON.stringify(cart), Date.now(), expiresAt);
          return cart;
        })
        .immediate(),
    );
  }

  async deleteExpired(now: number): Promise<number> {
    return this.#db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(now).changes;
  }
}
