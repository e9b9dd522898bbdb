import { describe, expect, it, vi } from 'vitest';
import { productDocument } from '../../../test-support/searchDocuments';
import type { SearchChanges, SearchRepository, SearchScope } from '../db/ports';
import { MemorySearchIndex } from './MemorySearchIndex';
import { DEFAULT_RULES, type SearchDocument, type SearchIndex } from './SearchIndex';
import { type ChangeWakeUps, SearchService } from './SearchService';

/*
 * How the service keeps its index current without a request ever waiting for a rebuild: a rebuild (requested, or
 * more changes than updates carry) is built beside the answering index while that one keeps answering, catches up
 * with the change log, and is swapped in; with change notifications (PostgreSQL) the log is read after a
 * notification or on a timer, not per request. The store is an in-memory change log whose full loads a test can
 * hold, to look at the service in the middle of a build.
 */

// Waits below are generous, since the machine running the tests may be busy: no speed is asserted here.
vi.setConfig({ testTimeout: 20_000 });

/** Waits for a condition (polling), up to 8 s. */
function waitUntil<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 8_000, interval: 10 });
}

const product = productDocument;

/** A catalog of product titles with a change log, as the SQLite and PostgreSQL repositories keep one. */
class FakeStore {
  titles = new Map<number, string>();
  log: { seq: number; id: number }[] = [];
  seq = 0;
  rulesRevision = 0;
  rebuildRequests = 0;
  revisionReads = 0;
  fullLoads = 0;
  #held: { promise: Promise<void>; release: () => void } | null = null;

  write(id: number, title: string | null): void {
    if (title === null) this.titles.delete(id);
    else this.titles.set(id, title);
    this.log = this.log.filter((entry) => entry.id !== id);
    this.log.push({ seq: ++this.seq, id });
  }

  /** The next full loads wait until `release()`: a build in progress. */
  holdFullLoads(): () => void {
    let release = () => {};
    const promise = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#held = { promise, release };
    return () => {
      this.#held = null;
      release();
    };
  }

  repository(): SearchRepository {
    const store = this;
    return {
      async revision() {
        store.revisionReads++;
        return { catalog: store.seq, rules: store.rulesRevision, rebuild: store.rebuildRequests };
      },
      async changesSince(seq: number, limit: number, part?: { wideAfter: number }): Promise<SearchChanges> {
        const entries = store.log.filter((entry) => entry.seq > seq);
        const none = { terms: [], vendors: [], posts: [] };
        if (part) {
          const read = entries.slice(0, limit);
          const products = read.map((entry) => entry.id);
          return {
            seq: read.at(-1)?.seq ?? seq,
            full: false,
            products,
            ...none,
            more: entries.length > limit,
          };
        }
        if (entries.length > limit) return { seq: store.seq, full: true, products: [], ...none };
        return {
          seq: entries.at(-1)?.seq ?? seq,
          full: false,
          products: entries.map((entry) => entry.id),
          ...none,
        };
      },
      async loadDocuments(scope?: SearchScope) {
        if (!scope) {
          store.fullLoads++;
          // Read at the start of the load, as a database snapshot would be.
          const documents = [...store.titles].map(([id, title]) => product(id, title));
          await store.#held?.promise;
          return { documents, removedKeys: [] };
        }
        const documents: SearchDocument[] = [];
        const removedKeys: string[] = [];
        for (const id of scope.products) {
          const title = store.titles.get(id);
          if (title === undefined) removedKeys.push(`product__${id}`);
          else documents.push(product(id, title));
        }
        return { documents, removedKeys };
      },
      async seedRules() {
        return false;
      },
      async getRules() {
        return DEFAULT_RULES;
      },
    } as Partial<SearchRepository> as SearchRepository;
  }
}

