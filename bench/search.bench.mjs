// Search-as-you-type: our in-memory index against MiniSearch, FlexSearch and Orama indexing the same documents and
// answering the same keystrokes in the same run, at each catalog size side by side.
//
// `npm run bench -- search` measures the synthetic catalog of `npm run seed:bench` at 10,000 and 100,000 products
// (SEARCH_BENCH_SIZES=10000,100000), each imported once into a cached data dir ($TMPDIR/shop-search-bench-N; the
// first run pays the import). `npm run bench -- search --catalog FILE --queries FILE` measures an owner's own
// WooCommerce product CSV (imported once into a data dir named after the file) and text file of queries (one per
// line), each query typed key by key. Documents come from the shop's own loader (products, variations, terms,
// vendors, posts: what the index holds).
// Synthetic workload (bench/support/searchWorkload.mjs): queries drawn from the catalog's titles (popular products
// far more often), one to four words, 15% with a typo, 5% matching nothing; each replayed as typed, every prefix
// from 3 letters (the box's default minimum). Figures per engine: build time, memory, p50/p99/max per keystroke in
// process, typo recall@10 (definition in searchWorkload.mjs: the top 10 of a typo'd query holds a product whose
// title has the intended words); over HTTP (the real endpoint, loopback) for our shop at the largest size.
// Each peer is time-boxed (build and queries); a peer that runs out of time is reported on what it finished.
// Options: --sizes 10000,100000, --queries-count 300 (synthetic), --peers minisearch,flexsearch,orama (or none),
// --min-chars 3, --no-http, --repeat N (each keystroke timed N times, the least kept); SEARCH_BENCH_BUNDLE=path/to/search-bench.js measures another build of ours (a
// before/after comparison on the same machine in the same conditions).
import { existsSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { Charset, Document } from 'flexsearch';
import MiniSearch from 'minisearch';
import { keystrokes, ownerQueries, syntheticQueries, typoRecallJudge } from './support/searchWorkload.mjs';

const { values: options } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    catalog: { type: 'string' },
    queries: { type: 'string' },
    sizes: { type: 'string', default: process.env.SEARCH_BENCH_SIZES ?? '10000,100000' },
    'queries-count': { type: 'string', default: process.env.SEARCH_BENCH_QUERIES ?? '300' },
    peers: { type: 'string', default: process.env.SEARCH_BENCH_PEERS ?? 'minisearch,flexsearch,orama' },
    'min-chars': { type: 'string', default: '3' },
    'no-http': { type: 'boolean', default: false },
    repeat: { type: 'string', default: '1' },
  },
});
if (Boolean(options.catalog) !== Boolean(options.queries)) {
  console.error(
    'search bench: --catalog FILE and --queries FILE go together (a product CSV and one query per line)',
  );
  process.exit(2);
}
for (const file of [options.catalog, options.queries]) {
  if (file && !existsSync(file)) {
    console.error(`search bench: no file ${file}`);
    process.exit(2);
  }
}
const bundle = process.env.SEARCH_BENCH_BUNDLE
  ? resolve(process.env.SEARCH_BENCH_BUNDLE)
  : new URL('../dist/server/search-bench.js', import.meta.url).pathname;
const {
  seedBenchDataDir,
  seedCatalogFileDataDir,
  buildSearchBenchApp,
  MemorySearchIndex,
  openPostgresBenchIndex,
} = await import(bundle);
const peers = new Set(options.peers.split(',').filter((name) => name && name !== 'none'));
const MIN_CHARS = Number(options['min-chars']);
// Each keystroke timed this many times in a row, the least kept: steadier figures on a machine busy with other work.
const REPEAT = Math.max(1, Number(options.repeat));
const BUILD_BOX_MS = 60_000;
const QUERY_BOX_MS = 30_000;
const HTTP_PREFIXES = 1500;
const WARM_UP = 50;
const LIMITS = {
  products: 7,
  product_cat: 3,
  product_tag: 3,
  product_brand: 3,
  vendors: 2,
  post: 2,
  page: 2,
};
const BOOST = { title: 10, sku: 8, taxonomy: 5, attributes: 4, content: 1 };
const FIELDS = Object.keys(BOOST);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
// Typed arrays live outside the JS heap: count their buffers too.
const heapMb = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.arrayBuffers) / 2 ** 20;
};

