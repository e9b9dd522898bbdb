import { createHmac } from 'node:crypto';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type {
  ImportHandoff,
  ImportHandoffs,
  SearchChanges,
  SearchQueryRecord,
  SearchRepository,
  SearchScope,
} from '../db/ports';
import { HandoffEnded, noChanges } from '../db/ports/search';
import { type BuildPacer, processPacer } from './BuildPacer';
import type { AnalyzedRead, DocumentReads } from './DocumentReadThread';
import { type Correction, didYouMean, type PastQuery } from './didYouMean';
import { type MemoryIndexSnapshot, MemorySearchIndex } from './MemorySearchIndex';
import { normalizeQuery } from './parseSearchQuery';
import type { RelevanceRules, SearchDocument, SearchIndex, SearchRequest, SearchResult } from './SearchIndex';

/**
 * More changes than this since the index last looked are applied by a full rebuild (beside the answering index);
 * fewer, past what updates carry (DELTA_BUDGET), by a merge: the answering index's own documents with the changed
 * ones read in, built beside. A merge reads only the changed products, a full rebuild every one.
 */
const INCREMENTAL_LIMIT = 50_000;
/** Changed products read per statement by a merge: a few milliseconds of reading between two yields. */
const MERGE_READ = 250;
/** Change-log rows read per statement of a long read: a few milliseconds between two pauses. */
const CHANGE_PART = 2000;
/**
 * Documents an embedded index takes as small updates between two builds. MemorySearchIndex folds its delta into a
 * full rebuild, synchronously, past 2,000 documents; staying under that keeps such a rebuild off the request path
 * (a build beside is started instead).
 */
const DELTA_BUDGET = 1500;
/**
 * A merge takes at most this many changed products per document the answering index holds; more are a full build.
 * Measured with 26,000 new products: into the 135-document demo shop the merge showed them 1.5 s after the import on
 * SQLite and 3.6 s on PostgreSQL ×2, a full build 1.0 s and 3.0–3.3 s; into a shop of 32,000 documents the merge is
 * the quicker (1.9 s against 2.7 s on SQLite).
 */
const MERGE_MAX_GROWTH = 2;
/** How often a build from an import's handoff asks whether the import committed. */
const HANDOFF_POLL_MS = 25;
/** Documents per slice of a build beside the answering index: a few milliseconds of work. */
const BUILD_SLICE = 100;
/** Documents per write when the PostgreSQL fallback is brought to a rebuilt catalog's content. */
const FALLBACK_SLICE = 500;
/**
 * After a change of more than a slice, how long the fallback's upkeep waits once this process's followers caught up:
 * the seconds after a big import are every process's merge, the facets' catch-up and the dropped pages rendered
 * again, on the cores the database shares, while the fallback only serves a process that starts (measured: its
 * writes were half of PostgreSQL's time for 50 s after an import of 20,000 products).
 */
const FALLBACK_SETTLE_MS = 3000;
/** After a failed build that is still needed (the fallback answers, or the index is far behind), try again. */
const BUILD_RETRY_MS = 5000;
/** With change notifications, how often the change log is checked anyway: a missed notification costs at most this. */
const CHECK_MS = 1000;
/** Keystrokes closer together than this belong to one typing burst (one analytics row). */
const BURST_MS = 30_000;
/** Did you mean learns from the queries of this many days, the most searched this many, re-read this often. */
const PAST_QUERY_DAYS = 90;
const PAST_QUERY_LIMIT = 2000;
const PAST_QUERY_TTL_MS = 5 * 60_000;

/** The settings file's relevance section in the rules' shape (`"a = b"` synonym strings split). */
export function rulesFromSettings(relevance: ShopConfig['search']['relevance']): RelevanceRules {
  return {
    synonyms: relevance.synonyms
      .map((group) => (typeof group === 'string' ? group.split('=') : group))
      .map((group) => group.map((word) => word.trim()).filter(Boolean))
      .filter((group) => group.length > 1),
    stopWords: relevance.stopWords,
    boosts: relevance.boosts,
    outOfStock: relevance.outOfStock,
    pins: Object.fromEntries(
      Object.entries(relevance.pins).map(([query, ids]) => [normalizeQuery(query), ids]),
    ),
  };
}

/** Another in-memory view of the catalog (the facet index) that follows the same change feed as the index. */
export interface CatalogFollower {
  /** Rebuilds from the committed catalog, awaiting `pause()` between slices of the work (requests run there). */
  rebuild(pause?: () => Promise<void>): Promise<void>;
  apply(changes: SearchScope): Promise<void>;
  /**
   * Takes in the changes of these products (a merge's, too many for one batch), a page of them at a time with
   * `pause()` awaited between pages. Without it the follower rebuilds after a merge.
   */
  catchUp?(products: readonly number[], pause?: () => Promise<void>): Promise<void>;
}

/** What wakes the service when another process commits a catalog or rule change (PostgreSQL's LISTEN/NOTIFY). */
export interface ChangeWakeUps {
  subscribe(listener: (table: string | null) => void): () => void;
}

export interface SearchServiceOptions {
  repository: SearchRepository;
  /** The index that answers first. */
  index: SearchIndex;
  secret: string;
  /**
   * Makes an empty embedded index. With it a rebuild fills a new index beside the answering one and swaps it in
   * when done; without it (a shared engine) the index's content is replaced in place. Either way no request waits.
   */
  createIndex?: () => SearchIndex;
  /**
   * `index` is a fallback (the PostgreSQL-table index): it answers while the first embedded replica builds, then
   * is kept current in the background (never on a request's path) for the next process that starts.
   */
  fallback?: boolean;
  /**
   * Notifications of committed changes: refresh on a notification and every `checkMs` instead of per request.
   * Without them the log is read per request and every `checkMs` too (a change another process committed is
   * applied before the next request asks).
   */
  wakeUps?: ChangeWakeUps;
  checkMs?: number;
  /** How long after a failed build it is tried again (tests shorten it). */
  buildRetryMs?: number;
  /**
   * Paces builds beside the answering index between requests (BuildPacer); by default one pacer shared by the
   * process (tests pass their own, with their own clock).
   */
  pacer?: BuildPacer;
  /** Failures of work no request waits for (a background rebuild, the fallback's upkeep). */
  onError?: (error: unknown, message: string) => void;
  /**
   * Reads a merge's changed documents and analyzes them off the event loop (DocumentReadThread, on SQLite): the
   * merge then only assembles the postings here. A read it fails is read here instead.
   */
  readThread?: DocumentReads;
}