/** An embedded index that lists its keys, as the PostgreSQL fallback does. */
class KeyedIndex extends MemorySearchIndex {
  #keys = new Set<string>();
  override async replaceAll(documents: Iterable<SearchDocument>): Promise<void> {
    const list = [...documents];
    this.#keys = new Set(list.map((document) => document.key));
    await super.replaceAll(list);
  }
  override async update(upserts: readonly SearchDocument[], removedKeys: readonly string[]) {
    for (const key of removedKeys) this.#keys.delete(key);
    for (const document of upserts) this.#keys.add(document.key);
    await super.update(upserts, removedKeys);
  }
  async keys(): Promise<string[]> {
    return [...this.#keys];
  }
}

async function titlesFound(service: SearchService, text: string): Promise<number[]> {
  await service.refresh();
  const result = await service.search({ text, limits: { products: 10 } });
  return (result.hits.products ?? []).map((hit) => hit.id).sort((a, b) => a - b);
}

async function startedService(
  store: FakeStore,
  options: { fallback?: SearchIndex; wakeUps?: ChangeWakeUps; checkMs?: number } = {},
) {
  const service = new SearchService({
    repository: store.repository(),
    index: options.fallback ?? new MemorySearchIndex(),
    createIndex: () => new MemorySearchIndex(),
    fallback: options.fallback !== undefined,
    wakeUps: options.wakeUps,
    checkMs: options.checkMs,
    secret: 'test',
  });
  await service.start(DEFAULT_RULES);
  return service;
}

describe('SearchService: the position its answers take in', () => {
  it('indexedThrough: moved by an update at once; by a rebuild once the index and its followers are swapped in', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    let followerHeld: Promise<void> = Promise.resolve();
    const service = new SearchService({
      repository: store.repository(),
      index: new MemorySearchIndex(),
      createIndex: () => new MemorySearchIndex(),
      secret: 'test',
    });
    service.follow({ rebuild: () => followerHeld, apply: async () => {} });
    const told: number[] = [];
    service.onIndexed((through) => told.push(through));
    await service.start(DEFAULT_RULES);
    expect(service.indexedThrough).toBe(1);
    store.write(2, 'Wool Hat');
    await service.refresh();
    expect(service.indexedThrough).toBe(2);

    // More than updates carry: built beside, then the followers rebuild after the swap.
    const releaseLoads = store.holdFullLoads();
    let releaseFollower = () => {};
    followerHeld = new Promise<void>((resolve) => {
      releaseFollower = resolve;
    });
    for (let id = 100; id < 5200; id++) store.write(id, `Wool Hat ${id}`);
    await service.refresh();
    expect(service.indexedThrough).toBe(2);
    const old = service.index;
    releaseLoads();
    await waitUntil(() => expect(service.index).not.toBe(old));
    // The index answers at the new position; the facet counts of the follower still at the old one.
    expect(await titlesFound(service, 'wool 5199')).toContain(5199);
    expect(service.indexedThrough).toBe(2);
    releaseFollower();
    await waitUntil(() => expect(service.indexedThrough).toBe(store.seq));
    // Told each time it moved on: the first build, the update, the rebuild once its follower was done.
    expect(told).toEqual([1, 2, store.seq]);
  });
});

