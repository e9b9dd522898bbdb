import { suggestionObjectId } from '../../shared/search/suggestionObjectId';
import type { VocabularyWord, WordVocabulary } from './didYouMean';
import { IndexSegment } from './IndexSegment';
import { normalizeQuery, parseSearchQuery, type QueryWord } from './parseSearchQuery';
import {
  compileRules,
  EXACT,
  GROUP_NONE,
  groupOf,
  maxEditsOf,
  PREFIX_BASE,
  prefixFactor,
  queryRank,
  rankBase,
  SHORT_FIELDS,
  SHORT_TYPO_LENGTH,
  SHORT_WORD,
  SYNONYM,
  TYPO,
  TYPO_THRESHOLD,
  termsOf,
  titleKey,
  titleKeysOf,
} from './ranking';
import {
  DEFAULT_RULES,
  type RelevanceRules,
  SEARCH_GROUPS,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchRequest,
  type SearchResult,
} from './SearchIndex';
import { scanTypos } from './scanTypos';
import { segmentVocabulary } from './segmentVocabulary';

/*
 * The embedded search engine: an in-memory inverted index (chosen over SQLite FTS5 by the benchmark in
 * bench/search.bench.mjs; README "Search engine" says why). Two segments, LSM-style: a large base built by a
 * full rebuild, and a small delta rebuilt from the documents changed since, so a catalog write costs
 * milliseconds even at 100,000 products; a replaced document is tombstoned in the base.
 *
 * Ranking follows ranking.ts, as the PostgreSQL index does. Owner rules (synonyms, stop words, boosts,
 * out-of-stock handling, pins) apply per query, without a rebuild.
 */

/** A full rebuild replaces the delta once it holds this many documents. */
const DELTA_LIMIT = 2000;
/** About how many postings a document adds: a slice of the segment's build is worth this many documents' slice. */
const POSTINGS_PER_DOCUMENT = 20;

/** What one word matches in one segment: single terms with their factor, and a prefix range of the dictionary. */
interface SegmentMatch {
  segment: IndexSegment;
  singles: Map<number, number>;
  /** Terms [from, to) start with the word (exact match excluded through `singles`). */
  from: number;
  to: number;
  wordLength: number;
  postings: number;
}

/** The factor of a term for a word: its exact, synonym or typo factor, or its prefix factor. */
function termFactor(match: SegmentMatch, termId: number): number {
  if (match.singles.size > 0) {
    const single = match.singles.get(termId);
    if (single !== undefined) return single;
  }
  if (termId < match.from || termId >= match.to) return 0;
  return prefixFactor(match.wordLength, match.segment.termLengths[termId] as number);
}

/** See MemorySearchIndexOptions.exactTotalBudget. */
const EXACT_TOTAL_BUDGET = 20_000;

/** The forward check pays off when the candidates' own terms are far fewer than the word's postings. */
const TERMS_PER_DOC_ESTIMATE = 15;

/**
 * A later word's term is searched by galloping when the candidates times this are fewer than its postings: a
 * gallop costs a few comparisons per candidate, a walk one cheap step per posting.
 */
const GALLOP_COST = 8;

/** What the products' top needs to know to stop early: how many, and which products may be shown. */
interface TopRequest {
  limit: number;
  pinned: Set<number>;
  variations: boolean;
}

interface Candidates {
  /** A view of a scratch buffer: valid until the next query. */
  docs: Int32Array;
  /** False when the products were cut once their top was certain: then not every matching product is in `docs`. */
  complete: boolean;
  scores: Float64Array;
}

export interface MemorySearchIndexOptions {
  /**
   * A one-word query stops walking its postings once the top products are certain, unless fewer postings than this
   * are left: then it walks on, and the total stays exact (the cheap case).
   */
  exactTotalBudget?: number;
}

/**
 * An index's content at one moment, as a merge beside it starts from (`MemorySearchIndex.mergeInSlices`): its
 * documents by number, the base segment holding the postings of those it was built with, and the terms of those
 * updated since (the delta's). Segments and term maps are never changed once made, and the containers are copies,
 * so later updates of the index leave the snapshot as it was.
 */
export interface MemoryIndexSnapshot {
  readonly documents: readonly (SearchDocument | null)[];
  readonly base: IndexSegment;
  readonly deltaTerms: ReadonlyMap<number, ReadonlyMap<string, number>>;
}

export class MemorySearchIndex implements SearchIndex {
  #rules: RelevanceRules = DEFAULT_RULES;
  readonly #exactTotalBudget: number;
  #stopWords = new Set<string>();
  #synonyms = new Map<string, string[]>();
  #fieldWeights = new Float64Array(32);
  /** Off for one synchronous search asked without typos (`SearchRequest.typos`). */
  #typos = true;

  // Per document number; numbers are never reused until a full rebuild.
  #documents: (SearchDocument | null)[] = [];
  #byKey = new Map<string, number>();
  #base = new IndexSegment(new Map());
  #delta = new IndexSegment(new Map());
  #deltaDocs = new Map<number, Map<string, number>>();
  #variationKeys = new Map<number, Set<string>>();
  /** Documents by whole-title key (titleKey), for the whole-title rule; removed documents are skipped by null. */
  #byTitle = new Map<string, number[]>();
  /**
   * The base numbers every document outside the products group below the products (each group keeping its load
   * order, so ties rank as before): a posting list then starts with them, and a query that stops early on the
   * products still reads the other groups whole by reading each remaining list up to this number.
   */
  #firstProductDoc = 0;