// --- measuring -------------------------------------------------------------------------------------------
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const format = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

/** Builds each engine on `documents`, times every keystroke, judges typo recall; prints one table. */
async function benchCatalog({ label, dataDir, documents, queries, typoQueries, http }) {
  const prefixes = queries.flatMap((query) => keystrokes(query.text, MIN_CHARS));
  const judged = typoRecallJudge(documents, typoQueries);
  console.log(
    `\n## ${label}: ${documents.length} searchable documents; ${queries.length} queries (e.g. ${queries
      .slice(0, 4)
      .map((query) => `"${query.text}"`)
      .join(', ')}) typed as ${prefixes.length} keystrokes; ${judged.length} typo queries judged for recall`,
  );
  const flat = documents.map((doc, index) => {
    const row = { id: index };
    for (const field of FIELDS) row[field] = (doc.fields[field] ?? []).join(' ');
    return row;
  });
  const results = [];

  // Wall time is what a shopper waits; CPU time (this process, all threads) leaves out waiting for a core, so it
  // stays readable on a machine busy with other work. A few untimed keystrokes first warm every engine up alike.
  async function timeQueries(run) {
    for (const prefix of prefixes.slice(0, WARM_UP)) await run(prefix);
    const times = [];
    const cpuTimes = [];
    const deadline = performance.now() + QUERY_BOX_MS;
    for (const prefix of prefixes) {
      let wall = Number.POSITIVE_INFINITY;
      let cpuTime = Number.POSITIVE_INFINITY;
      for (let round = 0; round < REPEAT; round++) {
        const cpu = process.cpuUsage();
        const start = performance.now();
        await run(prefix);
        wall = Math.min(wall, performance.now() - start);
        const used = process.cpuUsage(cpu);
        cpuTime = Math.min(cpuTime, (used.user + used.system) / 1000);
      }
      times.push(wall);
      cpuTimes.push(cpuTime);
      if (performance.now() > deadline) break;
    }
    times.sort((a, b) => a - b);
    cpuTimes.sort((a, b) => a - b);
    return {
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      max: times.at(-1) ?? 0,
      cpuP50: percentile(cpuTimes, 0.5),
      cpuP99: percentile(cpuTimes, 0.99),
      done: times.length,
    };
  }

  /** Share of judged typo queries whose top 10 products hold an intended product (within the query time box). */
  async function typoRecall(topProductIds) {
    if (judged.length === 0) return null;
    let found = 0;
    let asked = 0;
    const deadline = performance.now() + QUERY_BOX_MS;
    for (const query of judged) {
      const ids = await topProductIds(query.text);
      asked++;
      if (ids.some((id) => query.relevant.has(id))) found++;
      if (performance.now() > deadline) break;
    }
    return { recall: found / asked, asked };
  }

  async function measure(name, build, query, topProductIds) {
    const before = heapMb();
    const started = performance.now();
    const deadline = started + BUILD_BOX_MS;
    let indexed = 0;
    let engine;
    try {
      engine = await build((batchAdd) => {
        // Documents go in batches so a slow peer can be stopped at its time box.
        return (async () => {
          for (let at = 0; at < flat.length; at += 2000) {
            await batchAdd(flat.slice(at, at + 2000));
            indexed = Math.min(flat.length, at + 2000);
            if (performance.now() > deadline) break;
          }
        })();
      });
    } catch (error) {
      console.log(`${name}: failed to build (${error.message})`);
      return;
    }
    const buildMs = performance.now() - started;
    const memory = heapMb() - before;
    const timing = await timeQueries((prefix) => query(engine, prefix));
    const recall = await typoRecall((text) => topProductIds(engine, text));
    results.push({ name, buildMs, memory, indexed: indexed || flat.length, recall, ...timing });
    global.keep = engine;
  }

  /** A peer's hits are row numbers: the product ids among them, variations as their parent. */
  const productIdsOfRows = (rows) => {
    const ids = [];
    for (const row of rows) {
      const doc = documents[row];
      if (doc?.kind === 'product') ids.push(doc.id);
      else if (doc?.kind === 'variation') ids.push(doc.parentId);
    }
    return ids.slice(0, 10);
  };

  await measure(
    'ours (MemorySearchIndex)',
    async () => {
      const index = new MemorySearchIndex();
      await index.replaceAll(documents);
      return index;
    },
    (index, prefix) => index.search({ text: prefix, limits: LIMITS, variations: true }),
    async (index, text) =>
      ((await index.search({ text, limits: { products: 10 } })).hits.products ?? []).map((hit) => hit.id),
  );
  const miniSearchOptions = {
    prefix: true,
    fuzzy: (term) => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0),
    combineWith: 'AND',
    boost: BOOST,
  };
  if (peers.has('minisearch')) {
    await measure(
      'MiniSearch',
      async (feed) => {
        const index = new MiniSearch({ fields: FIELDS, storeFields: [] });
        await feed(async (batch) => index.addAll(batch));
        return index;
      },
      (index, prefix) => index.search(prefix, miniSearchOptions).slice(0, 10),
      (index, text) =>
        productIdsOfRows(
          index
            .search(text, miniSearchOptions)
            .slice(0, 40)
            .map((hit) => hit.id),
        ),
    );
  }
  if (peers.has('flexsearch')) {
    await measure(
      'FlexSearch',
      async (feed) => {
        const index = new Document({
          document: { id: 'id', index: FIELDS },
          tokenize: 'forward',
          encoder: Charset.LatinBalance,
        });
        await feed(async (batch) => {
          for (const row of batch) index.add(row);
        });
        return index;
      },
      (index, prefix) => index.search(prefix, { limit: 10, merge: true }),
      (index, text) => productIdsOfRows(index.search(text, { limit: 40, merge: true }).map((hit) => hit.id)),
    );
  }
  if (peers.has('orama')) {
    await measure(
      'Orama',
      async (feed) => {
        const db = create({ schema: Object.fromEntries(FIELDS.map((field) => [field, 'string'])) });
        await feed(async (batch) =>
          insertMultiple(
            db,
            batch.map(({ id, ...rest }) => ({ id: String(id), ...rest })),
            2000,
          ),
        );
        return db;
      },
      (db, prefix) => oramaSearch(db, { term: prefix, tolerance: 1, limit: 10, boost: BOOST, threshold: 0 }),
      async (db, text) =>
        productIdsOfRows(
          (
            await oramaSearch(db, { term: text, tolerance: 1, limit: 40, boost: BOOST, threshold: 0 })
          ).hits.map((hit) => Number(hit.id)),
        ),
    );
  }
  global.keep = null;

  // The shared index on PostgreSQL, when a server is at hand: `node scripts/ensure-postgres.mjs -- npm run bench --
  // search`. Build = one replaceAll (documents, postings, dictionary in one transaction); memory is the tables'
  // size on disk, not this process's heap.
  let postgresSize = null;
  if (process.env.TEST_DATABASE_URL) {
    const postgres = await openPostgresBenchIndex();
    try {
      await measure(
        'PostgresSearchIndex',
        async () => {
          await postgres.index.replaceAll(documents);
          return postgres.index;
        },
        (index, prefix) => index.search({ text: prefix, limits: LIMITS, variations: true }),
        async (index, text) =>
          ((await index.search({ text, limits: { products: 10 } })).hits.products ?? []).map((hit) => hit.id),
      );
      postgresSize = await postgres.sizeMb();
    } finally {
      await postgres.close();
    }
  }

  const ours = results[0];
  console.log(
    '\nengine                     build (s)  mem (MB)  indexed  keystrokes  p50 (ms)  p99 (ms)  max (ms)  p99 ×ours  cpu p50  cpu p99  typo recall@10',
  );
  for (const row of results) {
    const recall = row.recall ? `${(100 * row.recall.recall).toFixed(1)}% of ${row.recall.asked}` : 'n/a';
    console.log(
      `${row.name.padEnd(26)}${(row.buildMs / 1000).toFixed(1).padStart(9)}${row.memory.toFixed(0).padStart(10)}${`${Math.round((100 * row.indexed) / flat.length)}%`.padStart(9)}${String(row.done).padStart(12)}${format(row.p50).padStart(10)}${format(row.p99).padStart(10)}${format(row.max).padStart(10)}${(row.p99 / ours.p99).toFixed(1).padStart(10)}×${format(row.cpuP50).padStart(9)}${format(row.cpuP99).padStart(9)}  ${recall}`,
    );
  }
  if (postgresSize !== null) {
    console.log(
      `PostgresSearchIndex tables: ${postgresSize.toFixed(0)} MB in PostgreSQL (mem above: client heap only)`,
    );
  }

  if (!http) return;
  // Over HTTP: the real endpoint on loopback, full suggestions with display data.
  let started = performance.now();
  const shop = await buildSearchBenchApp(dataDir);
  const startMs = performance.now() - started;
  const address = await shop.app.listen({ host: '127.0.0.1', port: 0 });
  const times = [];
  started = performance.now();
  for (const prefix of prefixes.slice(0, HTTP_PREFIXES)) {
    const start = performance.now();
    const response = await fetch(`${address}/?wc-ajax=search_suggestions&s=${encodeURIComponent(prefix)}`);
    await response.arrayBuffer();
    times.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`HTTP ${response.status} for "${prefix}"`);
    if (performance.now() - started > QUERY_BOX_MS) break;
  }
  await shop.close();
  times.sort((a, b) => a - b);
  console.log(
    `over HTTP (GET /?wc-ajax=search_suggestions; app start with index build ${(startMs / 1000).toFixed(1)} s): ` +
      `${times.length} keystrokes, p50 ${format(percentile(times, 0.5))} ms, p99 ${format(percentile(times, 0.99))} ms, max ${format(times.at(-1) ?? 0)} ms`,
  );
}

