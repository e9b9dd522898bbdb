import type Database from 'better-sqlite3';
import type { OptionRepository } from '../ports';

export class SqliteOptionRepository implements OptionRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async get(key: string) {
    return (
      (this.#db.prepare('SELECT value FROM options WHERE key = ?').pluck().get(key) as string | undefined) ??
      null
    );
  }

  async setIfAbsent(key: string, value: string) {
    this.#db.prepare('INSERT OR IGNORE INTO options (key, value) VALUES (?, ?)').run(key, value);
    return this.#db.prepare('SELECT value FROM options WHERE key = ?').pluck().get(key) as string;
  }
}