describe('SearchService: rebuilds beside the answering index', () => {
  it('answers from the old index while a requested rebuild is built, then swaps the new one in', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const service = await startedService(store);
    const old = service.index;

    const release = store.holdFullLoads();
    store.rebuildRequests++;
    // The request starts the build and is answered without waiting for it (a blocked refresh never resolves).
    expect(await titlesFound(service, 'linen')).toEqual([1]);
    expect(store.fullLoads).toBe(2);
    expect(service.index).toBe(old);

    release();
    await waitUntil(() => expect(service.index).not.toBe(old));
    expect(await titlesFound(service, 'linen')).toEqual([1]);
  });

  it('more changes than updates carry: the old index answers until the rebuilt one is swapped in', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const service = await startedService(store);
    const old = service.index;

    const release = store.holdFullLoads();
    for (let id = 100; id < 5200; id++) store.write(id, `Wool Hat ${id}`);
    // Before the swap: the old content, at once.
    expect(await titlesFound(service, 'wool')).toEqual([]);
    expect(await titlesFound(service, 'linen')).toEqual([1]);
    expect(service.index).toBe(old);

    release();
    await waitUntil(() => expect(service.index).not.toBe(old));
    expect((await service.search({ text: 'wool', limits: { products: 10 } })).totalProducts).toBe(5100);
  });

  it('fills the new index in slices: searches are answered between them, not after the whole build', async () => {
    const store = new FakeStore();
    for (let id = 1; id <= 5000; id++) store.write(id, `Wool Hat ${id}`);
    const service = await startedService(store);
    const old = service.index;
    const release = store.holdFullLoads();
    store.rebuildRequests++;
    await service.refresh();
    release();
    // Searches back to back until the swap: each waits for the event loop, as a request does.
    let answered = 0;
    while (service.index === old) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(await titlesFound(service, 'wool 17')).toContain(17);
      answered++;
    }
    // The build yields once it has run its budget, a few milliseconds with nothing else waiting (BuildPacer), and
    // after reading and after filling: searches are answered during it, however fast the machine.
    expect(answered).toBeGreaterThanOrEqual(2);
  });

  it('applies a change committed during the build to the new index before swapping it in', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    store.write(2, 'Wool Hat');
    const service = await startedService(store);
    const old = service.index;

    const release = store.holdFullLoads();
    store.rebuildRequests++;
    await service.refresh();
    // Committed after the build read the catalog: the build's documents still say "Wool Hat".
    store.write(2, 'Cashmere Hat');
    expect(await titlesFound(service, 'cashmere')).toEqual([2]);

    release();
    await waitUntil(() => expect(service.index).not.toBe(old));
    // The swapped-in index itself, before any later refresh could patch it: never older than the one it replaced.
    expect(await service.index.searchProductIds('cashmere')).toEqual([2]);
    expect(await service.index.searchProductIds('wool')).toEqual([]);
    expect(service.revision).toBe(`${store.seq}.0`);
  });

  it('builds beside rather than let the embedded index fold a large delta on the request path', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const service = await startedService(store);
    const old = service.index;
    const update = vi.spyOn(old, 'update');
    const replaceAll = vi.spyOn(old, 'replaceAll');

    // Small batches below the update limit, adding up past what the embedded delta should hold.
    for (let batch = 0; batch < 4; batch++) {
      for (let id = 0; id < 500; id++) store.write(1000 + batch * 500 + id, `Cotton Sock ${id}`);
      await service.refresh();
    }
    await waitUntil(() => expect(service.index).not.toBe(old));
    expect(update).toHaveBeenCalledTimes(3);
    expect(replaceAll).not.toHaveBeenCalled();
    expect((await service.search({ text: 'cotton', limits: { products: 1 } })).totalProducts).toBe(2000);
  });

  it('without change notifications, a change is applied on the periodic check before any request asks', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const service = await startedService(store, { checkMs: 20 });
    store.write(2, 'Wool Hat');
    // No search, no refresh call: the service looks at the log on its own.
    await waitUntil(() => expect(service.revision).toBe(`${store.seq}.0`));
    expect(await service.index.searchProductIds('wool')).toEqual([2]);
    await service.close();
  });

  it('rebuild() resolves once the rebuilt index answers, with its document count', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const service = await startedService(store);
    store.titles.set(2, 'Wool Hat'); // written without the log, as before a reindex
    expect(await service.rebuild()).toBe(2);
    expect(await titlesFound(service, 'wool')).toEqual([2]);
  });
});

