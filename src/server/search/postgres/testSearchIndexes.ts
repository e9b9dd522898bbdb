import pg from 'pg';
import { survivingDroppedConnections } from '../../db/postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../../db/postgres/testDatabase';
import { MemorySearchIndex } from '../MemorySearchIndex';
import type { RelevanceRules, SearchIndex } from '../SearchIndex';
import { PostgresSearchIndex } from './PostgresSearchIndex';

/**
 * The search engines the relevance tests run on: the embedded index always, the PostgreSQL index when
 * TEST_DATABASE_URL is set (`node scripts/ensure-postgres.mjs -- npx vitest run src/server/search`). Each engine
 * is used by one describe block: `setup` in beforeAll, `teardown` in afterAll, `make` for each index (on
 * PostgreSQL, each in its own schema of one test database).
 */
interface TestSearchEngine {
  name: string;
  skip: boolean;
  setup(): Promise<void>;
  teardown(): Promise<void>;
  make(rules?: RelevanceRules): Promise<SearchIndex>;
}

export function testSearchEngines(): TestSearchEngine[] {
  let pool: pg.Pool | null = null;
  let drop: (() => Promise<void>) | null = null;
  let schemas = 0;
  return [
    {
      name: 'MemorySearchIndex',
      skip: false,
      async setup() {},
      async teardown() {},
      async make(rules) {
        return new MemorySearchIndex(rules);
      },
    },
    {
      name: 'PostgresSearchIndex',
      skip: !TEST_DATABASE_URL,
      async setup() {
        const database = await createTestDatabase();
        drop = database.drop;
        pool = survivingDroppedConnections(new pg.Pool({ connectionString: database.url, max: 4 }));
      },
      async teardown() {
        await pool?.end();
        await drop?.();
      },
      async make(rules) {
        if (!pool) throw new Error('setup() first');
        const index = new PostgresSearchIndex(pool, { schema: `search_test_${++schemas}`, rules });
        await index.ensureSchema();
        return index;
      },
    },
  ];
}
