// Did you mean: what the correction adds to a keystroke, in process, on the synthetic catalog of
// `npm run seed:bench` (the cached data dir bench/search.bench.mjs uses). Workload: 300 queries from the catalog's
// titles (popular products more often), one to three words, a third with a typo in one word of 5+ letters, 5%
// matching nothing, each replayed as typed from 3 letters. Per prefix, as SearchService.searchCorrected does it:
// the search; the dictionary look-up (every time); when a correction is needed, past queries (here none) and the
// corrected search. Figures: p50/p99/max of the search alone and with did you mean, measured interleaved on the
// same prefixes, and how many prefixes were corrected.
// Bounded: SEARCH_BENCH_PRODUCTS (default 100000), SEARCH_BENCH_QUERIES (default 300).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const PRODUCTS = Number(process.env.SEARCH_BENCH_PRODUCTS ?? 100_000);
const QUERIES = Number(process.env.SEARCH_BENCH_QUERIES ?? 300);
const { seedBenchDataDir, MemorySearchIndex, didYouMean } = await import('../dist/server/search-bench.js');

const dataDir = process.env.SEARCH_BENCH_DATA_DIR ?? join(tmpdir(), `shop-search-bench-${PRODUCTS}`);
const documents = await seedBenchDataDir(dataDir, PRODUCTS);
const index = new MemorySearchIndex();
await index.replaceAll(documents);

let state = 11;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const products = documents
  .filter((doc) => doc.kind === 'product')
  .sort((a, b) => b.sales - a.sales || a.id - b.id);
const letters = 'abcdefghijklmnopqrstuvwxyz';
function typo(word) {
  const at = 1 + Math.floor(random() * (word.length - 1));
  const letter = letters[Math.floor(random() * 26)];
  return [
    word.slice(0, at) + letter + word.slice(at + 1),
    word.slice(0, at) + word.slice(at + 1),
    word.slice(0, at) + letter + word.slice(at),
  ][Math.floor(random() * 3)];
}
const queries = [];
for (let i = 0; i < QUERIES; i++) {
  const roll = random();
  if (roll < 0.05) {
    queries.push(`zqx${letters[Math.floor(random() * 26)]}vt`);
    continue;
  }
  const words = products[
    Math.min(products.length - 1, Math.floor(products.length ** random()) - 1)
  ].fields.title[0]
    .toLowerCase()
    .split(/\s+/);
  const count = Math.min(words.length, 1 + Math.floor(random() * 3));
  const chosen = words.slice(0, count);
  if (roll < 0.38) {
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

const limits = {
  products: 7,
  product_cat: 3,
  product_tag: 3,
  product_brand: 3,
  vendors: 2,
  post: 2,
  page: 2,
};
const found = (result) =>
  result.totalProducts > 0 || Object.values(result.hits).some((hits) => hits.length > 0);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const figures = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 0.5).toFixed(3)} ms, p99 ${percentile(sorted, 0.99).toFixed(3)} ms, max ${sorted.at(-1).toFixed(2)} ms`;
};

// Warm up, then measure both ways on the same prefixes, interleaved so machine noise hits both alike.
for (const prefix of prefixes.slice(0, 200)) await index.search({ text: prefix, limits, variations: true });
const plain = [];
const corrected = [];
let corrections = 0;
for (const prefix of prefixes) {
  let start = performance.now();
  await index.search({ text: prefix, limits, variations: true });
  plain.push(performance.now() - start);
  start = performance.now();
  const result = await index.search({ text: prefix, limits, variations: true });
  const correction = await didYouMean({
    text: prefix,
    found: found(result),
    vocabulary: index,
    pastQueries: async () => [],
  });
  if (correction) {
    const again = await index.search({ text: correction.query, limits, variations: true });
    if (found(again)) corrections++;
  }
  corrected.push(performance.now() - start);
}
console.log(
  `catalog: ${PRODUCTS} products, ${documents.length} documents; ${queries.length} queries, ${prefixes.length} prefixes`,
);
console.log(`search alone:         ${figures(plain)}`);
console.log(`with did you mean:    ${figures(corrected)}`);
console.log(`corrected prefixes:   ${corrections} of ${prefixes.length}`);
