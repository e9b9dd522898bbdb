import type { OrderAttribution } from '../../shared/attribution/orderAttribution';
import type {
  CatalogVisibility,
  Post,
  ProductDetail,
  ProductOrdering,
  ProductSummary,
  Taxonomy,
  Term,
  Vendor,
} from '../../shared/catalog/types';
import type { DayRange } from '../../shared/dates/dayRange';
import type { SearchesPanel, SourcesPanel, VisitorsPanel } from '../../shared/insights/insightsTypes';
import type { BillingDetails, NewOrderLine, Order } from '../../shared/orders/orderTypes';
import type { OnlineEntry, StatsRecord, StatsReport } from '../../shared/stats/statsTypes';
import type { CatalogImport, ImportSummary } from '../catalog/import/catalogImport';
import type { SearchRepository } from '../search/SearchRepository';

/*
 * The storage interfaces every feature goes through. Methods are async from day one so a PostgreSQL adapter can
 * implement the same interfaces; rows never leave an adapter: it returns the domain types of src/shared.
 */

export interface ProductListQuery {
  /** Which catalog visibility applies: the shop's archives or search results (WooCommerce's catalog visibility). */
  context: 'shop' | 'search';
  featured?: boolean;
  /** Restrict to a term; categories include their descendants, as WooCommerce's archives do. */
  term?: Term;
  vendorId?: number;
  /** Only these products (search results from the search index); `relevance` keeps their order. */
  ids?: readonly number[];
  relevance?: boolean;
  orderby: ProductOrdering;
  page: number;
  perPage: number;
}

export interface ProductList {
  items: ProductSummary[];
  total: number;
}

export interface ImagePlaceholder {
  label: string;
  color: string;
}

export interface CatalogRepository {
  countProducts(): Promise<number>;
  listProducts(query: ProductListQuery): Promise<ProductList>;
  /** A published parent product (not a variation) by its slug or id, whatever its catalog visibility. */
  getProductBySlug(slug: string): Promise<ProductDetail | null>;
  getProductById(id: number): Promise<ProductDetail | null>;
  getTermByPath(taxonomy: Taxonomy, path: readonly string[]): Promise<Term | null>;
  listTerms(taxonomy: Taxonomy): Promise<Term[]>;
  getVendorBySlug(slug: string): Promise<Vendor | null>;
  listVendors(): Promise<Vendor[]>;
  /**
   * A post or page for its own page. Like every `Post`, a protected one has no excerpt or content; only here is
   * its body handed out, as `protectedContent`, for the page to show once the visitor has given the password.
   */
  getPostBySlug(
    slug: string,
  ): Promise<(Post & { passwordHash: string | null; protectedContent: string | null }) | null>;
  listPosts(type: Post['type'], limit: number): Promise<Post[]>;
  getImagePlaceholder(imageId: number): Promise<ImagePlaceholder | null>;
  /** The placeholder drawn for an attribute term's swatch image (its id is in `AttributeOption.image`). */
  getSwatchImagePlaceholder(termId: number): Promise<ImagePlaceholder | null>;
  /** Writes a whole import in one transaction: a failure leaves the catalog as it was. */
  importCatalog(
    catalog: CatalogImport,
    onProgress?: (done: number, total: number) => void,
  ): Promise<ImportSummary>;
}

export interface CartLine {
  /** Stable key of the line: the same product, variation and attributes always give the same key. */
  key: string;
  productId: number;
  variationId: number | null;
  /** The chosen values, keyed `attribute_{slug}`, including values a variation left as "any". */
  attributes: Record<string, string>;
  quantity: number;
}

export interface Session {
  id: string;
  cart: CartLine[];
  expiresAt: number;
}

export interface SessionRepository {
  get(id: string, now: number): Promise<Session | null>;
  /** Creates the session if it does not exist yet, and pushes its expiry forward. */
  saveCart(id: string, cart: CartLine[], expiresAt: number): Promise<void>;
  /**
   * Reads the cart, applies `update` and writes the result atomically (creating the session if needed), so two
   * tabs changing different lines at once never undo each other. `update` is synchronous; if it throws, nothing
   * is written. Returns the cart as written.
   */
  updateCart(id: string, update: (cart: CartLine[]) => CartLine[], expiresAt: number): Promise<CartLine[]>;
  deleteExpired(now: number): Promise<number>;
}

