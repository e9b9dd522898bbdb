// No search waits on an index rebuild (`npm run bench -- search-rebuild`, after `npm run build`; REBUILD_BENCH_PRODUCTS,
// default 20,000): a search service on the synthetic catalog in SQLite (with the facet index following it, as in the
// shop) answers a search every 10 ms (open loop: latency counts from when the search was due, so time the event loop
// was blocked counts too), idle and while a rebuild is requested (what `npm run reindex` or a large import asks of
// every process). The rebuild reads the catalog in pages and fills the new index in slices beside the answering one,
// then swaps it in; the facet index is rebuilt the same way after the swap. Printed: the searches' p50 / p99 / max
// idle and during the rebuilds with the ratios during ÷ idle, the event loop's longest blocked stretch in each
// phase (perf_hooks monitorEventLoopDelay), the builds' runs between two yields (BuildPacer, as the shop paces them),
// the heap and RSS peaks, and the load average (a shared machine's
// figures are noisy: the ratios, measured in one run, are the figures to compare).
import { existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

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

/** Memory peaks, sampled every 20 ms. */
const memory = { heap: 0, rss: 0 };
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  memory.heap = Math.max(memory.heap, usage.heapUsed);
  memory.rss = Math.max(memory.rss, usage.rss);
}, 20);

/**
 * Searches due every INTERVAL_MS until `done()`; each one's latency from when it was due, and the longest stretch
 * the event loop was blocked meanwhile.
 */
async function shoppers(done) {
  const latencies = [];
  const pending = [];
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
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
  delay.disable();
  return { latencies, blockedMs: delay.max / 1e6 };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};
const figures = (values) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms (${values.length} searches)`;
const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;

try {
  const steps = [];
  for (let i = 0; i < 3; i++) steps.push(await bench.timeSteps());
  const median = (key) =>
    percentile(
      steps.map((step) => step[key]),
      50,
    );
  console.log(
    `build steps, each in one go (median of 3, ${steps[0].documents} documents): read documents ${median('load').toFixed(0)} ms, fill an index ${median('build').toFixed(0)} ms`,
  );

  // The timed steps above leave garbage behind: let the collector have it before idle is measured.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const load = [loadavg()[0]];
  const idle = await shoppers((elapsed) => elapsed >= IDLE_MS);
  const idleMemory = { ...memory };
  memory.heap = 0;
  memory.rss = 0;
  console.log(
    `idle:            ${figures(idle.latencies)}; event loop blocked at most ${idle.blockedMs.toFixed(0)} ms`,
  );
  const during = [];
  const rebuildMs = [];
  const runs = [];
  bench.takeRuns();
  let blockedMs = 0;
  for (let i = 0; i < REBUILDS; i++) {
    load.push(loadavg()[0]);
    const old = bench.service.index;
    await bench.requestRebuild();
    const requested = performance.now();
    let swapped = 0;
    // Until the index is swapped in and the facet index after it (the end of a rebuild's work).
    const run = await shoppers(() => {
      if (!swapped && bench.service.index !== old) swapped = performance.now();
      return swapped !== 0 && bench.idle();
    });
    during.push(...run.latencies);
    runs.push(...bench.takeRuns());
    blockedMs = Math.max(blockedMs, run.blockedMs);
    rebuildMs.push(swapped - requested);
  }
  load.push(loadavg()[0]);
  const p99 = percentile(idle.latencies, 99);
  console.log(`during rebuilds: ${figures(during)}; event loop blocked at most ${blockedMs.toFixed(0)} ms`);
  console.log(
    `rebuild, request → swap (median of ${REBUILDS}): ${percentile(rebuildMs, 50).toFixed(0)} ms; ` +
      `during ÷ idle: p99 ${(percentile(during, 99) / p99).toFixed(1)}×, max ÷ idle p99 ${(Math.max(...during) / p99).toFixed(1)}× (goal ≤ 5×)`,
  );
  console.log(
    `the builds' runs between two yields (the pacer's budget, plus what lands in a run: a step's overshoot, the ` +
      `collector, the machine): p50 ${percentile(runs, 50).toFixed(1)} ms, p99 ${percentile(runs, 99).toFixed(1)} ms, ` +
      `max ${Math.max(...runs).toFixed(1)} ms, ${runs.filter((ms) => ms > 10).length} of ${runs.length} over 10 ms`,
  );
  console.log(
    `memory peaks: idle heap ${mb(idleMemory.heap)} / RSS ${mb(idleMemory.rss)}, during rebuilds heap ${mb(memory.heap)} / RSS ${mb(memory.rss)} (old and new index at once)`,
  );
  console.log(
    `load average (1 min) before / during / after: ${load.map((value) => value.toFixed(1)).join(' / ')}`,
  );
} finally {
  clearInterval(sampler);
  await bench.close();
}
