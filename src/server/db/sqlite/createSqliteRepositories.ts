import { statSync } from 'node:fs';
import type { SqliteDatabase } from '../openDatabase';
import type { Repositories } from '../ports';
import { SqliteApiKeyRepository } from './SqliteApiKeyRepository';
import { SqliteAttributionRepository } from './SqliteAttributionRepository';
import { SqliteCatalogRepository } from './SqliteCatalogRepository';
import { SqliteFacetRepository } from './SqliteFacetRepository';
import { SqliteImportHandoffs } from './SqliteImportHandoffs';
import { SqliteInsightsRepository } from './SqliteInsightsRepository';
import { SqliteMailOutboxRepository } from './SqliteMailOutboxRepository';
import { SqliteMediaRepository } from './SqliteMediaRepository';
import { SqliteMerchandisingRepository } from './SqliteMerchandisingRepository';
import { SqliteOptionRepository } from './SqliteOptionRepository';
import { SqliteOrderAdminRepository } from './SqliteOrderAdminRepository';
import { SqliteOrderRepository } from './SqliteOrderRepository';
import { SqliteOwnerAuthRepository } from './SqliteOwnerAuthRepository';
import { SqlitePageVersionRepository } from './SqlitePageVersionRepository';
import { SqlitePostRepository } from './SqlitePostRepository';
import { SqliteRateLimitRepository } from './SqliteRateLimitRepository';
import { SqliteReviewRepository } from './SqliteReviewRepository';
import { SqliteSearchRepository } from './SqliteSearchRepository';
import { SqliteSessionRepository } from './SqliteSessionRepository';
import { SqliteStatsRepository } from './SqliteStatsRepository';
import { SqliteStockAlertRepository } from './SqliteStockAlertRepository';
import { SqliteVisitorMetaRepository } from './SqliteVisitorMetaRepository';
import { SqliteWebhookRepository } from './SqliteWebhookRepository';

/** The file's identity when it was opened; null for an in-memory database. */
function fileIdentity(path: string): string | null {
  if (path === ':memory:' || path === '') return null;
  const stats = statSync(path);
  return `${stats.dev}:${stats.ino}`;
}

export function createSqliteRepositories(db: SqliteDatabase): Repositories {
  const opened = fileIdentity(db.name);
  // Imports by `npm run import` hand their search documents to the server processes through a side file.
  const handoffs = opened === null ? undefined : new SqliteImportHandoffs(db.name);
  return {
    catalog: new SqliteCatalogRepository(db, handoffs),
    rateLimits: new SqliteRateLimitRepository(db),
    ownerAuth: new SqliteOwnerAuthRepository(db),
    sessions: new SqliteSessionRepository(db),
    orders: new SqliteOrderRepository(db),
    orderAdmin: new SqliteOrderAdminRepository(db),
    options: new SqliteOptionRepository(db),
    posts: new SqlitePostRepository(db),
    media: new SqliteMediaRepository(db),
    visitorMeta: new SqliteVisitorMetaRepository(db),
    attribution: new SqliteAttributionRepository(db),
    stats: new SqliteStatsRepository(db),
    search: new SqliteSearchRepository(db, handoffs),
    facets: new SqliteFacetRepository(db),
    pageVersions: new SqlitePageVersionRepository(db),
    insights: new SqliteInsightsRepository(db),
    apiKeys: new SqliteApiKeyRepository(db),
    mailOutbox: new SqliteMailOutboxRepository(db),
    reviews: new SqliteReviewRepository(db),
    merchandising: new SqliteMerchandisingRepository(db),
    stockAlerts: new SqliteStockAlertRepository(db),
    webhooks: new SqliteWebhookRepository(db),
    async ping() {
      db.prepare('SELECT 1').get();
      // A deleted file stays readable through the open handle: only its path tells that it is gone.
      if (opened !== null && fileIdentity(db.name) !== opened) {
        throw new Error(`The database file ${db.name} was deleted or replaced while the shop was running`);
      }
    },
    async firstStart(work) {
      // One process owns a SQLite file's first start; a second one on the same file waits on its write lock.
      return work();
    },
    async close() {
      handoffs?.close();
      db.close();
    },
  };
}