// --- the runs ----------------------------------------------------------------------------------------------
console.log(
  `search bench: ${bundle}; each keystroke timed ${REPEAT}× (least kept); load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
if (options.catalog) {
  const name = basename(options.catalog).replace(/[^a-z0-9]+/gi, '-');
  const dataDir = process.env.SEARCH_BENCH_DATA_DIR || join(tmpdir(), `shop-search-bench-file-${name}`);
  const started = performance.now();
  const documents = await seedCatalogFileDataDir(dataDir, options.catalog);
  console.log(
    `catalog: ${options.catalog} in ${dataDir} (${((performance.now() - started) / 1000).toFixed(1)} s), ${documents.filter((doc) => doc.kind === 'product').length} products`,
  );
  const { queries, typos } = ownerQueries(readFileSync(options.queries, 'utf8').split(/\r?\n/));
  if (queries.length === 0) {
    console.error(`search bench: ${options.queries} holds no query (one per line)`);
    process.exit(2);
  }
  await benchCatalog({
    label: basename(options.catalog),
    dataDir,
    documents,
    queries,
    typoQueries: typos,
    http: !options['no-http'],
  });
} else {
  const sizes = options.sizes
    .split(',')
    .map(Number)
    .filter((size) => size > 0);
  for (const [position, size] of sizes.entries()) {
    const dataDir = join(tmpdir(), `shop-search-bench-${size}`);
    const seeding = !existsSync(join(dataDir, 'shop.sqlite'));
    const started = performance.now();
    const documents = await seedBenchDataDir(dataDir, size);
    console.log(
      `\ncatalog: ${size} products in ${dataDir} (${seeding ? 'seeded' : 'reused'} in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    const queries = syntheticQueries(documents, Number(options['queries-count']));
    await benchCatalog({
      label: `${size.toLocaleString('en')} products`,
      dataDir,
      documents,
      queries,
      typoQueries: queries.filter((query) => query.intended !== null),
      // Over HTTP at the largest size only: the in-process figures are the comparison.
      http: !options['no-http'] && position === sizes.length - 1,
    });
  }
}
