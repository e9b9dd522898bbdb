/*
 * The storage interfaces ("ports") every feature goes through, one file per domain in this folder. The rule: every
 * port lives here, and each one has an adapter per engine with mirrored names, `sqlite/SqliteXRepository.ts` and
 * `postgres/PgXRepository.ts`; row mappers both adapters share live in db/ (orderRows.ts, catalogRows.ts …) and
 * SQL both engines run alike in db/sql/. Methods are async so the PostgreSQL adapter implements the same
 * interfaces; rows never leave an adapter: it returns the domain types of src/shared.
 */

import type { ApiKeyRepository } from './apiKeys';
import type { AttributionRepository } from './attribution';
import type { CatalogRepository } from './catalog';
import type { FacetRepository } from './facets';
import type { InsightsRepository } from './insights';
import type { MailOutboxRepository } from './mailOutbox';
import type { MediaRepository } from './media';
import type { MerchandisingRepository } from './merchandising';
import type { OptionRepository } from './options';
import type { OrderAdminRepository } from './orderAdmin';
import type { OrderRepository } from './orders';
import type { OwnerAuthRepository } from './ownerAuth';
import type { PageVersionRepository } from './pageVersions';
import type { PostRepository } from './posts';
import type { RateLimitRepository } from './rateLimits';
import type { ReviewRepository } from './reviews';
import type { SearchRepository } from './search';
import type { SessionRepository } from './sessions';
import type { StatsRepository } from './stats';
import type { StockAlertRepository } from './stockAlerts';
import type { VisitorMetaRepository } from './visitorMeta';
import type { WebhookRepository } from './webhooks';

export * from './apiKeys';
export type * from './attribution';
export type * from './catalog';
export type * from './facets';
export type * from './insights';
export type * from './mailOutbox';
export type * from './media';
export type * from './merchandising';
export type * from './options';
export type * from './orderAdmin';
export type * from './orders';
export type * from './ownerAuth';
export type * from './pageVersions';
export type * from './posts';
export type * from './rateLimits';
export type * from './reviews';
export type * from './search';
export type * from './sessions';
export type * from './stats';
export type * from './stockAlerts';
export type * from './visitorMeta';
export type * from './webhooks';

export interface Repositories {
  catalog: CatalogRepository;
  rateLimits: RateLimitRepository;
  ownerAuth: OwnerAuthRepository;
  sessions: SessionRepository;
  orders: OrderRepository;
  orderAdmin: OrderAdminRepository;
  options: OptionRepository;
  posts: PostRepository;
  media: MediaRepository;
  visitorMeta: VisitorMetaRepository;
  attribution: AttributionRepository;
  stats: StatsRepository;
  search: SearchRepository;
  facets: FacetRepository;
  /** The catalog's version for the render cache of anonymous pages. */
  pageVersions: PageVersionRepository;
  insights: InsightsRepository;
  mailOutbox: MailOutboxRepository;
  reviews: ReviewRepository;
  merchandising: MerchandisingRepository;
  stockAlerts: StockAlertRepository;
  webhooks: WebhookRepository;
  apiKeys: ApiKeyRepository;
  /**
   * Answers when the database is reachable and is still the one the shop opened (GET /healthz): a SQLite file
   * deleted or replaced under the running shop fails, so the shop stops taking orders nobody will keep.
   */
  ping(): Promise<void>;
  /**
   * Runs first-start writes (seeding the demo catalog, the shared secret) one process at a time, so several
   * processes starting together on an empty database seed it once, like the migrations.
   */
  firstStart<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type * from './search';