export interface NewOrder {
  orderKey: string;
  currency: string;
  paymentMethod: string;
  billing: BillingDetails;
  customerNote: string;
  sessionId: string;
  /**
   * The checkout form's key (minted with the page): a submit that carries the key of an order this session already
   * made answers that order instead of making another. Null for orders made without a form.
   */
  idempotencyKey: string | null;
  /**
   * The session's cart as the order's lines were priced from it. The cart is read again under the session's lock
   * inside the order's transaction: if it has changed or emptied since (another submit of the same cart won),
   * nothing is written.
   */
  pricedCart: readonly CartLine[];
  lines: NewOrderLine[];
  /** Where the buyer came from, written in the order's transaction; null without tracking. */
  attribution?: OrderAttribution | null;
}

export interface PlacedOrder {
  order: Order;
  /** True when the submit's key found an order made before: nothing was written this time. */
  replayed: boolean;
}

export interface OrderRepository {
  /**
   * Creates the order, its lines, the stock and sales changes and empties the session's cart in one
   * transaction, holding the session's lock so one cart makes one order on every engine. Answers the order the
   * idempotency key already made, if any. Throws a ShopError (empty_cart, cart_changed, out_of_stock,
   * not_purchasable) and writes nothing otherwise.
   */
  placeOrder(order: NewOrder): Promise<PlacedOrder>;
  getOrder(id: number): Promise<Order | null>;
  countOrders(): Promise<number>;
  /** The order a session made with a checkout form's key, if any (a replayed submit). */
  findByIdempotencyKey(sessionId: string, key: string): Promise<Order | null>;
}

export interface OptionRepository {
  get(key: string): Promise<string | null>;
  /** Sets the value only if the key has none yet, and returns the value that is stored (first writer wins). */
  setIfAbsent(key: string, value: string): Promise<string>;
}

export interface PostListQuery {
  type: Post['type'];
  page: number;
  perPage: number;
  /** Matched against title, excerpt and content; a password-protected post against its title only. */
  search?: string;
}

/** Posts and pages as the REST API lists them (wp/v2/posts, wp/v2/pages): newest first, paginated. */
export interface PostRepository {
  listPage(query: PostListQuery): Promise<{ items: Post[]; total: number }>;
  getById(type: Post['type'], id: number): Promise<Post | null>;
}

export interface MediaSize {
  /** Path under the uploads folder, `YYYY/MM/name-WxH.ext`. */
  file: string;
  width: number;
  height: number;
  mimeType: string;
  filesize: number;
}

export interface MediaAttachment {
  id: number;
  slug: string;
  title: string;
  altText: string;
  mimeType: string;
  /** The original's path under the uploads folder, `YYYY/MM/name.ext`. */
  file: string;
  filesize: number;
  width: number;
  height: number;
  sizes: Record<string, MediaSize>;
  /** False until every sub-size exists: the upload still needs its post-processing. */
  subsizesDone: boolean;
  createdAt: string;
}

export type NewMediaAttachment = Omit<MediaAttachment, 'id' | 'sizes' | 'subsizesDone' | 'createdAt'>;

export interface MediaRepository {
  create(attachment: NewMediaAttachment): Promise<MediaAttachment>;
  get(id: number): Promise<MediaAttachment | null>;
  setSizes(id: number, sizes: Record<string, MediaSize>, done: boolean): Promise<void>;
  update(id: number, changes: { title?: string; altText?: string }): Promise<void>;
  delete(id: number): Promise<boolean>;
}

/** WordPress's user meta for anonymous visitors: kept with their session and deleted with it. */
export interface VisitorMetaRepository {
  get(sessionId: string, key: string): Promise<string | null>;
  set(sessionId: string, key: string, value: string): Promise<void>;
}

export interface AttributionReportRow {
  sourceType: string;
  source: string;
  medium: string;
  campaign: string;
  currency: string;
  orders: number;
  /** Minor units. */
  revenue: number;
}

export interface AttributionRepository {
  getOrderAttribution(orderId: number): Promise<OrderAttribution | null>;
  /** Orders and revenue by source type, source, medium and campaign over a date range (`npm run report -- attribution`). */
  summarize(range: DayRange): Promise<AttributionReportRow[]>;
}