  // Scratch arrays for one query, sized to the document count; marks avoid clearing them per query.
  #mark = new Uint32Array(0);
  #clauseMark = new Uint32Array(0);
  #score = new Float64Array(0);
  #clauseScore = new Float64Array(0);
  #finalScore = new Float64Array(0);
  #generation = 0;
  /** The candidates between words, the documents one word reaches, and the query's result: scratch per query. */
  #candidateBuffer = new Int32Array(0);
  #seenBuffer = new Int32Array(0);
  #resultBuffer = new Int32Array(0);
  /** Which documents the last query matched: #resultMark[doc] === #resultGeneration. */
  #resultMark = new Uint32Array(0);
  #resultGeneration = 0;
  /** Which documents have the last query as their whole title: #wholeTitleMark[doc] === #resultGeneration. */
  #wholeTitleMark = new Uint32Array(0);
  #group = new Uint8Array(0);
  #rankBase = new Float64Array(0);
  #inStock = new Uint8Array(0);
  /** A variation's parent product document, -1 for everything else (or a parent not indexed). */
  #parentDoc = new Int32Array(0);

  constructor(rules: RelevanceRules = DEFAULT_RULES, options: MemorySearchIndexOptions = {}) {
    this.#exactTotalBudget = options.exactTotalBudget ?? EXACT_TOTAL_BUDGET;
    this.#setRules(rules);
  }

  get size(): number {
    return this.#byKey.size;
  }

  async count(): Promise<number> {
    return this.#byKey.size;
  }

  async setRules(rules: RelevanceRules): Promise<void> {
    this.#setRules(rules);
  }

  async replaceAll(documents: Iterable<SearchDocument>): Promise<void> {
    this.#replaceAll(documents);
  }

