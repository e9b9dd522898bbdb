import { createHmac } from 'node:crypto';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { SearchRepository } from '../db/ports';
import { type Correction, didYouMean, type PastQuery } from './didYouMean';
import { normalizeQuery } from './parseSearchQuery';
import type { RelevanceRules, SearchIndex, SearchRequest, SearchResult } from './SearchIndex';

/** More changes than this since the index last looked are applied as a rebuild. */
const INCREMENTAL_LIMIT = 5000;
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
  #pastQueries: { readAt: number; list: Promise<PastQuery[]> } | null = null;

  constructor(options: { repository: SearchRepository; index: SearchIndex; secret: string }) {
    this.#repository = options.repository;
    this.#index = options.index;
    this.#secret = options.secret;
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

/** Whether a search found anything at all, in any group. */
function hasHits(result: SearchResult): boolean {
  return result.totalProducts > 0 || Object.values(result.hits).some((hits) => hits.length > 0);
}

/** A visitor without a session: their address, browser and day. */
function anonymousIdentity(visitor: { ip: string; userAgent: string }, now: number): string {
  return `anon:${visitor.ip}:${visitor.userAgent}:${new Date(now).toISOString().slice(0, 10)}`;
}
