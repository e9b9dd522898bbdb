import type Database from 'better-sqlite3';
import type { VisitorMetaRepository } from '../ports';

export class SqliteVisitorMetaRepository implements VisitorMetaRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async get(sessionId: string, key: string) {
    return (
      (this.#db
        .prepare('SELECT value FROM visitor_meta WHERE session_id = ? AND key = ?')
        .pluck()
        .get(sessionId, key) as string | undefined) ?? null
    );
  }

  async set(sessionId: string, key: string, value: string) {
    this.#db
      .prepare(
        `INSERT INTO visitor_meta (session_id, key, value) VALUES (?, ?, ?)
         ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value`,
      )
      .run(sessionId, key, value);
  }
}