export interface StatsRepository {
  /** The day's random salt for visitor hashes, created by the first process that asks (first writer wins). */
  daySalt(day: string): Promise<string>;
  /** Writes hits (and their visitors), events and exclusions in one transaction: the group commit's batch. */
  writeBatch(records: StatsRecord[]): Promise<void>;
  /** Online presence flushed from memory: one upsert per visitor. */
  writeOnline(entries: OnlineEntry[]): Promise<void>;
  /**
   * A visitor's first ping in a process: refreshes them when they are online already; otherwise adds them only while
   * their address has fewer than `perAddress` visitors seen since `since`. Atomic per address on every engine, so
   * concurrent pings from one address cannot pass the cap. Answers whether the visitor is online.
   */
  admitOnline(entry: OnlineEntry, options: { since: number; perAddress: number }): Promise<boolean>;
  /**
   * Counts one statistics request of `addressHash` in `minute` (Unix minutes) and answers the minute's count so
   * far, this one included: an atomic upsert, so every process shares one count (the rate limit).
   */
  countRequest(addressHash: string, minute: number): Promise<number>;
  report(range: DayRange, options: { onlineSince: number }): Promise<StatsReport>;
  /**
   * Retention: deletes hits, visitors and events of days before `day` (the daily excluded-hit counts stay); salts,
   * presence and rate-limit minutes apart (a minute before the one of `onlineBefore` is finished).
   */
  deleteBefore(day: string, options: { saltsBefore: string; onlineBefore: number }): Promise<void>;
}

/** Owner insights: closed days from the daily summaries of migration 0009, today from raw statistics. */
export interface InsightsRepository {
  /** Builds the missing daily summaries of days before `today`; answers how many days it summarized. */
  summarizeBefore(today: string): Promise<number>;
  visitors(range: DayRange, options: { today: string; onlineSince: number }): Promise<VisitorsPanel>;
  sources(range: DayRange, options: { today: string }): Promise<SourcesPanel>;
  /**
   * Search analytics (migration 0003) in the range; `sessionHash` is the search engine's keyed hash of a session id,
   * which joins an order's session to the searches before it.
   */
  searches(range: DayRange, options: { sessionHash: (sessionId: string) => string }): Promise<SearchesPanel>;
}

/** Fixed-window counters shared by every process (migration 0012_rate_limits); see security/rateLimiter.ts. */
export interface RateLimitRepository {
  /**
   * Counts one event in `bucket`'s window starting at `windowStart` and answers the window's count so far, this one
   * included: one atomic upsert, so concurrent requests in several processes never both read the same count.
   */
  hit(bucket: string, windowStart: number, expiresAt: number): Promise<number>;
  /** The window's count without counting (for checks that only look, such as a login's pre-check). */
  peek(bucket: string, windowStart: number): Promise<number>;
  /** Forgets a bucket's windows (a correct password clears its failures). */
  clear(bucket: string): Promise<void>;
  deleteExpired(now: number): Promise<number>;
}

/** How one key's failures back off (see owner/loginLimiter.ts for the numbers and why). */
export interface BackoffPolicy {
  /** The counted failure that sets the first lock (the ones before it only count). */
  freeFailures: number;
  /** The first lock; each further counted failure doubles it. */
  firstLockMs: number;
  maxLockMs: number;
  /** A key's failures are forgotten this long after its last counted try. */
  forgetMs: number;
}

export interface BackoffVerdict {
  allowed: boolean;
  /** Counted failures so far, this try included when it was allowed. */
  failures: number;
  /** Milliseconds until the key may try again (0 when it is not locked). */
  retryAfterMs: number;
}

/** The owner's server-side sessions and the back-off of credential checks (migration 0013). */
export interface OwnerAuthRepository {
  createSession(tokenHash: string, credentials: string, createdAt: number, expiresAt: number): Promise<void>;
  /** Whether the session exists, has not expired and was opened with the current credentials. */
  hasSession(tokenHash: string, credentials: string, now: number): Promise<boolean>;
  deleteSession(tokenHash: string): Promise<void>;
  /** "Log out everywhere". */
  deleteAllSessions(): Promise<void>;
  /** The key's lock, without counting anything. */
  peekBackoff(bucket: string, now: number): Promise<BackoffVerdict>;
  /**
   * Counts one try of `bucket` as a failure before the credential is checked (so concurrent tries can never all
   * pass an unlocked check), unless the key is locked: then nothing is counted and the try is refused. Atomic on
   * both engines (one write transaction on SQLite, a row lock on PostgreSQL).
   */
  takeBackoff(bucket: string, now: number, policy: BackoffPolicy): Promise<BackoffVerdict>;
  /** A right credential forgets the key's failures and lock. */
  clearBackoff(bucket: string): Promise<void>;
  deleteExpired(now: number): Promise<void>;
}

export interface Repositories {
  catalog: CatalogRepository;
  rateLimits: RateLimitRepository;
  ownerAuth: OwnerAuthRepository;
  sessions: SessionRepository;
  orders: OrderRepository;
  options: OptionRepository;
  posts: PostRepository;
  media: MediaRepository;
  visitorMeta: VisitorMetaRepository;
  attribution: AttributionRepository;
  stats: StatsRepository;
  search: SearchRepository;
  insights: InsightsRepository;
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

export type { BillingDetails, CatalogVisibility, NewOrderLine, Order };
