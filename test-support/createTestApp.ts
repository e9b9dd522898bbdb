import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { seedDemoCatalog } from '../src/server/catalog/import/seedDemoCatalog';
import { openDatabase, type SqliteDatabase } from '../src/server/db/openDatabase';
import type { Repositories } from '../src/server/db/ports';
import { createSqliteRepositories } from '../src/server/db/sqlite/createSqliteRepositories';
import type { MailOptions } from '../src/server/mail/mailPlugin';
import type { SearchIndex } from '../src/server/search/SearchIndex';
import type { SuggestionDecorator } from '../src/server/search/SuggestionBuilder';
import type { WebhookOptions } from '../src/server/webhooks/webhooksPlugin';
import { parseSettings } from '../src/shared/settings/parseSettings';
import { testRepositories } from './testRepositories';

export interface TestAppOptions {
  /** Settings over the defaults, as a SHOP_CONFIG file would hold them. */
  settings?: unknown;
  /** Seed the demo catalog (default true). */
  seed?: boolean;
  /** The HMAC secret for nonces (default 40 × 'x'). */
  secret?: string;
  /** The search index (default: the embedded one). */
  searchIndex?: SearchIndex;
  /** Decorators filling the suggestion slots (default none). */
  suggestionDecorators?: SuggestionDecorator[];
  /** Order mail's transport, clock and loop (default: `.eml` files in the data dir, sent at once). */
  mail?: MailOptions;
  /** Webhook delivery's poster, clock and loop (default: fetch, delivered at once and on a timer). */
  webhooks?: WebhookOptions;
}

export interface TestApp {
  app: FastifyInstance;
  repositories: Repositories;
  /**
   * The SQLite connection behind `repositories`, for assertions on rows. Under `npm run test:postgres` the
   * repositories are PostgreSQL ones and reading this throws: use `query`, which works on both engines.
   */
  db: SqliteDatabase;
  /** Rows of a query on whichever engine the repositories use (`?` placeholders). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Under `npm run test:postgres`, the test's own database (for a second connection); null on SQLite. */
  databaseUrl: string | null;
  dataDir: string;
  /** Closes the app and the database and removes the data dir. */
  close(): Promise<void>;
}

export const TEST_SECRET = 'x'.repeat(40);

/**
 * Tests of a feature drive its pages as rendered for the visitor, with the nonces in the page, as the shop did
 * before the render cache: `server.pageCache.maxBytes` is 0 unless a test sets it. The render cache has its own
 * tests (src/server/render/pageCache/), where cached pages get their nonces the way the browser does, and the
 * browser tests run the built shop with the cache on.
 */
export function withPageCacheOffUnlessSet(settings: unknown = {}): unknown {
  const given = (settings ?? {}) as { server?: { pageCache?: Record<string, unknown> } };
  if (given.server?.pageCache?.maxBytes !== undefined) return given;
  return {
    ...given,
    server: { ...given.server, pageCache: { ...given.server?.pageCache, maxBytes: 0 } },
  };
}

/**
 * A fresh shop for one test file: a new temp data dir, the demo catalog seeded, and the app built (never
 * listening) so tests drive it with `app.inject()`.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shop-'));
  const engine = await testRepositories(() => {
    const db = openDatabase(dataDir);
    return { db, repositories: createSqliteRepositories(db) };
  });
  const { repositories } = engine;
  try {
    if (options.seed ?? true) await seedDemoCatalog(repositories);
    const app = await buildApp({
      config: parseSettings(withPageCacheOffUnlessSet(options.settings)),
      repositories,
      secret: options.secret ?? TEST_SECRET,
      assets: { scripts: [], styles: [], preloads: [] },
      dataDir,
      searchIndex: options.searchIndex ?? engine.searchIndex,
      suggestionDecorators: options.suggestionDecorators,
      mail: options.mail,
      webhooks: options.webhooks,
    });
    await app.ready();
    return {
      app,
      repositories,
      get db() {
        return engine.db();
      },
      query: engine.query,
      databaseUrl: engine.databaseUrl,
      dataDir,
      async close() {
        await app.close();
        await repositories.close();
        await engine.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await repositories.close();
    await engine.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
