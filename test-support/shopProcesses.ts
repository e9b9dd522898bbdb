import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { seedDemoCatalog } from '../src/server/catalog/import/seedDemoCatalog';
import { openDatabase } from '../src/server/db/openDatabase';
import type { Repositories } from '../src/server/db/ports';
import {
  type ChangeNotifications,
  pgChangeNotifications,
} from '../src/server/db/postgres/changeNotifications';
import { createPgRepositories } from '../src/server/db/postgres/createPgRepositories';
import { openPostgres } from '../src/server/db/postgres/openPostgres';
import { createTestDatabase, TEST_DATABASE_URL } from '../src/server/db/postgres/testDatabase';
import { createSqliteRepositories } from '../src/server/db/sqlite/createSqliteRepositories';
import type { MailOptions } from '../src/server/mail/mailPlugin';
import { createPostgresSearchIndex } from '../src/server/search/postgres/PostgresSearchIndex';
import type { SearchIndex } from '../src/server/search/SearchIndex';
import type { WebhookOptions } from '../src/server/webhooks/webhooksPlugin';
import { parseSettings } from '../src/shared/settings/parseSettings';
import { TEST_SECRET, withPageCacheOffUnlessSet } from './createTestApp';
import { pgQuery } from './testRepositories';

export interface ShopProcesses {
  /** One app per "process": each with its own connection (SQLite) or pool (PostgreSQL) to the one database. */
  apps: FastifyInstance[];
  /** Each process's repositories, in the order of `apps`. */
  repositories: Repositories[];
  /** Rows of a query on the shared database (`?` placeholders), through the first process's connection. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * Several server processes on one database, as a scaled-out shop runs: the demo catalog seeded once, then `count`
 * apps built on their own connections. SQLite under `npm test`, one PostgreSQL database under `npm run
 * test:postgres`, so concurrency rules are checked on both engines rather than on one connection's luck. On
 * PostgreSQL each process searches as main.ts sets it up: its own replica, woken by change notifications.
 */
export async function openShopProcesses(
  count: number,
  settings: unknown = {},
  /** Each process's order mail options (default: `.eml` files in the shared data dir). */
  mail?: (processIndex: number) => MailOptions,
  /** Each process's webhook delivery options (default: fetch, at once and on a timer). */
  webhooks?: (processIndex: number) => WebhookOptions,
): Promise<ShopProcesses> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-processes-'));
  let drop = async () => {};
  let query: ShopProcesses['query'];
  const repositories: Repositories[] = [];
  /** On PostgreSQL, what main.ts gives each process: the shared fallback index and the change notifications. */
  const searchStorage: { searchFallback?: SearchIndex; changeNotifications?: ChangeNotifications }[] = [];
  if (TEST_DATABASE_URL) {
    const database = await createTestDatabase();
    drop = database.drop;
    for (let i = 0; i < count; i++) {
      const pool = await openPostgres(database.url, { max: 4 });
      repositories.push(createPgRepositories(pool));
      searchStorage.push({
        searchFallback: await createPostgresSearchIndex(pool),
        changeNotifications: pgChangeNotifications(database.url),
      });
    }
    const pool = await openPostgres(database.url, { max: 1 });
    const previousDrop = drop;
    drop = async () => {
      await pool.end();
      await previousDrop();
    };
    query = pgQuery(pool);
  } else {
    for (let i = 0; i < count; i++) repositories.push(createSqliteRepositories(openDatabase(dataDir)));
    const db = openDatabase(dataDir);
    const previousDrop = drop;
    drop = async () => {
      db.close();
      await previousDrop();
    };
    query = async <T>(sql: string, params: unknown[] = []) => {
      const statement = db.prepare(sql);
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    };
  }
  await seedDemoCatalog(repositories[0] as Repositories);
  const config = parseSettings(withPageCacheOffUnlessSet(settings));
  const apps: FastifyInstance[] = [];
  for (const [index, repos] of repositories.entries()) {
    const app = await buildApp({
      config,
      repositories: repos,
      secret: TEST_SECRET,
      assets: { scripts: [], styles: [], preloads: [] },
      dataDir,
      ...searchStorage[index],
      mail: mail?.(index),
      webhooks: webhooks?.(index),
    });
    await app.ready();
    apps.push(app);
  }
  return {
    apps,
    repositories,
    query,
    async close() {
      for (const app of apps) await app.close();
      for (const storage of searchStorage) await storage.changeNotifications?.close();
      for (const repos of repositories) await repos.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