/**
 * Keeps a SearchIndex in step with the committed catalog and the owner's rules, and answers searches with it.
 * Changes come from the store's change log: before each search it asks for the newest position (one indexed
 * lookup), or, with wake-ups (PostgreSQL), only after a notification or once a second. A write by this process,
 * another server process or `npm run import` is applied from the committed rows, incrementally; more changes than
 * an update handles well, or a rebuild request, build a new index beside the answering one while the old one keeps
 * answering, and the new one is swapped in (one assignment) after it caught up with the log.
 */
export class SearchService {
  #repository: SearchRepository;
  #index: SearchIndex;
  #secret: string;
  #createIndex: (() => SearchIndex) | null;
  #fallback: SearchIndex | null;
  #onError: (error: unknown, message: string) => void;
  /** Awaited between the steps of a build beside the answering index, and between its phases. */
  #pause: () => Promise<void>;
  #yield: () => Promise<void>;
  #rules: RelevanceRules | null = null;
  #catalogSeq = -1;
  #rulesRevision = -1;
  #rebuildRequests = -1;
  /** Documents given to the answering embedded index as updates since it was built (see DELTA_BUDGET). */
  #updatedSinceBuild = 0;
  /** The answering index is behind by more than updates should carry: the build in flight catches it up. */
  #awaitingBuild = false;
  #refreshing: Promise<void> | null = null;
  #building: Promise<number> | null = null;
  #buildAgain = false;
  /** Index and log-position changes run one at a time: a refresh pass, or a finished build's catch-up and swap. */
  #turn: Promise<unknown> = Promise.resolve();
  /** The fallback's upkeep, one write at a time, after the answers. */
  #upkeep: Promise<void> = Promise.resolve();
  /** Waits that end early when the service closes (`#waitUnlessClosed`). */
  readonly #closeWaiters = new Set<() => void>();
  #wakeUps: { dirty: boolean; stop: () => void; timer: ReturnType<typeof setInterval> } | null = null;
  #wakeUpSource: ChangeWakeUps | null;
  /** Without wake-ups: the change log is also looked at on a timer, so an import is applied before anyone asks. */
  #poll: ReturnType<typeof setInterval> | null = null;
  #checkMs: number;
  #buildRetryMs: number;
  #closed = false;
  #pastQueries: { readAt: number; list: Promise<PastQuery[]> } | null = null;
  #followers: CatalogFollower[] = [];
  /** The followers' rebuilds after each swap, one after another; the next build need not wait for them. */
  #followerWork: Promise<void> = Promise.resolve();
  #followersRebuilding = 0;
  /** The log position the followers have taken in whole (behind `#catalogSeq` while they rebuild after a swap). */
  #followersAt = -1;
  #indexedListeners = new Set<(through: number) => void>();
  #indexedTold = -1;
  /** Handoffs are taken one look at a time (a notification may come while the last look runs). */
  #handoffLook: Promise<void> = Promise.resolve();
  /** Stops watching for handoffs (SQLite), and leaves the processes an import waits for. */
  #stopWatchingHandoffs: (() => void) | null = null;
  #readThread: DocumentReads | null;

  constructor(options: SearchServiceOptions) {
    this.#repository = options.repository;
    this.#index = options.index;
    this.#secret = options.secret;
    this.#createIndex = options.createIndex ?? null;
    this.#fallback = options.fallback ? options.index : null;
    this.#wakeUpSource = options.wakeUps ?? null;
    this.#checkMs = options.checkMs ?? CHECK_MS;
    this.#buildRetryMs = options.buildRetryMs ?? BUILD_RETRY_MS;
    this.#onError = options.onError ?? (() => {});
    this.#readThread = options.readThread ?? null;
    const pacer = options.pacer ?? processPacer;
    this.#pause = pacer.pause;
    this.#yield = pacer.yield;
  }

  /** Keeps `follower` in step too: rebuilt with the index, told each batch of changes after the index applied it. */
  follow(follower: CatalogFollower): void {
    this.#followers.push(follower);
  }

