// No search waits on an index rebuild (`npm run bench -- search-rebuild`, after `npm run build`; REBUILD_BENCH_PRODUCTS,
// default 20,000): a search service on the synthetic catalog in SQLite answers a search every 10 ms (open loop:
// latency counts from when the search was due, so time the event loop was blocked counts too), idle and while a
// rebuild is requested (what `npm run reindex` or a large import asks of every process). The rebuild is built
// beside the answering index and swapped in; before, the search that noticed it waited for the whole rebuild,
// so "rebuild, request → swap" below is what that search used to wait. The two synchronous steps of a build
// (reading the documents, filling an index) are timed alone: they are what a search can still queue behind.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const { openRebuildBench } = await import(
  /* @vite-ignore */
  '../dist/server/search-rebuild.js'
);

const PRODUCTS = Number(process.env.REBUILD_BENCH_PRODUCTS ?? 20_000);
const INTERVAL_MS = 10;
const IDLE_MS = 3_000;
const REBUILDS = 3;
const QUERIES = ['sh', 'shi', 'shirt', 'linen sh', 'mug', 'wool so', 'cap', 'blue', 'dress'];

const dataDir = process.env.REBUILD_BENCH_DATA_DIR ?? join(tmpdir(), `shop-rebuild-bench-${PRODUCTS}`);
const seeding = !existsSync(join(dataDir, 'shop.sqlite'));
const started = performance.now();
const bench = await openRebuildBench(dataDir, PRODUCTS);
console.log(
  `catalog: ${PRODUCTS} products in ${dataDir} (${seeding ? 'seeded and ' : ''}indexed in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
);

let next = 0;
async function search() {
  await bench.service.refresh();
  await bench.service.search({
    text: QUERIES[next++ % QUERIES.length],
    limits: { products: 8, product_cat: 3 },
  });
}

/** Searches due every INTERVAL_MS until `done()`; each one's latency from when it was due. */
async function shoppers(done) {
  const latencies = [];
  const pending = [];
  const t0 = performance.now();
  let due = 0;
  await new Promise((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now();
      while (t0 + due * INTERVAL_MS <= now) {
        const scheduled = t0 + due * INTERVAL_MS;
        due++;
        pending.push(search().then(() => latencies.push(performance.now() - scheduled)));
      }
      if (done(now - t0)) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  await Promise.all(pending);
  return latencies;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};
const figures = (values) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (${values.length} searches)`;

try {
  const steps = [];
  for (let i = 0; i < 3; i++) steps.push(await bench.timeSteps());
  const median = (key) =>
    percentile(
      steps.map((step) => step[key]),
      50,
    );
  console.log(
    `build steps (median of 3, ${steps[0].documents} documents): read documents ${median('load').toFixed(0)} ms, fill an index ${median('build').toFixed(0)} ms`,
  );

  const idle = await shoppers((elapsed) => elapsed >= IDLE_MS);
  console.log(`idle:            ${figures(idle)}`);
  const during = [];
  const rebuildMs = [];
  for (let i = 0; i < REBUILDS; i++) {
    const old = bench.service.index;
    await bench.requestRebuild();
    const requested = performance.now();
    let swapped = 0;
    during.push(
      ...(await shoppers(() => {
        if (!swapped && bench.service.index !== old) swapped = performance.now();
        return swapped !== 0;
      })),
    );
    rebuildMs.push(swapped - requested);
  }
  console.log(`during rebuilds: ${figures(during)}`);
  console.log(
    `rebuild, request → swap (median of ${REBUILDS}): ${percentile(rebuildMs, 50).toFixed(0)} ms; ` +
      `max during ÷ idle p99: ${(Math.max(...during) / percentile(idle, 99)).toFixed(1)}`,
  );
} finally {
  await bench.close();
}
