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
import { queryNamed } from './namedQuery';
import type { PgPool } from './openPostgres';

export class PgApiKeyRepository implements ApiKeyRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async createApiKey(key: NewApiKey) {
    const [row] = await queryNamed<ApiKeyRow>(this.#pool, INSERT_API_KEY, { ...key });
    return toApiKey(row as ApiKeyRow);
  }

  async listApiKeys() {
    return (await queryNamed<ApiKeyRow>(this.#pool, LIST_API_KEYS, {})).map(toApiKey);
  }

  async findLiveApiKey(keyHash: string) {
    const [row] = await queryNamed<ApiKeyRow>(this.#pool, FIND_LIVE_API_KEY, { keyHash });
    return row ? { ...toApiKey(row), secretHash: String(row.secret_hash) } : null;
  }

  async touchApiKey(id: number, now: number) {
    await queryNamed(this.#pool, TOUCH_API_KEY, { id, now, staleBefore: now - LAST_ACCESS_RESOLUTION_MS });
  }

  async revokeApiKey(id: number, now: number) {
    return (await queryNamed(this.#pool, REVOKE_API_KEY, { id, now })).length > 0;
  }
}
