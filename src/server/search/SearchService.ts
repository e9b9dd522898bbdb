import { createHmac } from 'node:crypto';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { SearchRepository, SearchScope } from '../db/ports';
import { normalizeQuery } from './parseSearchQuery';
import type { RelevanceRules, SearchIndex, SearchRequest, SearchResult } from './SearchIndex';

/** More changes than this since the index last looked are applied as a rebuild. */
const INCREMENTAL_LIMIT = 5000;
/** Keystrokes closer together than this belong to one typing burst (one analytics row). */
const BURST_MS = 30_000;

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
  rebuild(): Promise<void>;
  apply(changes: SearchScope): Promise<void>;
}

/**
 * Keeps a SearchIndex in step with the committed catalog and the owner's rules, and answers searches with it.
 * Before each search it asks the store for the newest change-log position (one indexed lookup): a write by this
 * process, another server process or `npm run import` is applied from the committed rows, incrementally.
 */
export class SearchService {
  #repository: SearchRepository;
  #index: SearchIndex;
  #secret: string;
  #catalogSeq = -1;
  #rulesRevision = -1;
  #rebuildRequests = -1;
  #refreshing: Promise<void> | null = null;
  #followers: CatalogFollower[] = [];

  constructor(options: { repository: SearchRepository; index: SearchIndex; secret: string }) {
    this.#repository = options.repository;
    this.#index = options.index;
    this.#secret = options.secret;
  }

  /** Keeps `follower` in step too: rebuilt with the index, told each batch of changes after the index applied it. */
  follow(follower: CatalogFollower): void {
    this.#followers.push(follower);
  }

  /** Seeds the rules from the settings on first start, then builds the whole index. */
  async start(seedRules: RelevanceRules): Promise<void> {
    await this.#repository.seedRules(seedRules);
    await this.refresh();
  }

  /** A token that changes whenever a search could answer differently: for ETags. */
  get revision(): string {
    return `${this.#catalogSeq}.${this.#rulesRevision}`;
  }

  get index(): SearchIndex {
    return this.#index;
  }

  /** Applies catalog changes and rule edits committed since the last look; concurrent callers share one pass. */
  refresh(): Promise<void> {
    if (!this.#refreshing) {
      this.#refreshing = this.#refresh().finally(() => {
        this.#refreshing = null;
      });
    }
    return this.#refreshing;
  }

  async rebuild(onProgress?: (done: number, total: number) => void): Promise<number> {
    const { catalog } = await this.#repository.revision();
    const { documents } = await this.#repository.loadDocuments(undefined, onProgress);
    await this.#index.replaceAll(documents);
    for (const follower of this.#followers) await follower.rebuild();
    this.#catalogSeq = catalog;
    return documents.length;
  }

  async #refresh(): Promise<void> {
    const revision = await this.#repository.revision();
    if (revision.rules !== this.#rulesRevision) {
      const rules = await this.#repository.getRules();
      if (rules) await this.#index.setRules(rules);
      this.#rulesRevision = revision.rules;
    }
    if (revision.rebuild !== this.#rebuildRequests) {
      this.#rebuildRequests = revision.rebuild;
      await this.rebuild();
      return;
    }
    if (revision.catalog === this.#catalogSeq) return;
    const changes = await this.#repository.changesSince(this.#catalogSeq, INCREMENTAL_LIMIT);
    if (changes.full) {
      await this.rebuild();
      return;
    }
    const { documents, removedKeys } = await this.#repository.loadDocuments(changes);
    await this.#index.update(documents, removedKeys);
    for (const follower of this.#followers) await follower.apply(changes);
    this.#catalogSeq = changes.seq;
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
   * Records a query for the owner's analytics, keyed by a hash of the visitor's session (the same keyed hash of an
   * order's session id joins searches to purchases), or of address, browser and day when there is no session.
   */
  async record(
    text: string,
    results: number,
    source: 'suggestions' | 'results',
    visitor: { sessionId: string | null; ip: string; userAgent: string },
  ): Promise<void> {
    const query = normalizeQuery(text);
    if (!query) return;
    const now = Date.now();
    const identity = visitor.sessionId ?? anonymousIdentity(visitor, now);
    await this.#repository.recordQuery({
      query,
      results,
      source,
      sessionHash: this.sessionHash(identity),
      now,
      burstMs: BURST_MS,
    });
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

/** A visitor without a session: their address, browser and day. */
function anonymousIdentity(visitor: { ip: string; userAgent: string }, now: number): string {
  return `anon:${visitor.ip}:${visitor.userAgent}:${new Date(now).toISOString().slice(0, 10)}`;
}
