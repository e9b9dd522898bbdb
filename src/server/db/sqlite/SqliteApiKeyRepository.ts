import type Database from 'better-sqlite3';
import type { ApiKeyRepository, NewApiKey } from '../ports';
import {
  type ApiKeyRow,
  FIND_LIVE_API_KEY,
  INSERT_API_KEY,
  LAST_ACCESS_RESOLUTION_MS,
  LIST_API_KEYS,
  REVOKE_API_KEY,
  TOUCH_API_KEY,
  toApiKey,
} from '../sql/apiKeySql';

export class SqliteApiKeyRepository implements ApiKeyRepository {
  #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
  }

  async createApiKey(key: NewApiKey) {
    return toApiKey(this.#db.prepare(INSERT_API_KEY).get(key) as ApiKeyRow);
  }

  async listApiKeys() {
    return (this.#db.prepare(LIST_API_KEYS).all() as ApiKeyRow[]).map(toApiKey);
  }

  async findLiveApiKey(keyHash: string) {
    const row = this.#db.prepare(FIND_LIVE_API_KEY).get({ keyHash }) as ApiKeyRow | undefined;
    return row ? { ...toApiKey(row), secretHash: String(row.secret_hash) } : null;
  }

  async touchApiKey(id: number, now: number) {
    this.#db.prepare(TOUCH_API_KEY).run({ id, now, staleBefore: now - LAST_ACCESS_RESOLUTION_MS });
  }

  async revokeApiKey(id: number, now: number) {
    return this.#db.prepare(REVOKE_API_KEY).all({ id, now }).length > 0;
  }
}