  /**
   * Seeds the rules from the settings on first start, then builds the whole index; with a fallback that holds
   * documents, answers from it at once and builds the replica in the background.
   */
  async start(seedRules: RelevanceRules): Promise<void> {
    await this.#repository.seedRules(seedRules);
    // Where no notification tells of a handoff (SQLite), the handoffs are watched for.
    this.#stopWatchingHandoffs = this.#repository.handoffs?.watch?.(() => this.#takeHandoffs()) ?? null;
    if (this.#wakeUpSource) this.#listen(this.#wakeUpSource);
    else {
      this.#poll = setInterval(() => {
        if (this.#refreshing || this.#closed) return;
        this.refresh().catch((error: unknown) => this.#onError(error, 'search index refresh failed'));
      }, this.#checkMs);
      this.#poll.unref();
    }
    if (this.#fallback && (await this.#fallback.count()) > 0) {
      // The fallback was kept current by the processes that ran before: it answers from the log's position now.
      const revision = await this.#repository.revision();
      await this.#applyRules(revision.rules);
      this.#catalogSeq = revision.catalog;
      this.#rebuildRequests = revision.rebuild;
      // The followers are small next to the index: built now, so they answer while the replica builds.
      for (const follower of this.#followers) await follower.rebuild();
      this.#followersAt = this.#catalogSeq;
      this.#indexedMoved();
      this.#startBuild();
      return;
    }
    const revision = await this.#repository.revision();
    await this.#applyRules(revision.rules);
    this.#rebuildRequests = revision.rebuild;
    await this.rebuild();
    // The facets answer from the first request on.
    await this.#followerWork;
  }

  /** A token that changes whenever a search could answer differently: for ETags. */
  get revision(): string {
    return `${this.#catalogSeq}.${this.#rulesRevision}`;
  }

  /**
   * The change-log position up to which the answers (the index's and its followers': the facet counts) take in
   * every change: a cached page showing them from behind it is kept until it passes (render/pagesPlugin.ts
   * `rendersFromIndex`).
   */
  get indexedThrough(): number {
    return this.#followers.length === 0 ? this.#catalogSeq : Math.min(this.#catalogSeq, this.#followersAt);
  }

  /** Calls `listener` each time `indexedThrough` moves on; returns the unsubscribe. */
  onIndexed(listener: (through: number) => void): () => void {
    this.#indexedListeners.add(listener);
    return () => this.#indexedListeners.delete(listener);
  }

  #indexedMoved(): void {
    const through = this.indexedThrough;
    if (through <= this.#indexedTold) return;
    this.#indexedTold = through;
    for (const listener of this.#indexedListeners) listener(through);
  }

  /** The index answering now (the fallback until the first replica is swapped in). */
  get index(): SearchIndex {
    return this.#index;
  }

  /** Whether the answering index is the one this service builds (not the fallback): /healthz and benches. */
  get ready(): boolean {
    return this.#fallback === null || this.#index !== this.#fallback;
  }

  /** Whether a rebuild is in flight (its index and followers not all swapped in yet): benches and tests. */
  get rebuilding(): boolean {
    return this.#building !== null || this.#followersRebuilding > 0;
  }

  /**
   * Applies catalog changes and rule edits committed since the last look; concurrent callers share one pass. A
   * rebuild this needs starts in the background: the pass returns without it.
   */
  refresh(): Promise<void> {
    const wakeUps = this.#wakeUps;
    if (wakeUps && !wakeUps.dirty) return Promise.resolve();
    if (!this.#refreshing) {
      // Cleared before the pass reads the log: a notification arriving during it marks the next pass.
      if (wakeUps) wakeUps.dirty = false;
      let failed = false;
      this.#refreshing = this.#inTurn(() => this.#refresh())
        .catch((error: unknown) => {
          // Looked at again by the next request or check (not at once: a database that is down fails fast).
          failed = true;
          if (wakeUps) wakeUps.dirty = true;
          throw error;
        })
        .finally(() => {
          this.#refreshing = null;
          // A notification that came during the pass.
          if (wakeUps?.dirty && !failed && !this.#closed) this.#wake();
        });
    }
    return this.#refreshing;
  }

  /**
   * Builds the whole index from the committed catalog (beside the answering one when it is embedded) and swaps it
   * in; resolves with the number of documents once it answers. Requests keep being answered meanwhile.
   */
  async rebuild(onProgress?: (done: number, total: number) => void): Promise<number> {
    if (this.#building) await this.#building.catch(() => 0);
    return this.#startBuild(onProgress);
  }

  /** Stops listening and waits for background work (a build, the fallback's upkeep) before the store closes. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const wake of [...this.#closeWaiters]) wake();
    if (this.#poll) clearInterval(this.#poll);
    if (this.#wakeUps) {
      this.#wakeUps.stop();
      clearInterval(this.#wakeUps.timer);
    }
    this.#stopWatchingHandoffs?.();
    this.#stopWatchingHandoffs = null;
    this.#buildAgain = false;
    await Promise.allSettled([this.#building, this.#refreshing, this.#turn, this.#upkeep, this.#handoffLook]);
    await this.#followerWork;
    // A swap done while closing may have queued the fallback's upkeep after the first wait.
    await this.#upkeep;
    await this.#readThread?.close();
  }

  #listen(source: ChangeWakeUps): void {
    const stop = source.subscribe((table) => {
      if (table === null || table === 'search_changes' || table === 'search_settings') this.#wake();
      // After a reconnection too: a handoff's notification may have been missed.
      if (table === null || table === 'search_handoffs') this.#takeHandoffs();
    });
    const timer = setInterval(() => this.#wake(), this.#checkMs);
    timer.unref();
    this.#wakeUps = { dirty: true, stop, timer };
  }

  /** Something may have changed: look now, not at the next request, so the replica is fresh when asked. */
  #wake(): void {
    if (!this.#wakeUps || this.#closed) return;
    this.#wakeUps.dirty = true;
    if (this.#refreshing) return;
    this.refresh().catch((error: unknown) => this.#onError(error, 'search index refresh failed'));
  }

  /**
   * An import in flight handed its documents over: builds, beside the answering index, the index that
   * will answer once the import commits (`#build`), and tells the import once that index is built (the import
   * commits then, and the process only catches up and swaps). A process already building, or answering from the
   * fallback, says it will not, and follows the import the usual way once committed.
   */
  #takeHandoffs(): void {
    const handoffs = this.#repository.handoffs;
    if (!handoffs || this.#closed) return;
    this.#handoffLook = this.#handoffLook
      .then(async () => {
        for (const handoff of await handoffs.pending()) {
          // In the turn: the base is the answering index as of its log position.
          const started = await this.#inTurn(async () => {
            const index = this.#index;
            // Not before the first build swapped in (a process starting while an import is in flight).
            const built = this.#catalogSeq >= 0 && this.#embedded && index instanceof MemorySearchIndex;
            if (this.#building || this.#closed || !built) return false;
            this.#startBuild(undefined, {
              base: index.snapshot(),
              baseSeq: this.#catalogSeq,
              changes: handoff.changes,
              handoff,
            });
            return true;
          });
          if (!started) await handoffs.answer(handoff, false);
        }
      })
      .catch((error: unknown) => this.#onError(error, 'search index handoff failed'));
  }

  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#turn.then(work);
    this.#turn = result.catch(() => undefined);
    return result;
  }

  async #applyRules(revision: number): Promise<void> {
    const rules = await this.#repository.getRules();
    if (rules) {
      this.#rules = rules;
      await this.#index.setRules(rules);
    }
    this.#rulesRevision = revision;
  }

  async #refresh(): Promise<void> {
    const revision = await this.#repository.revision();
    if (revision.rules !== this.#rulesRevision) await this.#applyRules(revision.rules);
    if (revision.rebuild !== this.#rebuildRequests) {
      this.#rebuildRequests = revision.rebuild;
      this.#startBuild();
    }
    if (revision.catalog === this.#catalogSeq) return;
    // Far behind (a big import): the build in flight brings the catalog; loading it twice would only slow both.
    if (this.#awaitingBuild && this.#building) return;
    // While a build is in flight, more than updates carry are its catch-up's (it reads what it did not build from, or
    // builds again): the read stops past them, rather than reading an import's changes that a build from its handoff
    // was made for, and throwing them away.
    const carried = this.#building && this.#embedded;
    const limit = carried ? Math.max(0, DELTA_BUDGET - this.#updatedSinceBuild) : INCREMENTAL_LIMIT;
    const changes = await this.#changesInParts(this.#catalogSeq, limit);
    // Past the limit (with a build in flight: more products than updates still carry) the read is `full`.
    if (changes.full) {
      this.#awaitingBuild = true;
      if (!carried) this.#startBuild();
      return;
    }
    const index = this.#index;
    const { narrowed, compared, rereading } = await this.#namesCompared(changes);
    if (
      this.#embedded &&
      index instanceof MemorySearchIndex &&
      this.#updatedSinceBuild + changes.products.length > DELTA_BUDGET &&
      !this.#building
    ) {
      // An edited term or a renamed vendor re-reads all its products in one read (their documents name it): with
      // those a full build, read in pages, is the one that never holds the event loop long. A term that only gained
      // or lost products (an import of new products), or whose name stayed, does not: those products are among the
      // changed ones, or show nothing new. A merge reads the changed products by id, slower per product than a full
      // build's pages by id range, and saves the analysis of the documents the index holds: with far more changes
      // than those (a first import into a new shop) the full build is the quicker (MERGE_MAX_GROWTH).
      if (rereading || changes.products.length > MERGE_MAX_GROWTH * index.size) {
        this.#awaitingBuild = true;
        this.#startBuild();
        return;
      }
      // Too many for updates: the answering index's content (as of `#catalogSeq`, taken now, in the turn) and the
      // changed documents make the new index, built beside. A rename committed after the comparison is in the log
      // after `changes.seq`: the build's catch-up reads it with every product of the term or vendor.
      this.#awaitingBuild = true;
      this.#startBuild(undefined, { base: index.snapshot(), baseSeq: this.#catalogSeq, changes: narrowed });
      return;
    }
    const loaded = await this.#repository.loadDocuments(narrowed);
    const { removedKeys } = loaded;
    // A term or vendor renamed after the comparison (and before this read) keeps the name its products still show
    // (the compared document): the rename, after `changes.seq` in the log, is then told apart at the next refresh.
    const documents = loaded.documents.map((document) => {
      const before = compared.get(document.key);
      return before && !sameTitle(before, document) ? before : document;
    });
    if (this.#embedded && this.#updatedSinceBuild + documents.length > DELTA_BUDGET) {
      this.#awaitingBuild = true;
      this.#startBuild();
      return;
    }
    await this.#index.update(documents, removedKeys);
    this.#updatedSinceBuild += documents.length;
    for (const follower of this.#followers) await follower.apply(changes);
    const from = this.#catalogSeq;
    this.#catalogSeq = changes.seq;
    // Rebuilding followers take the batch in after their swap; they are at `#catalogSeq` once it is done.
    if (this.#followersRebuilding === 0) this.#followersAt = changes.seq;
    this.#indexedMoved();
    const fallback = this.#fallback;
    if (fallback && fallback !== this.#index) {
      this.#keepFallback(
        fallback,
        { from, to: changes.seq },
        () => fallback.update(documents, removedKeys),
        documents.length + removedKeys.length,
      );
    }
  }

  /**
   * `changes` with only the terms and vendors whose name changed counted as edited (`editedTerms`,
   * `editedVendors`): a product's document shows its terms' and vendor's names only (searchDocumentRows.ts), so a
   * term whose description or parent changed, or a vendor whose city did, need not have its products read again.
   * Told by the answering embedded index: a term or vendor keeps its name when the index holds its document and that
   * document's title is the fresh one's, or when the index holds no document of it but one exists now: the index
   * then held no searchable product of it (a term or vendor document counts its searchable products, kept exact by
   * the change log), so no product document it holds shows the name, and the products showing it now are changes of
   * their own (they joined it, or became searchable) — a new category of a first import reads nothing again. Anything
   * else stays edited: a deleted or renamed one, a fallback answering. `compared`: the fresh documents of those
   * found unchanged or new, by key. `rereading`: whether an edited one has searchable products to read again (one
   * without a fresh document holds none: reading its products reads nothing).
   */
  async #namesCompared(changes: SearchChanges): Promise<{
    narrowed: SearchChanges;
    compared: Map<string, SearchDocument>;
    rereading: boolean;
  }> {
    const compared = new Map<string, SearchDocument>();
    const index = this.#index;
    const terms = changes.editedTerms ?? changes.terms;
    const vendors = changes.editedVendors ?? changes.vendors;
    if (!this.#embedded || !(index instanceof MemorySearchIndex) || terms.length + vendors.length === 0) {
      return { narrowed: changes, compared, rereading: terms.length + vendors.length > 0 };
    }
    const fresh = await this.#repository.loadDocuments({
      products: [],
      terms,
      editedTerms: [],
      vendors,
      editedVendors: [],
      posts: [],
    });
    let rereading = false;
    const kept = { term: new Set<number>(), vendor: new Set<number>() };
    for (const document of fresh.documents) {
      if (document.kind !== 'term' && document.kind !== 'vendor') continue;
      const held = index.document(document.key);
      if (!held || sameTitle(held, document)) {
        kept[document.kind].add(document.id);
        compared.set(document.key, document);
      } else rereading = true;
    }
    const narrowed = {
      ...changes,
      editedTerms: terms.filter((id) => !kept.term.has(id)),
      editedVendors: vendors.filter((id) => !kept.vendor.has(id)),
    };
    return { narrowed, compared, rereading };
  }

  /** The answering index is one this service builds in memory (a rebuild of it happens beside it). */
  get #embedded(): boolean {
    return this.#createIndex !== null && this.#index !== this.#fallback;
  }

  /** Starts a build unless one is running (then one more follows it, for changes it may have missed). */
  #startBuild(onProgress?: (done: number, total: number) => void, merge?: Merge): Promise<number> {
    if (this.#building) {
      this.#buildAgain = true;
      return this.#building;
    }
    let failed = false;
    const building = this.#build(onProgress, merge)
      .catch((error: unknown) => {
        failed = true;
        throw error;
      })
      .finally(() => {
        this.#building = null;
        if (this.#closed) return;
        if (this.#buildAgain) {
          this.#buildAgain = false;
          this.#startBuild().catch(() => undefined);
        } else if (failed) {
          // The answering index stays (the fallback, or the last index built) and the build is tried again later
          // (the database may be back): a build is only started when the answering index needs one.
          setTimeout(() => {
            if (!this.#closed && !this.#building) this.#startBuild().catch(() => undefined);
          }, this.#buildRetryMs).unref();
        }
      });
    this.#building = building;
    building.catch((error: unknown) => this.#onError(error, 'search index rebuild failed'));
    return building;
  }

  async #build(onProgress?: (done: number, total: number) => void, merge?: Merge): Promise<number> {
    // The log position first: anything committed after it is applied after the build, before the swap. A merge
    // starts from the position of its changes (the changed rows are read after it); one from an import's handoff
    // from its base's (the import's documents are the handoff's, anything else is caught up with).
    const mergedFrom = merge && (merge.handoff ? merge.baseSeq : merge.changes.seq);
    const from = mergedFrom ?? (await this.#repository.revision()).catalog;
    const beside = this.#createIndex !== null;
    /** A full build's documents (a merge's are in the index it built), and how many the new index holds. */
    let documents: readonly SearchDocument[] = [];
    let held: number;
    let next: SearchIndex;
    /** A merge's writes since its base, for the fallback: the changed documents, then the catch-up's. */
    const mergeWrites: { upserts: SearchDocument[]; removedKeys: string[] }[] = [];
    if (merge) {
      let built: { changed: ChangedDocuments; merged: MemorySearchIndex } | null;
      try {
        built = await this.#mergedIndex(merge);
      } catch (error) {
        // Reading the handed parts or merging failed: the import need not wait for an index this process will not
        // have.
        if (merge.handoff)
          await this.#repository.handoffs?.answer(merge.handoff, false).catch(() => undefined);
        throw error;
      }
      if (!built) {
        // The import ended before this process had its documents: it is followed from the catalog, by the next
        // refresh or, if one found it while this build ran, by a build after this one.
        if (this.#awaitingBuild) this.#buildAgain = true;
        return 0;
      }
      const { changed, merged } = built;
      mergeWrites.push({ upserts: changed.upserts, removedKeys: changed.removedKeys });
      next = merged;
      held = merged.size;
      // Told once built, not once analyzed: the import commits after every process answered (or after a bounded
      // wait), so at the commit each one has only the catch-up and the swap left.
      if (merge.handoff) await this.#repository.handoffs?.answer(merge.handoff, true);
      if (merge.handoff && !(await this.#importCommitted(merge.handoff))) {
        // Rolled back: nothing of it is in the catalog. A catch-up found too large meanwhile builds anew.
        if (this.#awaitingBuild) this.#buildAgain = true;
        return held;
      }
    } else {
      // Read in pages; beside the answering index, searches run between them (the pages are read after `from`: the
      // catch-up below applies whatever they missed or read half-written).
      documents = (
        await this.#repository.loadDocuments(undefined, onProgress, beside ? this.#pause : undefined)
      ).documents;
      held = documents.length;
      // Requests that arrived while the rows were read are answered before the index is built.
      await this.#yield();
      next = beside ? (this.#createIndex as () => SearchIndex)() : this.#index;
      if (this.#rules) await next.setRules(this.#rules);
      if (beside && next instanceof MemorySearchIndex) {
        // Nobody searches it yet: built in slices, searches run between them.
        await next.replaceAllInSlices(documents, this.#pause, BUILD_SLICE);
      } else {
        // A shared engine is replaced in place (its readers see the old content until the write commits).
        await next.replaceAll(documents);
      }
    }
    await this.#yield();
    let builtAt = from;
    /** The products the turn's catch-up applied: with a merge's, what the followers have not taken in. */
    let caughtUpProducts: readonly number[] = [];
    const swapped = await this.#inTurn(async () => {
      let seq = from;
      let updated = 0;
      const changes = merge?.handoff
        ? await this.#changesBesides(from, merge.handoff)
        : await this.#repository.changesSince(from, DELTA_BUDGET);
      if (changes.full) this.#buildAgain = true;
      else if (changes.seq !== from) {
        const caughtUp = await this.#repository.loadDocuments(changes);
        if (beside && caughtUp.documents.length > DELTA_BUDGET) this.#buildAgain = true;
        else {
          await next.update(caughtUp.documents, caughtUp.removedKeys);
          mergeWrites.push({ upserts: caughtUp.documents, removedKeys: caughtUp.removedKeys });
          caughtUpProducts = changes.products;
          seq = changes.seq;
          updated = caughtUp.documents.length;
        }
      }
      if (seq < this.#catalogSeq) {
        // The answering index applied changes this one could not catch up with: swapping would show older
        // answers for a while. The next build starts from a later position.
        this.#buildAgain = true;
        return false;
      }
      // Rules edited while building.
      if (this.#rules) await next.setRules(this.#rules);
      // The swap: from here every search reads the new index; the old one is garbage once its last search ends.
      this.#index = next;
      this.#catalogSeq = seq;
      builtAt = seq;
      this.#updatedSinceBuild = updated;
      this.#awaitingBuild = this.#buildAgain;
      return true;
    });
    if (!swapped) return held;
    this.#indexedMoved();
    // The followers rebuild beside theirs, in slices, after the swap (the facets answer from their old index
    // meanwhile), outside the turn and apart from this build: refreshes, and the next build, go on meanwhile (a
    // follower applies again, once swapped, the batches it was given while its pages were read). They read the
    // catalog as it is now, at or past `seq`; changes after `seq` reach them again, harmlessly. After a merge they
    // need only take in the changed products (the catalog's changes since the base, or an import's handed over and
    // the catch-up's), a page at a time: a re-import's quarter of the catalog, not all of it.
    const mergedProducts = merge ? [...new Set([...merge.changes.products, ...caughtUpProducts])] : null;
    this.#followersRebuilding++;
    let followersRebuilt = false;
    this.#followerWork = this.#followerWork
      .then(async () => {
        const pause = beside ? this.#pause : undefined;
        for (const follower of this.#followers) {
          if (this.#closed) continue;
          if (mergedProducts && follower.catchUp) await follower.catchUp(mergedProducts, pause);
          else await follower.rebuild(pause);
        }
        followersRebuilt = true;
      })
      .catch((error: unknown) => this.#onError(error, 'search index follower rebuild failed'))
      .finally(() => {
        this.#followersRebuilding--;
        // Every batch up to `#catalogSeq` was applied (to the index a follower replaced, and again to the new one).
        if (followersRebuilt && this.#followersRebuilding === 0) this.#followersAt = this.#catalogSeq;
        this.#indexedMoved();
      });
    const fallback = this.#fallback;
    if (fallback && fallback !== next && merge) {
      // Only what the merge changed: a fallback at the merge's base then holds its content (otherwise the position
      // stays unrecorded, as after an update). Comparing every document would read the whole shared table.
      this.#keepFallback(
        fallback,
        { from: merge.baseSeq, to: builtAt },
        async () => {
          for (const write of mergeWrites) {
            if (!(await this.#writeFallback(fallback, write.upserts))) return false;
            if (write.removedKeys.length > 0) await fallback.update([], write.removedKeys);
          }
          return true;
        },
        mergeWrites.reduce((sum, write) => sum + write.upserts.length + write.removedKeys.length, 0),
      );
    } else if (fallback && fallback !== next) {
      this.#keepFallback(
        fallback,
        { from: null, to: builtAt },
        () => this.#fillFallback(fallback, documents),
        documents.length,
      );
    }
    return held;
  }

  /**
   * A merge's index: its base with the changed documents (read from the catalog, or an import's handed-over parts)
   * merged in, in slices. Null when the import ended before this process had its documents.
   */
  async #mergedIndex(merge: Merge): Promise<{ changed: ChangedDocuments; merged: MemorySearchIndex } | null> {
    const changed = merge.handoff
      ? await this.#handedDocuments(merge.handoff)
      : await this.#changedDocuments(merge.changes);
    if (!changed) return null;
    await this.#yield();
    const merged = (this.#createIndex as () => MemorySearchIndex)();
    if (this.#rules) await merged.setRules(this.#rules);
    // Nobody searches it yet: built in slices, searches run between them.
    await merged.mergeInSlices(
      merge.base,
      changed.upserts,
      changed.removedKeys,
      this.#pause,
      BUILD_SLICE,
      changed.analyzed,
    );
    return { changed, merged };
  }

  /**
   * A merge's changed documents, read anew (`scopedReadSize` products per read: 250 on SQLite, whose reads hold the
   * event loop) with a pause between reads, and the keys of those gone. Each read's documents are analyzed
   * (`analyzed`) while the next read is in flight (PostgreSQL), in slices between pauses: the merge's build then has
   * only the postings to assemble. With a read thread (SQLite) both the reads and the analysis run on it.
   */
  async #changedDocuments(changes: SearchChanges): Promise<ChangedDocuments> {
    const none = { products: [], terms: [], vendors: [], posts: [] };
    const scopes: SearchScope[] = [];
    const size = this.#repository.scopedReadSize ?? MERGE_READ;
    for (let at = 0; at < changes.products.length; at += size) {
      scopes.push({ ...none, products: changes.products.slice(at, at + size) });
    }
    if (changes.terms.length + changes.vendors.length + changes.posts.length > 0) {
      scopes.push({
        ...none,
        terms: changes.terms,
        editedTerms: changes.editedTerms ?? changes.terms,
        vendors: changes.vendors,
        editedVendors: changes.editedVendors ?? changes.vendors,
        posts: changes.posts,
      });
    }
    const thread = this.#readThread;
    if (!thread) {
      return this.#analyzedBatches((at) => {
        const scope = scopes[at];
        return scope ? this.#repository.loadDocuments(scope) : null;
      });
    }
    // Two reads ahead of the one being taken: the thread reads and analyzes the next while this thread takes an
    // answer. More would pile answers up while the requests run, and a thread takes the answers waiting for it all
    // at once (measured: 20,000 products' documents copied in 264 ms of one turn). A read the thread failed (it
    // could not start, or died) is read here when its turn comes, one at a time as without it.
    let reported = false;
    const asked: Promise<AnalyzedRead | null>[] = [];
    const ask = (at: number) => {
      const scope = scopes[at];
      if (!scope) return null;
      asked[at] ??= thread.read(scope).catch((error: unknown) => {
        if (!reported) this.#onError(error, 'search document read thread failed; reading on the main thread');
        reported = true;
        return null;
      });
      return asked[at];
    };
    return this.#analyzedBatches((at) => {
      const read = ask(at);
      ask(at + 1);
      const scope = scopes[at];
      if (!read || !scope) return null;
      return read.then((answer) => answer ?? this.#repository.loadDocuments(scope));
    });
  }

  /**
   * An import's handed-over documents (its stored parts, each read as soon as the import stored it), analyzed as a
   * merge's changed documents are (the import is told once the merge is built). Null when the import ended before
   * this process had read them all (it waits a bounded time): the import is then followed from the catalog.
   */
  async #handedDocuments(handoff: ImportHandoff): Promise<ChangedDocuments | null> {
    const handoffs = this.#repository.handoffs as ImportHandoffs;
    try {
      return await this.#analyzedBatches((part) => handoffs.part(handoff, part));
    } catch (error) {
      if (error instanceof HandoffEnded) return null;
      throw error;
    }
  }

  /**
   * Runs the reads one after another and analyzes each read's documents while the next is in flight, in slices
   * between pauses: the merge's build then has only the postings to assemble.
   */
  async #analyzedBatches(
    reads: (at: number) => Promise<AnalyzedRead | null> | null,
  ): Promise<ChangedDocuments> {
    const analyzed = new Map<SearchDocument, ReadonlyMap<string, number>>();
    const upserts = new Map<string, SearchDocument>();
    const removed = new Set<string>();
    // The next read is asked for before this one's documents are taken and the build pauses: an awaited read
    // (PostgreSQL) is then in flight while the requests run.
    const read = (at: number) => {
      const reading = reads(at);
      // Awaited below; a failure while pausing is not an unhandled one meanwhile.
      reading?.catch(() => undefined);
      return reading;
    };
    let next = read(0);
    for (let at = 0; next; at++) {
      const batch = await next;
      if (!batch) break;
      next = read(at + 1);
      for (const key of batch.removedKeys) removed.add(key);
      for (const [index, document] of batch.documents.entries()) {
        upserts.set(document.key, document);
        analyzed.set(document, batch.analyzed?.[index] ?? MemorySearchIndex.analyzeDocument(document));
        if ((index + 1) % BUILD_SLICE === 0) await this.#pause();
      }
      await this.#pause();
    }
    return {
      upserts: [...upserts.values()],
      removedKeys: [...removed].filter((key) => !upserts.has(key)),
      analyzed,
    };
  }

  /** Waits until the import committed (true) or rolled back (false). Its process ending rolls it back. */
  async #importCommitted(handoff: ImportHandoff): Promise<boolean> {
    const handoffs = this.#repository.handoffs as ImportHandoffs;
    for (;;) {
      const outcome = await handoffs.outcome(handoff);
      if (outcome !== 'in progress') return outcome === 'committed';
      if (this.#closed) return false;
      await new Promise((resolve) => setTimeout(resolve, HANDOFF_POLL_MS));
    }
  }

  /**
   * What a build from an import's handoff has to catch up with once the import committed: every change after its
   * base's position `from` except those the handoff holds (a change of the import's products, terms or vendors at
   * or below `handoff.upTo`: the import held the catalog locked, so their documents as it read them are their
   * committed state), and every change after `upTo` (later writes, of anything).
   */
  async #changesBesides(from: number, handoff: ImportHandoff): Promise<SearchChanges> {
    const since = await this.#changesInParts(from, INCREMENTAL_LIMIT);
    const later = await this.#repository.changesSince(Math.max(from, handoff.upTo), DELTA_BUDGET);
    if (since.full || later.full) return { ...later, full: true };
    const handed = handoff.changes;
    const besides = (ids: readonly number[], held: readonly number[], after: readonly number[]) => {
      const skip = new Set(held);
      return [...new Set([...ids.filter((id) => !skip.has(id)), ...after])];
    };
    const changes: SearchChanges = {
      seq: Math.max(since.seq, later.seq),
      full: false,
      products: besides(since.products, handed.products, later.products),
      terms: besides(since.terms, handed.terms, later.terms),
      editedTerms: besides(since.editedTerms ?? since.terms, handed.terms, later.editedTerms ?? later.terms),
      vendors: besides(since.vendors, handed.vendors, later.vendors),
      editedVendors: besides(
        since.editedVendors ?? since.vendors,
        handed.vendors,
        later.editedVendors ?? later.vendors,
      ),
      posts: besides(since.posts, handed.posts, later.posts),
    };
    const count =
      changes.products.length + changes.terms.length + changes.vendors.length + changes.posts.length;
    return count > DELTA_BUDGET ? { ...changes, full: true } : changes;
  }

  /**
   * The changes after `from`, at most `limit` (more: `full`), read CHANGE_PART rows at a time with the pacer's
   * pauses between: an import's 26,000 changes, read in one statement once it committed (by the swap of a build
   * from its handoff, or by the next refresh), held the event loop for 60-70 ms at once.
   */
  async #changesInParts(from: number, limit: number): Promise<SearchChanges> {
    const read = noChanges(from);
    let rows = 0;
    for (;;) {
      const part = await this.#repository.changesSince(read.seq, Math.min(CHANGE_PART, limit - rows + 1), {
        wideAfter: from,
      });
      read.seq = part.seq;
      for (const key of ['products', 'terms', 'vendors', 'posts'] as const) {
        read[key].push(...part[key]);
        rows += part[key].length;
      }
      read.editedTerms?.push(...(part.editedTerms ?? part.terms));
      read.editedVendors?.push(...(part.editedVendors ?? part.vendors));
      if (rows > limit) return { ...read, full: true };
      if (!part.more) return read;
      await this.#pause();
    }
  }

  /**
   * Brings the fallback to the catalog's content for the next process that starts: updates in slices (a product
   * with its variations in one), each writing only what differs (nothing when another process wrote it already),
   * then the keys the catalog no longer has. A single replaceAll would analyze every document in one go.
   */
  async #fillFallback(fallback: SearchIndex, documents: readonly SearchDocument[]): Promise<boolean> {
    if (!fallback.keys) {
      await fallback.replaceAll(documents);
      return true;
    }
    // Stopped short (closing): not the catalog's content, so no position is recorded for it.
    if (!(await this.#writeFallback(fallback, documents))) return false;
    const kept = new Set(documents.map((document) => document.key));
    const gone = (await fallback.keys()).filter((key) => !kept.has(key));
    if (gone.length > 0) await fallback.update([], gone);
    return true;
  }

  /**
   * Writes documents into the fallback in slices (a product with its variations in one), each writing only what
   * differs; false when closing stopped it short.
   */
  async #writeFallback(fallback: SearchIndex, documents: readonly SearchDocument[]): Promise<boolean> {
    for (let start = 0; start < documents.length && !this.#closed; ) {
      let end = Math.min(start + FALLBACK_SLICE, documents.length);
      while (end < documents.length && documents[end]?.kind === 'variation') end++;
      const sliceStarted = performance.now();
      await fallback.update(documents.slice(start, end), []);
      // Nobody waits for it: paced to about half of the time, so the replicas' own rebuilds and the shoppers'
      // requests, on the same cores as the database, go first (a fill after an import is tens of writes).
      await new Promise((resolve) => setTimeout(resolve, performance.now() - sliceStarted));
      start = end;
    }
    return !this.#closed;
  }

  /**
   * Runs a write of the fallback after the ones queued before it; no request waits for it. A fallback shared by
   * several processes skips the write another process already made (`keepUp`).
   */
  #keepFallback(
    fallback: SearchIndex,
    position: { from: number | null; to: number },
    work: () => Promise<unknown>,
    documents: number,
  ): void {
    const upkeep = () => (fallback.keepUp ? fallback.keepUp(position, work) : work());
    this.#upkeep = this.#upkeep
      .then(async () => {
        // A big change's upkeep goes after what shoppers wait for (FALLBACK_SETTLE_MS).
        if (documents > FALLBACK_SLICE) {
          await this.#followerWork;
          await this.#waitUnlessClosed(FALLBACK_SETTLE_MS);
        }
        if (!this.#closed) await upkeep();
      })
      .catch((error: unknown) => this.#onError(error, 'keeping the fallback search index current failed'));
  }

  /** Resolves after `ms`, or at once when the service closes. */
  #waitUnlessClosed(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#closeWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#closeWaiters.add(done);
    });
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    await this.refresh();
    return this.#index.search(request);
  }

  async productIds(text: string): Promise<number[]> {
    await this.refresh();
    return this.#index.searchProductIds(text);
  }

  /**
   * A search with did you mean (didYouMean.ts): when the query finds nothing, or only through typos, and a
   * correction finds something, the result is the correction's. `found` is what the query as typed found
   * (what analytics record). Asked without typos (`typos: false`, the "search instead" link), never corrected.
   */
  async searchCorrected(
    request: SearchRequest,
  ): Promise<{ result: SearchResult; correction: string | null; found: SearchResult }> {
    const found = await this.search(request);
    if (request.typos === false) return { result: found, correction: null, found };
    const correction = await this.correction(request.text, hasHits(found));
    if (!correction) return { result: found, correction: null, found };
    const result = await this.#index.search({ ...request, text: correction.query });
    return hasHits(result)
      ? { result, correction: correction.query, found }
      : { result: found, correction: null, found };
  }

  /** The results page's product ids with did you mean, as `searchCorrected`. */
  async productIdsCorrected(
    text: string,
    options: { typos?: boolean } = {},
  ): Promise<{ ids: number[]; correction: string | null; found: number }> {
    await this.refresh();
    const ids = await this.#index.searchProductIds(text, options);
    if (options.typos === false) return { ids, correction: null, found: ids.length };
    const correction = await this.correction(text, ids.length > 0);
    if (!correction) return { ids, correction: null, found: ids.length };
    const corrected = await this.#index.searchProductIds(correction.query);
    return corrected.length > 0
      ? { ids: corrected, correction: correction.query, found: ids.length }
      : { ids, correction: null, found: ids.length };
  }

  /** The corrected query for one that found nothing (`found` false) or only through typos; null if none. */
  correction(text: string, found: boolean): Promise<Correction | null> {
    return didYouMean({ text, found, vocabulary: this.#index, pastQueries: () => this.#successfulQueries() });
  }

  /** Past successful queries, read at most every few minutes per process (an owner's figure, not live data). */
  #successfulQueries(): Promise<PastQuery[]> {
    const now = Date.now();
    if (!this.#pastQueries || now - this.#pastQueries.readAt > PAST_QUERY_TTL_MS) {
      const list = this.#repository
        .successfulQueries({ limit: PAST_QUERY_LIMIT, since: now - PAST_QUERY_DAYS * 86_400_000 })
        // Corrections are a help, not the answer: a failed read leaves them to the dictionary until the next.
        .catch(() => []);
      this.#pastQueries = { readAt: now, list };
    }
    return this.#pastQueries.list;
  }

  /**
   * The row a query is recorded as for the owner's analytics (null for a query that normalizes to nothing), keyed by
   * a hash of the visitor's session (the same keyed hash of an order's session id joins searches to purchases), or
   * of address, browser and day when there is no session. Written in batches by search/analytics.
   */
  queryRecord(
    text: string,
    results: number,
    source: 'suggestions' | 'results',
    visitor: { sessionId: string | null; ip: string; userAgent: string },
    now = Date.now(),
  ): SearchQueryRecord | null {
    const query = normalizeQuery(text);
    if (!query) return null;
    const identity = visitor.sessionId ?? anonymousIdentity(visitor, now);
    return { query, results, source, sessionHash: this.sessionHash(identity), now, burstMs: BURST_MS };
  }

  /**
   * The hashes a visitor's searches may be recorded under: their session's, and (a search made before the
   * session existed: a first visit searches before anything is in the cart) their address, browser and day's.
   */
  visitorSessionHashes(visitor: { sessionId: string; ip: string; userAgent: string }, now: number): string[] {
    return [this.sessionHash(visitor.sessionId), this.sessionHash(anonymousIdentity(visitor, now))];
  }

  sessionHash(identity: string): string {
    return createHmac('sha256', this.#secret).update(`search-session:${identity}`).digest('hex').slice(0, 32);
  }
}

/** A merge's changed documents, each with its analysis, and the keys of those gone. */
interface ChangedDocuments {
  upserts: SearchDocument[];
  removedKeys: string[];
  analyzed: Map<SearchDocument, ReadonlyMap<string, number>>;
}

/** A rebuild from the answering index's content and the changes since: see INCREMENTAL_LIMIT. */
interface Merge {
  base: MemoryIndexSnapshot;
  /** The change-log position `base` holds. */
  baseSeq: number;
  changes: SearchChanges;
  /** The documents of `changes`, handed over by an import before it commits: read from there, not the catalog. */
  handoff?: ImportHandoff;
}

/** Whether a search found anything at all, in any group. */
function hasHits(result: SearchResult): boolean {
  return result.totalProducts > 0 || Object.values(result.hits).some((hits) => hits.length > 0);
}

/** Whether two documents have the same title (a term's or vendor's name). */
function sameTitle(a: SearchDocument, b: SearchDocument): boolean {
  const left = a.fields.title ?? [];
  const right = b.fields.title ?? [];
  return left.length === right.length && left.every((text, at) => text === right[at]);
}

/** A visitor without a session: their address, browser and day. */
function anonymousIdentity(visitor: { ip: string; userAgent: string }, now: number): string {
  return `anon:${visitor.ip}:${visitor.userAgent}:${new Date(now).toISOString().slice(0, 10)}`;
}
