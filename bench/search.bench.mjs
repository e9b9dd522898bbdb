// Search-as-you-type on a 100,000-product catalog: our in-memory index against MiniSearch, FlexSearch
// and Orama indexing the same documents and answering the same prefixes in the same run.
//
// Catalog: `npm run seed:bench`'s deterministic generator, imported once into a cached data dir
// (SEARCH_BENCH_DATA_DIR, default $TMPDIR/shop-search-bench-N; the first run pays the import). Documents come
// from the shop's own loader (products, variations, terms, vendors, posts: what the index holds).
// Workload: queries drawn from the catalog's own titles (popular products far more often, Zipf-like), one to four
// words, 15% with a typo, 5% matching nothing, each replayed as typed: every prefix from 3 letters.
// Figures: median and p99 per prefix in process and over HTTP (loopback, the real endpoint), build time, heap.
// Each peer is time-boxed (build and queries); a peer that runs out of time is reported on what it finished.
// Bounded: SEARCH_BENCH_PRODUCTS (default 100000), SEARCH_BENCH_QUERIES (default 300).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { Charset, Document } from 'flexsearch';
import MiniSearch from 'minisearch';

const { seedBenchDataDir, buildSearchBenchApp, MemorySearchIndex, openPostgresBenchIndex } = await import(
  '../dist/server/search-bench.js'
);

const PRODUCTS = Number(process.env.SEARCH_BENCH_PRODUCTS ?? 100_000);
const QUERIES = Number(process.env.SEARCH_BENCH_QUERIES ?? 300);
const BUILD_BOX_MS = 60_000;
const QUERY_BOX_MS = 30_000;
const HTTP_PREFIXES = 1500;
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

// --- catalog and documents -------------------------------------------------------------------------------
const dataDir = process.env.SEARCH_BENCH_DATA_DIR ?? join(tmpdir(), `shop-search-bench-${PRODUCTS}`);
const seeding = !existsSync(join(dataDir, 'shop.sqlite'));
let started = performance.now();
const documents = await seedBenchDataDir(dataDir, PRODUCTS);
console.log(
  `catalog: ${PRODUCTS} products in ${dataDir} (${seeding ? 'seeded' : 'reused'} in ${((performance.now() - started) / 1000).toFixed(1)} s), ${documents.length} searchable documents`,
);

// --- workload --------------------------------------------------------------------------------------------
let state = 7;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const zipf = (n) => Math.min(n - 1, Math.floor(n ** random()) - 1);
const products = documents
  .filter((doc) => doc.kind === 'product')
  .sort((a, b) => b.sales - a.sales || a.id - b.id);
const letters = 'abcdefghijklmnopqrstuvwxyz';
function typo(word) {
  const at = 1 + Math.floor(random() * (word.length - 1));
  const letter = letters[Math.floor(random() * 26)];
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, at) + letter + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + letter + word.slice(at);
    default:
      return at < word.length - 1 ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2) : word;
  }
}
const queries = [];
for (let i = 0; i < QUERIES; i++) {
  const roll = random();
  if (roll < 0.05) {
    queries.push(
      Array.from(
        { length: 1 + Math.floor(random() * 2) },
        () => `zqx${letters[Math.floor(random() * 26)]}vt`,
      ).join(' '),
    );
    continue;
  }
  const words = products[zipf(products.length)].fields.title[0].toLowerCase().split(/\s+/);
  const count = Math.min(words.length, [1, 1, 1, 1, 2, 2, 2, 3, 3, 4][Math.floor(random() * 10)]);
  const from = Math.floor(random() * (words.length - count + 1));
  const chosen = words.slice(from, from + count);
  if (roll < 0.2) {
    const long = chosen.findIndex((word) => word.length >= 5);
    if (long >= 0) chosen[long] = typo(chosen[long]);
  }
  queries.push(chosen.join(' '));
}
const prefixes = [];
for (const query of queries) {
  for (let end = 3; end <= query.length; end++)
    if (query[end - 1] !== ' ') prefixes.push(query.slice(0, end));
}
console.log(
  `workload: ${queries.length} queries (e.g. ${queries
    .slice(0, 4)
    .map((q) => `"${q}"`)
    .join(', ')}), ${prefixes.length} prefixes`,
);