  /**
   * replaceAll for an index nobody searches yet (built beside the answering one): the same build, awaiting `pause()`
   * after every `slice` documents so that searches waiting on the event loop run between slices.
   */
  async replaceAllInSlices(
    documents: Iterable<SearchDocument>,
    pause: () => Promise<void>,
    slice = 500,
  ): Promise<void> {
    for (const _ of this.#building(documents, slice)) await pause();
  }

  /**
   * replaceAllInSlices with `from`'s documents and the changes (a product's variations go with it, as in an
   * update): the same index, built in a fraction of the time, because the documents that did not change keep their
   * analysis. Their postings are copied from `from`'s base segment (renumbered), or taken from the term maps of those
   * updated since; only the upserts are analyzed, which
   * was most of a build (a big import's changes then show in about the time their own documents take). `analyzed`
   * holds upserts' terms worked out already (`analyzeDocument`, while their rows were still being read).
   */
  async mergeInSlices(
    from: MemoryIndexSnapshot,
    upserts: readonly SearchDocument[],
    removedKeys: readonly string[],
    pause: () => Promise<void>,
    slice = 500,
    analyzed: ReadonlyMap<SearchDocument, ReadonlyMap<string, number>> = new Map(),
  ): Promise<void> {
    for (const _ of this.#merging(from, upserts, removedKeys, slice, analyzed)) await pause();
  }

  /** A document's terms as this index analyzes them, for `mergeInSlices`' `analyzed`. */
  static analyzeDocument(document: SearchDocument): ReadonlyMap<string, number> {
    return termsOf(document);
  }

  /** What a merge beside this index starts from (see MemoryIndexSnapshot). */
  snapshot(): MemoryIndexSnapshot {
    return { documents: [...this.#documents], base: this.#base, deltaTerms: new Map(this.#deltaDocs) };
  }

  /** The documents it holds, in load order. */
  liveDocuments(): SearchDocument[] {
    return this.#documents.filter((document): document is SearchDocument => document !== null);
  }

  /** The document it holds under `key` (a term's or vendor's, to see whether its name changed: SearchService). */
  document(key: string): SearchDocument | null {
    const doc = this.#byKey.get(key);
    return doc === undefined ? null : (this.#documents[doc] ?? null);
  }

  async update(upserts: readonly SearchDocument[], removedKeys: readonly string[]): Promise<void> {
    this.#update(upserts, removedKeys);
  }

  // The work is synchronous: the promise only wraps the answer (the interface fits shared engines too).
  async search(request: SearchRequest): Promise<SearchResult> {
    return this.#withTypos(request.typos !== false, () => this.#search(request));
  }

  async searchProductIds(text: string, options: { typos?: boolean } = {}): Promise<number[]> {
    return this.#withTypos(options.typos !== false, () => this.#searchProductIds(text));
  }

  async vocabulary(words: readonly VocabularyWord[]): Promise<WordVocabulary[]> {
    return segmentVocabulary([this.#base, this.#delta], words, this.#stopWords, this.#synonyms);
  }

  #withTypos<T>(typos: boolean, search: () => T): T {
    this.#typos = typos;
    try {
      return search();
    } finally {
      this.#typos = true;
    }
  }

  #setRules(rules: RelevanceRules): void {
    this.#rules = rules;
    const compiled = compileRules(rules);
    this.#stopWords = compiled.stopWords;
    this.#synonyms = compiled.synonyms;
    this.#fieldWeights = compiled.fieldWeights;
    // Out-of-stock handling changes the rank keys.
    for (let doc = 0; doc < this.#documents.length; doc++) this.#setRank(doc);
  }

  #replaceAll(documents: Iterable<SearchDocument>): void {
    for (const _ of this.#building(documents, Number.POSITIVE_INFINITY));
  }

  /** The build, yielding after every `slice` documents (replaceAllInSlices pauses there). */
  *#building(documents: Iterable<SearchDocument>, slice: number): Generator<void> {
    const all = [...documents];
    const others = all.filter((document) => !isProduct(document));
    const ordered = [...others, ...all.filter(isProduct)];
    this.#reset(others.length);
    const postings = new Map<string, number[]>();
    // Ordering tens of thousands of documents is a step of its own (the pause after it may yield).
    if (slice !== Number.POSITIVE_INFINITY) yield;
    for (const document of ordered) {
      const doc = this.#addDocument(document);
      addTerms(postings, doc, termsOf(document));
      if ((doc + 1) % slice === 0) yield;
    }
    this.#base = yield* IndexSegment.building(postings, SHORT_FIELDS, slice * POSTINGS_PER_DOCUMENT);
    this.#delta = new IndexSegment(new Map());
  }

  /**
   * The merge's build: the documents in the order a replaceAll of [kept…, upserts…] gives them (each group after
   * the groups outside products, see #firstProductDoc), so ties rank as they would after a full rebuild.
   */
  *#merging(
    from: MemoryIndexSnapshot,
    upserts: readonly SearchDocument[],
    removedKeys: readonly string[],
    slice: number,
    analyzed: ReadonlyMap<SearchDocument, ReadonlyMap<string, number>>,
  ): Generator<void> {
    // A step per `slice` documents looked at: ordering tens of thousands in one go would hold the loop ~40 ms.
    const dropped = new Set(removedKeys);
    for (const [at, document] of upserts.entries()) {
      dropped.add(document.key);
      if ((at + 1) % slice === 0) yield;
    }
    const { documents } = from;
    const droppedProducts = new Set<number>();
    for (let doc = 0; doc < documents.length; doc++) {
      const document = documents[doc];
      if (document?.kind === 'product' && dropped.has(document.key)) droppedProducts.add(document.id);
      if ((doc + 1) % slice === 0) yield;
    }
    // Each document in its new place, with its number in `from` (-1 for an upsert, analyzed anew).
    const keptOthers: number[] = [];
    const keptProducts: number[] = [];
    for (let doc = 0; doc < documents.length; doc++) {
      const document = documents[doc];
      if (
        document &&
        !dropped.has(document.key) &&
        !(document.kind === 'variation' && droppedProducts.has(document.parentId as number))
      ) {
        (isProduct(document) ? keptProducts : keptOthers).push(doc);
      }
      if ((doc + 1) % slice === 0) yield;
    }
    const upsertOthers = upserts.filter((document) => !isProduct(document));
    const upsertProducts = upserts.filter(isProduct);
    const ordered = [
      ...keptOthers.map((doc) => documents[doc] as SearchDocument),
      ...upsertOthers,
      ...keptProducts.map((doc) => documents[doc] as SearchDocument),
      ...upsertProducts,
    ];
    const origin = [
      ...keptOthers,
      ...upsertOthers.map(() => -1),
      ...keptProducts,
      ...upsertProducts.map(() => -1),
    ];
    const others = keptOthers.length + upsertOthers.length;
    this.#reset(others);
    yield;
    // The changed documents' terms, and the updated ones' (kept from their update), gathered in document order.
    const postings = new Map<string, number[]>();
    const renumbered = new Int32Array(from.documents.length).fill(-1);
    for (const [position, document] of ordered.entries()) {
      const doc = this.#addDocument(document);
      const old = origin[position] as number;
      const updated = old >= 0 ? from.deltaTerms.get(old) : (analyzed.get(document) ?? termsOf(document));
      if (updated) addTerms(postings, doc, updated);
      else renumbered[old] = doc;
      if ((doc + 1) % slice === 0) yield;
    }
    // The other documents' postings come from the base segment, renumbered: the base numbers its documents as a build
    // does (groups outside products first), so they stay in order and each term's two lists merge in one pass.
    const step = slice * POSTINGS_PER_DOCUMENT;
    this.#base = yield* IndexSegment.merging(from.base, renumbered, postings, SHORT_FIELDS, step);
    this.#delta = new IndexSegment(new Map());
  }

  /** Empties the index for a build; `firstProductDoc` documents outside the products group come first. */
  #reset(firstProductDoc: number): void {
    this.#documents = [];
    this.#byKey = new Map();
    this.#deltaDocs = new Map();
    this.#variationKeys = new Map();
    this.#byTitle = new Map();
    this.#firstProductDoc = firstProductDoc;
  }

  #update(upserts: readonly SearchDocument[], removedKeys: readonly string[]): void {
    const keys = new Set([...removedKeys, ...upserts.map((document) => document.key)]);
    // A product's variations go with it: the caller sends the ones that still exist.
    for (const key of [...keys]) {
      const doc = this.#byKey.get(key);
      const document = doc === undefined ? null : this.#documents[doc];
      if (document?.kind !== 'product') continue;
      for (const variationKey of this.#variationKeys.get(document.id) ?? []) keys.add(variationKey);
      this.#variationKeys.delete(document.id);
    }
    for (const key of keys) {
      const doc = this.#byKey.get(key);
      if (doc === undefined) continue;
      for (const title of titleKeysOf(this.#documents[doc] as SearchDocument)) {
        const docs = (this.#byTitle.get(title) ?? []).filter((each) => each !== doc);
        if (docs.length > 0) this.#byTitle.set(title, docs);
        else this.#byTitle.delete(title);
      }
      this.#documents[doc] = null;
      this.#byKey.delete(key);
      this.#deltaDocs.delete(doc);
    }
    for (const document of upserts) {
      this.#deltaDocs.set(this.#addDocument(document), termsOf(document));
    }
    if (this.#deltaDocs.size > DELTA_LIMIT) {
      this.#replaceAll(this.#documents.filter((document): document is SearchDocument => document !== null));
      return;
    }
    const postings = new Map<string, number[]>();
    for (const [doc, terms] of this.#deltaDocs) addTerms(postings, doc, terms);
    this.#delta = new IndexSegment(postings, SHORT_FIELDS);
  }

  #search(request: SearchRequest): SearchResult {
    const limits = SEARCH_GROUPS.map((group) => request.limits[group] ?? 0);
    const top: number[][] = SEARCH_GROUPS.map(() => []);
    const pinned = this.#pinned(request.text);
    const candidates = this.#match(request.text, {
      limit: limits[0] as number,
      pinned,
      variations: request.variations === true,
    });
    const variationParents = new Set<number>();
    let totalProducts = 0;
    if (candidates) {
      const hide = this.#rules.outOfStock === 'hide';
      const groups = this.#group;
      const inStock = this.#inStock;
      const tops = top.map(() => new BoundedTop(0));
      for (const [index, limit] of limits.entries()) tops[index] = new BoundedTop(limit);
      // The hot loop of a broad prefix (tens of thousands of candidates): typed arrays only, no closures.
      for (const doc of candidates.docs) {
        if (hide && inStock[doc] === 0) continue;
        const group = groups[doc] as number;
        if (group === GROUP_NONE) continue;
        if (group === 0) {
          if (this.#parentDoc[doc] !== -1) {
            // A variation counts as its parent, unless the parent matched too.
            const parent = this.#parentDoc[doc] as number;
            if (this.#resultMark[parent] !== this.#resultGeneration && !variationParents.has(parent)) {
              variationParents.add(parent);
              totalProducts++;
            }
            if (!request.variations) continue;
          } else totalProducts++;
          if (pinned.size > 0 && pinned.has(doc)) continue;
        }
        (tops[group] as BoundedTop).offer(doc, this.#rankOf(doc, candidates.scores));
      }
      for (const [index, bounded] of tops.entries()) top[index] = bounded.docs;
    }
    const hits: SearchResult['hits'] = {};
    for (const [index, group] of SEARCH_GROUPS.entries()) {
      if ((limits[index] as number) === 0) continue;
      let docs = top[index] as number[];
      if (group === 'products' && pinned.size > 0) {
        const pins = [...pinned].filter(
          (doc) => !(this.#rules.outOfStock === 'hide' && this.#inStock[doc] === 0),
        );
        totalProducts += pins.filter((doc) => this.#resultMark[doc] !== this.#resultGeneration).length;
        docs = [...pins, ...docs].slice(0, limits[index] as number);
      }
      hits[group] = docs.map((doc) => this.#toHit(doc, candidates?.scores[doc] ?? 0));
    }
    return candidates?.complete === false
      ? { hits, totalProducts, totalIsLowerBound: true }
      : { hits, totalProducts };
  }

  #searchProductIds(text: string): number[] {
    const candidates = this.#match(text);
    const pinned = this.#pinned(text);
    const hide = this.#rules.outOfStock === 'hide';
    const best = new Map<number, number>();
    for (const doc of candidates?.docs ?? []) {
      if (this.#group[doc] !== 0 || (hide && this.#inStock[doc] === 0) || pinned.has(doc)) continue;
      const document = this.#documents[doc] as SearchDocument;
      // A variation found by its SKU brings its parent into the results, ranked as the variation is.
      const productDoc =
        document.kind === 'variation'
          ? this.#byKey.get(suggestionObjectId({ type: 'product', postId: document.parentId as number }))
          : doc;
      if (productDoc === undefined || pinned.has(productDoc)) continue;
      const rank = this.#rankOf(doc, (candidates as Candidates).scores);
      if (rank > (best.get(productDoc) ?? -1)) best.set(productDoc, rank);
    }
    const ranked = [...best].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([doc]) => doc);
    const pins = [...pinned].filter((doc) => !(hide && this.#inStock[doc] === 0));
    return [...pins, ...ranked].map((doc) => (this.#documents[doc] as SearchDocument).id);
  }

  #pinned(text: string): Set<number> {
    // Own keys only: a query such as "constructor" must not read Object.prototype.
    const query = normalizeQuery(text);
    const ids = Object.hasOwn(this.#rules.pins, query) ? (this.#rules.pins[query] ?? []) : [];
    const docs = new Set<number>();
    for (const id of ids) {
      const doc = this.#byKey.get(suggestionObjectId({ type: 'product', postId: id }));
      if (doc !== undefined) docs.add(doc);
    }
    return docs;
  }

  #toHit(doc: number, score: number): SearchHit {
    const document = this.#documents[doc] as SearchDocument;
    return {
      key: document.key,
      kind: document.kind,
      id: document.id,
      parentId: document.parentId,
      taxonomy: document.taxonomy,
      postType: document.postType,
      score,
    };
  }

  #addDocument(document: SearchDocument): number {
    const doc = this.#documents.length;
    this.#documents.push(document);
    this.#byKey.set(document.key, doc);
    for (const key of titleKeysOf(document)) {
      const docs = this.#byTitle.get(key);
      if (docs) docs.push(doc);
      else this.#byTitle.set(key, [doc]);
    }
    if (document.kind === 'variation' && document.parentId !== null) {
      const siblings = this.#variationKeys.get(document.parentId) ?? new Set<string>();
      siblings.add(document.key);
      this.#variationKeys.set(document.parentId, siblings);
    }
    if (doc >= this.#mark.length) this.#grow(Math.max(1024, doc * 2));
    this.#group[doc] = groupOf(document);
    this.#parentDoc[doc] =
      document.kind === 'variation'
        ? (this.#byKey.get(suggestionObjectId({ type: 'product', postId: document.parentId as number })) ??
          -1)
        : -1;
    this.#inStock[doc] = document.inStock ? 1 : 0;
    this.#setRank(doc);
    return doc;
  }

  #grow(capacity: number): void {
    const grow = <T extends Uint32Array | Float64Array | Uint8Array | Int32Array>(
      old: T,
      make: (n: number) => T,
    ): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.#mark = grow(this.#mark, (n) => new Uint32Array(n));
    this.#candidateBuffer = new Int32Array(capacity);
    this.#seenBuffer = new Int32Array(capacity);
    this.#resultBuffer = new Int32Array(capacity);
    this.#clauseMark = grow(this.#clauseMark, (n) => new Uint32Array(n));
    this.#score = grow(this.#score, (n) => new Float64Array(n));
    this.#clauseScore = grow(this.#clauseScore, (n) => new Float64Array(n));
    this.#finalScore = grow(this.#finalScore, (n) => new Float64Array(n));
    this.#resultMark = grow(this.#resultMark, (n) => new Uint32Array(n));
    this.#wholeTitleMark = grow(this.#wholeTitleMark, (n) => new Uint32Array(n));
    this.#group = grow(this.#group, (n) => new Uint8Array(n));
    this.#rankBase = grow(this.#rankBase, (n) => new Float64Array(n));
    this.#inStock = grow(this.#inStock, (n) => new Uint8Array(n));
    this.#parentDoc = grow(this.#parentDoc, (n) => new Int32Array(n));
  }

  /**
   * The part of a document's rank that does not depend on the query, in the low bits of one number:
   * featured, in stock, units sold. `#rankOf` adds the score (and, with out-of-stock "last", the stock tier) above.
   */
  #setRank(doc: number): void {
    const document = this.#documents[doc];
    if (!document) return;
    this.#rankBase[doc] = rankBase(document);
  }

  #rankOf(doc: number, scores: Float64Array): number {
    const tier = this.#rules.outOfStock === 'last' ? (this.#inStock[doc] as number) : 0;
    const wholeTitle = this.#wholeTitleMark[doc] === this.#resultGeneration;
    return queryRank(scores[doc] as number, tier, this.#rankBase[doc] as number, wholeTitle);
  }

  /** Every live document matching all the words of some reading of the query, with its score. */
  #match(text: string, top?: TopRequest): Candidates | null {
    const finalMark = ++this.#resultGeneration;
    const readings = parseSearchQuery(text, this.#stopWords);
    if (readings.length === 0) return null;
    for (const doc of this.#byTitle.get(titleKey(text)) ?? []) {
      if (this.#documents[doc] !== null) this.#wholeTitleMark[doc] = finalMark;
    }
    // Valid for the documents in `docs` until the next query (searches are synchronous).
    const scores = this.#finalScore;
    const memo = new Map<string, SegmentMatch[]>();
    const only = readings.length === 1 && readings[0]?.length === 1 ? readings[0][0] : undefined;
    if (top && only && top.limit > 0 && this.#rules.outOfStock !== 'last') {
      const found = this.#matchTop(only, top, finalMark, scores, memo);
      if (found.count > 0 || only.text.length !== SHORT_TYPO_LENGTH) {
        return { docs: this.#resultBuffer.subarray(0, found.count), scores, complete: found.complete };
      }
    }
    let count = this.#matchReadings(readings, false, finalMark, scores, memo);
    // Nothing as typed: three-letter words may then have one typo (SHORT_TYPO_LENGTH).
    if (count === 0 && readings.some((words) => words.some(isShortTypoWord))) {
      count = this.#matchReadings(readings, true, finalMark, scores, memo);
    }
    return { docs: this.#resultBuffer.subarray(0, count), scores, complete: true };
  }

  /**
   * One word in one reading (most keystrokes), for a suggestions answer: the word's terms are walked best first
   * (by the most a term can score: its match factor × the weight of the best field it appears in), and the walk
   * stops once `top.limit` showable products score above anything the terms left could give: those products'
   * scores are final and no other product can pass them, so the top is exactly that of a full walk. The groups
   * other than products are still read whole (the start of each remaining list, see #firstProductDoc). Stops only
   * when more than the exact-total budget of postings is left; the count of products is then a lower bound.
   */
  #matchTop(
    word: QueryWord,
    top: TopRequest,
    finalMark: number,
    scores: Float64Array,
    memo: Map<string, SegmentMatch[]>,
  ): { count: number; complete: boolean } {
    const matches = this.#memoMatches(word, false, memo);
    const short = word.text.length <= SHORT_WORD;
    const clause = ++this.#generation;
    const clauseMark = this.#clauseMark;
    const clauseScore = this.#clauseScore;
    const weights = this.#fieldWeights;
    const seen = this.#seenBuffer;
    let seenCount = 0;
    /** Walks one term's postings up to document `endDoc`; returns how many postings it read. */
    const walk = (segment: IndexSegment, termId: number, factor: number, endDoc: number): number => {
      const { docs: postingDocs, masks, offsets } = segment;
      const fields = short || factor < PREFIX_BASE ? SHORT_FIELDS : 0xff;
      const begin = offsets[termId] as number;
      const end = offsets[termId + 1] as number;
      let at = begin;
      for (; at < end; at++) {
        const doc = postingDocs[at] as number;
        if (doc >= endDoc) break;
        const mask = (masks[at] as number) & fields;
        if (mask === 0) continue;
        const score = factor * (weights[mask] as number);
        if (clauseMark[doc] !== clause) {
          clauseMark[doc] = clause;
          clauseScore[doc] = score;
          seen[seenCount++] = doc;
        } else if (score > (clauseScore[doc] as number)) clauseScore[doc] = score;
      }
      return at - begin;
    };
    let complete = true;
    for (const match of matches) {
      const { segment } = match;
      const termIds: number[] = [];
      const factors: number[] = [];
      for (const [termId, factor] of match.singles) {
        termIds.push(termId);
        factors.push(factor);
      }
      for (let termId = match.from; termId < match.to; termId++) {
        if (match.singles.has(termId)) continue;
        termIds.push(termId);
        factors.push(termFactor(match, termId));
      }
      if (segment !== this.#base) {
        // The delta is small: read whole.
        for (const [i, termId] of termIds.entries()) walk(segment, termId, factors[i] as number, Infinity);
        continue;
      }
      const bounds = termIds.map((termId, i) => {
        const factor = factors[i] as number;
        const fields = short || factor < PREFIX_BASE ? SHORT_FIELDS : 0xff;
        return factor * (weights[(segment.termMasks[termId] as number) & fields] as number);
      });
      const order = termIds.map((_, i) => i).sort((a, b) => (bounds[b] as number) - (bounds[a] as number));
      let left = match.postings;
      let nextCheck = 0;
      let walked = 0;
      let stopAt = order.length;
      for (const [position, i] of order.entries()) {
        if (left > this.#exactTotalBudget && walked >= nextCheck) {
          if (this.#topIsCertain(seen, seenCount, bounds[i] as number, top)) {
            stopAt = position;
            break;
          }
          // Checks cost a pass over the documents seen: space them as the walk grows.
          nextCheck = walked + seenCount;
        }
        const read = walk(segment, termIds[i] as number, factors[i] as number, Infinity);
        walked += read;
        left -= read;
      }
      if (stopAt < order.length) {
        complete = false;
        for (const i of order.slice(stopAt)) {
          walk(segment, termIds[i] as number, factors[i] as number, this.#firstProductDoc);
        }
      }
    }
    const result = this.#resultBuffer;
    const documents = this.#documents;
    let count = 0;
    for (let i = 0; i < seenCount; i++) {
      const doc = seen[i] as number;
      if (documents[doc] === null) continue;
      // As #matchReadings scores a one-word reading: the word's score × 1.
      scores[doc] = clauseScore[doc] as number;
      this.#resultMark[doc] = finalMark;
      result[count++] = doc;
    }
    return { count, complete };
  }

  /**
   * Whether at least `top.limit` showable products already score (to two decimals, as ranks compare) above
   * `bound`, the most any term left could give: their scores are then final, and nothing else can pass them.
   */
  #topIsCertain(seen: Int32Array, seenCount: number, bound: number, top: TopRequest): boolean {
    if (seenCount < top.limit) return false;
    const boundKey = Math.round(bound * 100);
    const hide = this.#rules.outOfStock === 'hide';
    let above = 0;
    for (let i = 0; i < seenCount; i++) {
      const doc = seen[i] as number;
      if (this.#group[doc] !== 0 || this.#documents[doc] === null) continue;
      if (Math.round((this.#clauseScore[doc] as number) * 100) <= boundKey) continue;
      if (hide && this.#inStock[doc] === 0) continue;
      if (top.pinned.has(doc) || (!top.variations && this.#parentDoc[doc] !== -1)) continue;
      if (++above >= top.limit) return true;
    }
    return false;
  }

  /** Matches each reading into #resultBuffer (each document once, with its best reading's score); returns the count. */
  #matchReadings(
    readings: QueryWord[][],
    shortTypos: boolean,
    finalMark: number,
    scores: Float64Array,
    memo: Map<string, SegmentMatch[]>,
  ): number {
    const result = this.#resultBuffer;
    let count = 0;
    for (const [index, reading] of readings.entries()) {
      // Readings have different word counts: compare them by the mean per word, the first (whole-chunk)
      // reading slightly ahead, since it is the more specific one (a SKU typed whole).
      const weight = (index === 0 ? 1 : 0.9) / reading.length;
      for (const doc of this.#matchAll(reading, shortTypos, memo)) {
        const score = (this.#score[doc] as number) * weight;
        if (this.#resultMark[doc] !== finalMark) {
          this.#resultMark[doc] = finalMark;
          result[count++] = doc;
          scores[doc] = score;
        } else if (score > (scores[doc] as number)) scores[doc] = score;
      }
    }
    return count;
  }

  /**
   * AND over the words, rarest first; the scores land in #score. The rarest word's postings are walked; each next
   * word only checks the candidates left: per term, by galloping through its postings when the candidates are
   * far fewer than them, by the candidates' own terms (the forward index) for a one- or two-letter word, else by
   * walking the postings against the candidate marks. Returns a view of a scratch buffer, valid until the next call.
   */
  #matchAll(words: readonly QueryWord[], shortTypos: boolean, memo: Map<string, SegmentMatch[]>): Int32Array {
    const clauses: SegmentMatch[][] = [];
    const sizes: number[] = [];
    for (const word of words) {
      const matches = this.#memoMatches(word, shortTypos, memo);
      const size = matches.reduce((sum, match) => sum + match.postings, 0);
      // A word that reaches nothing (the joined reading "tshirt" of "t shirt" in a catalog without it) ends the
      // reading before the other words' terms, typos included, are even looked up.
      if (size === 0) return this.#candidateBuffer.subarray(0, 0);
      clauses.push(matches);
      sizes.push(size);
    }
    const order = clauses
      .map((_, index) => index)
      .sort((a, b) => (sizes[a] as number) - (sizes[b] as number));
    const seen = this.#seenBuffer;
    let docs = this.#candidateBuffer.subarray(0, 0);
    let sorted = false;
    for (const [position, index] of order.entries()) {
      const matches = clauses[index] as SegmentMatch[];
      if ((sizes[index] as number) === 0) return docs.subarray(0, 0);
      const clause = ++this.#generation;
      let seenCount = 0;
      const short = (words[index] as QueryWord).text.length <= SHORT_WORD;
      const clauseMark = this.#clauseMark;
      const clauseScore = this.#clauseScore;
      const weights = this.#fieldWeights;
      if (short && position > 0 && docs.length * TERMS_PER_DOC_ESTIMATE < (sizes[index] as number)) {
        // Few candidates left: look their terms up instead of walking this word's postings. A document's forward
        // terms are in term order, so the word's prefix range is found in them by a binary search.
        for (const match of matches) {
          const { segment, from, to, singles } = match;
          const { forwardOffsets, forwardTerms, forwardMasks, firstDoc } = segment;
          const slots = forwardOffsets.length - 1;
          // Synonyms (and typos) outside the prefix range are looked up one by one.
          const outside = [...singles].filter(([termId]) => termId < from || termId >= to);
          const offer = (doc: number, at: number, factor: number) => {
            const score = factor * (weights[forwardMasks[at] as number] as number);
            if (clauseMark[doc] !== clause) {
              clauseMark[doc] = clause;
              clauseScore[doc] = score;
              seen[seenCount++] = doc;
            } else if (score > (clauseScore[doc] as number)) clauseScore[doc] = score;
          };
          for (const doc of docs) {
            const slot = doc - firstDoc;
            if (slot < 0 || slot >= slots) continue;
            const begin = forwardOffsets[slot] as number;
            const end = forwardOffsets[slot + 1] as number;
            if (from < to) {
              for (let at = lowerBound(forwardTerms, begin, end, from); at < end; at++) {
                const termId = forwardTerms[at] as number;
                if (termId >= to) break;
                const factor = termFactor(match, termId);
                if (factor > 0) offer(doc, at, factor);
              }
            }
            for (const [termId, factor] of outside) {
              const at = lowerBound(forwardTerms, begin, end, termId);
              if (at < end && forwardTerms[at] === termId) offer(doc, at, factor);
            }
          }
        }
      } else {
        // The hot loops of a broad word: locals and typed arrays only.
        const previous = position === 0 ? -1 : clause - 1;
        const mark = this.#mark;
        const candidates = docs.length;
        for (const match of matches) {
          const { segment } = match;
          const { docs: postingDocs, masks, offsets } = segment;
          const visit = (termId: number, factor: number) => {
            // Typos count outside the descriptions only: among so many words a one-letter neighbour is nearly
            // always there (shirt → short), and it would pull in products about something else.
            const fields = short || factor < PREFIX_BASE ? SHORT_FIELDS : 0xff;
            const begin = offsets[termId] as number;
            const end = offsets[termId + 1] as number;
            if (previous !== -1 && candidates * GALLOP_COST < end - begin) {
              // Postings are in document order: find each (sorted) candidate by a galloping search.
              if (!sorted) {
                docs.sort();
                sorted = true;
              }
              let at = begin;
              for (let i = 0; i < candidates && at < end; i++) {
                const doc = docs[i] as number;
                if ((postingDocs[at] as number) < doc) {
                  let step = 1;
                  let low = at;
                  let high = at + 1;
                  while (high < end && (postingDocs[high] as number) < doc) {
                    low = high;
                    step *= 2;
                    high = at + step;
                  }
                  if (high > end) high = end;
                  // The first posting >= doc lies in (low, high].
                  while (low + 1 < high) {
                    const middle = (low + high) >>> 1;
                    if ((postingDocs[middle] as number) < doc) low = middle;
                    else high = middle;
                  }
                  at = high;
                }
                if (at >= end || postingDocs[at] !== doc) continue;
                const mask = (masks[at] as number) & fields;
                if (mask === 0) continue;
                const score = factor * (weights[mask] as number);
                if (clauseMark[doc] !== clause) {
                  clauseMark[doc] = clause;
                  clauseScore[doc] = score;
                  seen[seenCount++] = doc;
                } else if (score > (clauseScore[doc] as number)) clauseScore[doc] = score;
              }
              return;
            }
            for (let at = begin; at < end; at++) {
              const doc = postingDocs[at] as number;
              if (previous !== -1 && mark[doc] !== previous) continue;
              const mask = (masks[at] as number) & fields;
              if (mask === 0) continue;
              const score = factor * (weights[mask] as number);
              if (clauseMark[doc] !== clause) {
                clauseMark[doc] = clause;
                clauseScore[doc] = score;
                seen[seenCount++] = doc;
              } else if (score > (clauseScore[doc] as number)) clauseScore[doc] = score;
            }
          };
          for (const [termId, factor] of match.singles) visit(termId, factor);
          for (let termId = match.from; termId < match.to; termId++) {
            if (!match.singles.has(termId)) visit(termId, termFactor(match, termId));
          }
        }
      }
      // The survivors become the candidates, in the order they were seen (sorted if the candidates were).
      const next = this.#candidateBuffer;
      const mark = this.#mark;
      const score = this.#score;
      const documents = this.#documents;
      let count = 0;
      for (let i = 0; i < seenCount; i++) {
        const doc = seen[i] as number;
        if (documents[doc] === null) continue;
        score[doc] = (position === 0 ? 0 : (score[doc] as number)) + (clauseScore[doc] as number);
        mark[doc] = clause;
        next[count++] = doc;
      }
      sorted = false;
      docs = next.subarray(0, count);
      if (count === 0) return docs;
    }
    return docs;
  }

  /** One word's matches, computed once per query: readings share most of their words. */
  #memoMatches(word: QueryWord, shortTypos: boolean, memo: Map<string, SegmentMatch[]>): SegmentMatch[] {
    const key = `${word.prefix ? 'p' : 'w'}${shortTypos ? 't' : '-'}${word.text}`;
    let matches = memo.get(key);
    if (!matches) {
      matches = this.#matchesOf(word, shortTypos);
      memo.set(key, matches);
    }
    return matches;
  }

  /**
   * The terms one word matches in both segments: exact, synonyms, prefix (last word), typos (4+ letters, or 3
   * in the fallback, as whole terms).
   */
  #matchesOf(word: QueryWord, shortTypos: boolean): SegmentMatch[] {
    const matches: SegmentMatch[] = [];
    const maxEdits = this.#typos ? maxEditsOf(word.text.length, shortTypos) : 0;
    const typoPrefix = word.prefix && word.text.length > SHORT_TYPO_LENGTH;
    for (const segment of [this.#base, this.#delta]) {
      if (segment.terms.length === 0) continue;
      const match: SegmentMatch = {
        segment,
        singles: new Map(),
        from: 0,
        to: 0,
        wordLength: word.text.length,
        postings: 0,
      };
      const exact = segment.termId(word.text);
      if (exact >= 0) match.singles.set(exact, EXACT);
      for (const synonym of this.#synonyms.get(word.text) ?? []) {
        const termId = segment.termId(synonym);
        if (termId >= 0 && !match.singles.has(termId)) match.singles.set(termId, SYNONYM);
      }
      for (const termId of match.singles.keys()) match.postings += segment.postingCount(termId);
      if (word.prefix) {
        [match.from, match.to] = segment.prefixRange(word.text);
        match.postings += (segment.offsets[match.to] as number) - (segment.offsets[match.from] as number);
        if (exact >= 0) match.postings -= segment.postingCount(exact);
      }
      if (maxEdits > 0 && (match.postings < TYPO_THRESHOLD || onlyInDescriptions(match))) {
        scanTypos(segment, word.text, maxEdits, typoPrefix, (termId, distance) => {
          if (distance === 0 || match.singles.has(termId)) return;
          match.singles.set(termId, TYPO[distance] as number);
          match.postings += segment.postingCount(termId);
        });
      }
      matches.push(match);
    }
    return matches;
  }
}

/** The first position in `values[begin, end)` (sorted) holding a value not less than `value`. */
function lowerBound(values: Int32Array, begin: number, end: number, value: number): number {
  let low = begin;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((values[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Whether the word as typed is weak in this segment: found (exactly, by synonym or as a prefix) in descriptions
 * only, the lowest-ranked field, where a one-typo match in any other field would outrank it (ranking.ts
 * `TYPO_THRESHOLD`). Stops at the first posting outside the descriptions, so a real word costs a few steps.
 */
function onlyInDescriptions(match: SegmentMatch): boolean {
  const { offsets, masks } = match.segment;
  const strong = (termId: number) => {
    const end = offsets[termId + 1] as number;
    for (let at = offsets[termId] as number; at < end; at++) {
      if (((masks[at] as number) & SHORT_FIELDS) !== 0) return true;
    }
    return false;
  };
  for (const termId of match.singles.keys()) if (strong(termId)) return false;
  for (let termId = match.from; termId < match.to; termId++) if (strong(termId)) return false;
  return true;
}

function isShortTypoWord(word: QueryWord): boolean {
  return word.text.length === SHORT_TYPO_LENGTH;
}

/** The best `limit` documents by rank, best first (an insertion sort: limits are small). */
class BoundedTop {
  readonly docs: number[] = [];
  readonly #ranks: number[] = [];
  readonly #limit: number;
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Equal ranks go by document number (load order), as searchProductIds and the PostgreSQL index order them. */
  offer(doc: number, rank: number): void {
    const ranks = this.#ranks;
    const docs = this.docs;
    if (this.#limit === 0) return;
    if (ranks.length === this.#limit) {
      const last = ranks[this.#limit - 1] as number;
      if (rank < last || (rank === last && doc > (docs[this.#limit - 1] as number))) return;
    }
    let at = ranks.length;
    while (
      at > 0 &&
      ((ranks[at - 1] as number) < rank ||
        ((ranks[at - 1] as number) === rank && (docs[at - 1] as number) > doc))
    )
      at--;
    ranks.splice(at, 0, rank);
    this.docs.splice(at, 0, doc);
    if (ranks.length > this.#limit) {
      ranks.pop();
      this.docs.pop();
    }
  }
}

/** In the products group (products and variations): after every other group in a build's numbering. */
function isProduct(document: SearchDocument): boolean {
  return groupOf(document) === 0;
}

/** Adds a document's terms (term → field mask) to the term → [doc, mask, …] lists a segment is built from. */
function addTerms(postings: Map<string, number[]>, doc: number, terms: ReadonlyMap<string, number>): void {
  for (const [term, mask] of terms) {
    const list = postings.get(term);
    if (list) list.push(doc, mask);
    else postings.set(term, [doc, mask]);
  }
}