describe('SearchService: with a fallback and change notifications (PostgreSQL)', () => {
  function wakeUps() {
    const listeners = new Set<(table: string | null) => void>();
    return {
      source: {
        subscribe(listener: (table: string | null) => void) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      } satisfies ChangeWakeUps,
      notify(table: string | null) {
        for (const listener of listeners) listener(table);
      },
    };
  }

  it('answers from the fallback while the replica builds, then from the replica, and keeps the fallback current', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    store.write(2, 'Cotton Sock');
    const fallback = new KeyedIndex();
    // Left by an earlier process: product 9 is gone from the catalog since, product 2 is not in it yet.
    await fallback.replaceAll([product(1, 'Linen Shirt'), product(9, 'Old Hat')]);
    const release = store.holdFullLoads();
    const service = await startedService(store, { fallback });
    expect(service.ready).toBe(false);
    expect(service.index).toBe(fallback);
    expect(await titlesFound(service, 'linen')).toEqual([1]);

    const replaceAll = vi.spyOn(fallback, 'replaceAll');
    release();
    await waitUntil(() => expect(service.ready).toBe(true));
    expect(service.index).not.toBe(fallback);
    expect(await titlesFound(service, 'cotton')).toEqual([2]);
    // Brought to the catalog's content by updates in the background, never one long replaceAll.
    await waitUntil(async () => expect((await fallback.keys()).sort()).toEqual(['product__1', 'product__2']));
    expect(await fallback.searchProductIds('hat')).toEqual([]);
    expect(replaceAll).not.toHaveBeenCalled();

    // A change reaches the replica on the request path and the fallback after it.
    const update = vi.spyOn(fallback, 'update');
    store.write(3, 'Wool Hat');
    expect(await titlesFound(service, 'wool')).toEqual([3]);
    await waitUntil(() => expect(update).toHaveBeenCalledTimes(1));
    expect((await fallback.search({ text: 'wool', limits: { products: 5 } })).totalProducts).toBe(1);
    await service.close();
  });

  it('a merge writes only what it changed into the fallback, which then holds the catalog', async () => {
    const store = new FakeStore();
    // A shop of 1,000 products: the 1,615 changes below are a merge (more changes than twice what the index holds
    // would be a full build, as the next test shows).
    for (let id = 1; id <= 1000; id++) store.write(id, `Linen Shirt ${id}`);
    const fallback = new KeyedIndex();
    const keys = vi.spyOn(fallback, 'keys');
    const service = await startedService(store, { fallback });
    // The first build's whole fill ends with a look at every key the fallback holds.
    await waitUntil(() => expect(keys).toHaveBeenCalledTimes(1));
    keys.mockClear();
    const update = vi.spyOn(fallback, 'update');
    // More than updates carry: 1,600 new products, 10 renamed, 5 removed.
    for (let id = 1001; id <= 2600; id++) store.write(id, `Wool Hat ${id}`);
    for (let id = 1; id <= 10; id++) store.write(id, `Oak Bowl ${id}`);
    for (let id = 996; id <= 1000; id++) store.write(id, null);
    expect(await titlesFound(service, 'wool')).toEqual([]);
    await waitUntil(() => expect(service.rebuilding).toBe(false));
    expect((await service.search({ text: 'wool', limits: { products: 1 } })).totalProducts).toBe(1600);
    // A big change's upkeep waits a few seconds after it is answered: the moments after a big import belong to the
    // processes' merges and the pages rendered again, not to the index only a starting process reads.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(update).not.toHaveBeenCalled();
    await waitUntil(async () => {
      expect((await fallback.search({ text: 'wool', limits: { products: 1 } })).totalProducts).toBe(1600);
      expect((await fallback.search({ text: 'oak', limits: { products: 1 } })).totalProducts).toBe(10);
      expect((await fallback.search({ text: 'linen', limits: { products: 1 } })).totalProducts).toBe(985);
    });
    // No look at every key it holds (what a whole fill compares against), and the changed documents only.
    expect(keys).not.toHaveBeenCalled();
    expect(await fallback.keys()).toHaveLength(995 + 1600);
    const written = update.mock.calls.flatMap(([upserts]) => upserts.map((document) => document.key));
    expect(new Set(written).size).toBe(1610);
    expect(written).not.toContain('product__11');
    expect(update.mock.calls.flatMap(([, removed]) => removed).sort()).toEqual(
      ['product__996', 'product__997', 'product__998', 'product__999', 'product__1000'].sort(),
    );
    await service.close();
  });

  it('more than twice as many changed products as the index holds documents (a first import) are a full build, not a merge', async () => {
    const store = new FakeStore();
    for (let id = 1; id <= 700; id++) store.write(id, `Linen Shirt ${id}`);
    const service = await startedService(store);
    const loads = store.fullLoads;
    // 1,600: more than updates carry, and more than twice the 700 documents held.
    for (let id = 1001; id <= 2600; id++) store.write(id, `Wool Hat ${id}`);
    await service.refresh();
    await waitUntil(() => expect(service.rebuilding).toBe(false));
    expect((await service.search({ text: 'wool', limits: { products: 1 } })).totalProducts).toBe(1600);
    expect(store.fullLoads).toBe(loads + 1);
    // Twice what it holds (2,300 documents), or fewer: a merge.
    for (let id = 3001; id <= 7400; id++) store.write(id, `Oak Bowl ${id}`);
    await service.refresh();
    await waitUntil(() => expect(service.rebuilding).toBe(false));
    expect((await service.search({ text: 'oak', limits: { products: 1 } })).totalProducts).toBe(4400);
    expect(store.fullLoads).toBe(loads + 1);
    await service.close();
  });

  it('a replica build that failed is tried again later while the fallback answers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const store = new FakeStore();
      store.write(1, 'Linen Shirt');
      const fallback = new MemorySearchIndex();
      await fallback.replaceAll([product(1, 'Linen Shirt')]);
      const repository = store.repository();
      const load = repository.loadDocuments.bind(repository);
      let failures = 1;
      repository.loadDocuments = async (scope, onProgress) => {
        if (!scope && failures-- > 0) throw new Error('connection refused');
        return load(scope, onProgress);
      };
      const errors: string[] = [];
      const service = new SearchService({
        repository,
        index: fallback,
        createIndex: () => new MemorySearchIndex(),
        fallback: true,
        secret: 'test',
        onError: (_error, message) => errors.push(message),
      });
      await service.start(DEFAULT_RULES);
      await waitUntil(() => expect(errors).toEqual(['search index rebuild failed']));
      expect(service.ready).toBe(false);
      expect(await titlesFound(service, 'linen')).toEqual([1]);
      await vi.advanceTimersByTimeAsync(5000);
      await waitUntil(() => expect(service.ready).toBe(true));
      await service.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('an empty fallback cannot answer: the replica is built before start resolves', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const fallback = new MemorySearchIndex();
    const service = await startedService(store, { fallback });
    expect(service.ready).toBe(true);
    expect(await titlesFound(service, 'linen')).toEqual([1]);
    await service.close();
  });

  it('reads the change log after a notification, not per request', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const wake = wakeUps();
    const service = await startedService(store, { wakeUps: wake.source, checkMs: 3_600_000 });
    await titlesFound(service, 'linen');
    const reads = store.revisionReads;
    for (let i = 0; i < 5; i++) expect(await titlesFound(service, 'linen')).toEqual([1]);
    expect(store.revisionReads).toBe(reads);

    store.write(2, 'Linen Towel');
    expect(await titlesFound(service, 'linen')).toEqual([1]);
    wake.notify('search_changes');
    // Woken, the service looks by itself: no request needed.
    await waitUntil(() => expect(service.revision).toBe(`${store.seq}.0`));
    expect(await titlesFound(service, 'linen')).toEqual([1, 2]);
    await service.close();
  });

  it('a missed notification is caught up by sequence on the periodic check', async () => {
    const store = new FakeStore();
    store.write(1, 'Linen Shirt');
    const wake = wakeUps();
    const service = await startedService(store, { wakeUps: wake.source, checkMs: 20 });
    store.write(2, 'Linen Towel'); // never notified
    await waitUntil(() => expect(service.revision).toBe(`${store.seq}.0`));
    expect(await titlesFound(service, 'linen')).toEqual([1, 2]);
    await service.close();
  });
});

