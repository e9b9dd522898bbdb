import pg from 'pg';
import type { Repositories } from '../ports';
import type { PgPool } from './openPostgres';
import { PgApiKeyRepository } from './PgApiKeyRepository';
import { PgAttributionRepository } from './PgAttributionRepository';
import { PgCatalogRepository } from './PgCatalogRepository';
import { PgFacetRepository } from './PgFacetRepository';
import { PgInsightsRepository } from './PgInsightsRepository';
import { PgMailOutboxRepository } from './PgMailOutboxRepository';
import { PgMediaRepository } from './PgMediaRepository';
import { PgMerchandisingRepository } from './PgMerchandisingRepository';
import { PgOptionRepository } from './PgOptionRepository';
import { PgOrderAdminRepository } from './PgOrderAdminRepository';
import { PgOrderRepository } from './PgOrderRepository';
import { PgOwnerAuthRepository } from './PgOwnerAuthRepository';
import { PgPageVersionRepository } from './PgPageVersionRepository';
import { PgPostRepository } from './PgPostRepository';
import { PgRateLimitRepository } from './PgRateLimitRepository';
import { PgReviewRepository } from './PgReviewRepository';
import { PgSearchRepository } from './PgSearchRepository';
import { PgSessionRepository } from './PgSessionRepository';
import { PgStatsRepository } from './PgStatsRepository';
import { PgStockAlertRepository } from './PgStockAlertRepository';
import { PgVisitorMetaRepository } from './PgVisitorMetaRepository';
import { PgWebhookRepository } from './PgWebhookRepository';

/** Advisory lock of first-start seeding (the migrations hold 7263001). */
const FIRST_START_LOCK = 7263005;

/** Every repository on one PostgreSQL pool (DATABASE_URL=postgres://…); see createSqliteRepositories. */
export function createPgRepositories(pool: PgPool): Repositories {
  return {
    catalog: new PgCatalogRepository(pool),
    rateLimits: new PgRateLimitRepository(pool),
    ownerAuth: new PgOwnerAuthRepository(pool),
    sessions: new PgSessionRepository(pool),
    orders: new PgOrderRepository(pool),
    orderAdmin: new PgOrderAdminRepository(pool),
    options: new PgOptionRepository(pool),
    posts: new PgPostRepository(pool),
    media: new PgMediaRepository(pool),
    visitorMeta: new PgVisitorMetaRepository(pool),
    attribution: new PgAttributionRepository(pool),
    stats: new PgStatsRepository(pool),
    search: new PgSearchRepository(pool),
    facets: new PgFacetRepository(pool),
    pageVersions: new PgPageVersionRepository(pool),
    insights: new PgInsightsRepository(pool),
    apiKeys: new PgApiKeyRepository(pool),
    mailOutbox: new PgMailOutboxRepository(pool),
    reviews: new PgReviewRepository(pool),
    merchandising: new PgMerchandisingRepository(pool),
    stockAlerts: new PgStockAlertRepository(pool),
    webhooks: new PgWebhookRepository(pool),
    async ping() {
      await pool.query('SELECT 1');
    },
    async firstStart(work) {
      // A connection of its own holds the lock, so the work may use every connection of the pool.
      const lock = new pg.Client(pool.options);
      await lock.connect();
      try {
        await lock.query('SELECT pg_advisory_lock($1)', [FIRST_START_LOCK]);
        return await work();
      } finally {
        await lock.end();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