// --- measuring -------------------------------------------------------------------------------------------
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
async function timeQueries(run) {
  const times = [];
  const deadline = performance.now() + QUERY_BOX_MS;
  for (const prefix of prefixes) {
    const start = performance.now();
    await run(prefix);
    times.push(performance.now() - start);
    if (performance.now() > deadline) break;
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), done: times.length };
}
const flat = documents.map((doc, index) => {
  const row = { id: index };
  for (const field of FIELDS) row[field] = (doc.fields[field] ?? []).join(' ');
  return row;
});

const results = [];
async function measure(name, build, query) {
  const before = heapMb();
  started = performance.now();
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
  results.push({ name, buildMs, memory, indexed, ...timing });
  global.keep = engine;
}

await measure(
  'ours (MemorySearchIndex)',
  async () => {
    const index = new MemorySearchIndex();
    await index.replaceAll(documents);
    return index;
  },
  (index, prefix) => index.search({ text: prefix, limits: LIMITS, variations: true }),
);
await measure(
  'MiniSearch',
  async (feed) => {
    const index = new MiniSearch({ fields: FIELDS, storeFields: [] });
    await feed(async (batch) => index.addAll(batch));
    return index;
  },
  (index, prefix) =>
    index
      .search(prefix, {
        prefix: true,
        fuzzy: (term) => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0),
        combineWith: 'AND',
        boost: BOOST,
      })
      .slice(0, 10),
);
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
);
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
);
global.keep = null;

// --- the shared index on PostgreSQL, when a server is at hand: `node scripts/ensure-postgres.mjs --
// npm run bench -- search`. Build = one replaceAll (documents, postings, dictionary in one transaction); memory is
// the tables' size on disk, not this process's heap.
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
    );
    postgresSize = await postgres.sizeMb();
  } finally {
    await postgres.close();
  }
}

// --- over HTTP: the real endpoint on loopback --------------------------------------------------------------
started = performance.now();
const shop = await buildSearchBenchApp(dataDir);
const startMs = performance.now() - started;
const address = await shop.app.listen({ host: '127.0.0.1', port: 0 });
const http = [];
const httpDeadline = performance.now() + QUERY_BOX_MS;
for (const prefix of prefixes.slice(0, HTTP_PREFIXES)) {
  const start = performance.now();
  const response = await fetch(`${address}/?wc-ajax=search_suggestions&s=${encodeURIComponent(prefix)}`);
  await response.arrayBuffer();
  http.push(performance.now() - start);
  if (response.status !== 200) throw new Error(`HTTP ${response.status} for "${prefix}"`);
  if (performance.now() > httpDeadline) break;
}
await shop.close();
http.sort((a, b) => a - b);

// --- report ----------------------------------------------------------------------------------------------
const ours = results[0];
console.log(
  '\nengine                     build (s)  mem (MB)   indexed   prefixes  p50 (ms)  p99 (ms)  p50 ×ours  p99 ×ours',
);
for (const row of results) {
  console.log(
    `${row.name.padEnd(26)}${(row.buildMs / 1000).toFixed(1).padStart(9)}${row.memory.toFixed(0).padStart(11)}${`${Math.round((100 * row.indexed || 100 * flat.length) / flat.length)}%`.padStart(9)}${String(row.done).padStart(11)}${row.p50.toFixed(3).padStart(10)}${row.p99.toFixed(3).padStart(10)}${(row.p50 / ours.p50).toFixed(1).padStart(10)}×${(row.p99 / ours.p99).toFixed(1).padStart(9)}×`,
  );
}
if (postgresSize !== null) {
  console.log(
    `PostgresSearchIndex tables: ${postgresSize.toFixed(0)} MB in PostgreSQL (mem above: client heap only)`,
  );
}
console.log(
  `\nover HTTP (GET /?wc-ajax=search_suggestions, full suggestions with display data; app start with index build ${(startMs / 1000).toFixed(1)} s): ` +
    `${http.length} prefixes, p50 ${percentile(http, 0.5).toFixed(2)} ms, p99 ${percentile(http, 0.99).toFixed(2)} ms`,
);