describe('SearchService: terms whose name stayed', () => {
  /** A product naming one brand, and the brand's own document (left out when `withDocument` is false). */
  function brandCatalog(
    brands: { id: number; name: string; withDocument: boolean; withProduct?: boolean }[],
  ) {
    const documents: SearchDocument[] = [];
    for (const brand of brands) {
      if (brand.withProduct !== false) {
        documents.push({
          ...product(100 + brand.id, `Lamp ${brand.id}`),
          fields: { title: [`Lamp ${brand.id}`], taxonomy: [brand.name] },
        });
      }
      if (brand.withDocument) {
        documents.push({
          ...product(brand.id, brand.name),
          key: `taxonomy__${brand.id}__product_brand`,
          kind: 'term',
          taxonomy: 'product_brand',
        });
      }
    }
    return documents;
  }

  it('a term whose name stayed, and one the index held no document of, are left out of the edited ones; a renamed one is not', async () => {
    // Brand 7 holds no searchable product yet, so it has no document (a term document counts its searchable
    // products) and no product document shows its name; brand 8 keeps its name; brand 9 is to be renamed.
    let catalog = brandCatalog([
      { id: 7, name: 'Acme', withDocument: false, withProduct: false },
      { id: 8, name: 'Bolt', withDocument: true },
      { id: 9, name: 'Cask', withDocument: true },
    ]);
    let seq = 0;
    const scopes: SearchScope[] = [];
    const repository: SearchRepository = {
      ...new FakeStore().repository(),
      async revision() {
        return { catalog: seq, rules: 0, rebuild: 0 };
      },
      async changesSince(after: number) {
        const changed = seq > after;
        return {
          seq,
          full: false,
          // Lamp 7 joined brand 7: a change of its own.
          products: changed ? [107] : [],
          terms: changed ? [7, 8, 9] : [],
          editedTerms: changed ? [7, 8, 9] : [],
          vendors: [],
          posts: [],
        };
      },
      async loadDocuments(scope?: SearchScope) {
        if (!scope) return { documents: catalog, removedKeys: [] };
        scopes.push(scope);
        const edited = scope.editedTerms ?? scope.terms;
        const documents = catalog.filter(
          (document) =>
            (document.kind === 'term' && scope.terms.includes(document.id)) ||
            (document.kind === 'product' &&
              (edited.includes(document.id - 100) || scope.products.includes(document.id))),
        );
        return { documents, removedKeys: [] };
      },
    };
    const service = new SearchService({
      repository,
      index: new MemorySearchIndex(),
      createIndex: () => new MemorySearchIndex(),
      secret: 'test',
      checkMs: 3_600_000,
    });
    await service.start(DEFAULT_RULES);
    // Brand 7 gains Lamp 7 (and so a document), brand 8's description changed, brand 9 is renamed Drum.
    catalog = brandCatalog([
      { id: 7, name: 'Acme', withDocument: true },
      { id: 8, name: 'Bolt', withDocument: true },
      { id: 9, name: 'Drum', withDocument: true },
    ]);
    seq++;
    await service.refresh();
    // The look at the names, then the update: brand 9's products read again, brand 7's and 8's not.
    expect(scopes.map((scope) => scope.editedTerms)).toEqual([[], [9]]);
    expect(
      (await service.search({ text: 'acme', limits: { products: 5, product_brand: 5 } })).hits,
    ).toMatchObject({ products: [{ id: 107 }], product_brand: [{ id: 7 }] });
    expect((await service.search({ text: 'drum', limits: { products: 5 } })).hits.products).toMatchObject([
      { id: 109 },
    ]);
    await service.close();
  });
});
