import type { OptionRepository } from '../ports';
import type { PgPool } from './openPostgres';

export class PgOptionRepository implements OptionRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async get(key: string) {
    const { rows } = await this.#pool.query('SELECT value FROM options WHERE key = $1', [key]);
    return (rows[0]?.value as string | undefined) ?? null;
  }

  async setIfAbsent(key: string, value: string) {
    await this.#pool.query('INSERT INTO options (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      key,
      value,
    ]);
    return (await this.get(key)) as string;
  }
}
