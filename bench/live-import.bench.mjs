// A live catalog: what shoppers feel while the owner imports or reindexes, on SQLite (1 process) and on PostgreSQL
// (2 processes on one database, a throwaway cluster). For each engine: the built shop starts (demo catalog), the
// synthetic catalog of `npm run seed:bench` (PRODUCTS products, about 10% variable) is imported into it as a first
// import, then 10 shopper connections run a mix of product pages, category pages, search suggestions and clicks
// on a suggested product (after 3 s of warm-up, not measured) while, in turn, nothing happens (idle, the shop at
// rest: on PostgreSQL once the shared search tables hold the first import), the same file is imported again with
// 20% of its prices changed and 5% of its products renamed (re-import), PRODUCTS new products are imported (new
// import), and `npm run reindex` runs. Each import runs in its own process, as `npm run import` does
// (dist/server/live-import-bench.js). Printed per engine and operation: how long it took, the shoppers' p50 / p99
// / max during it against idle (ratio during ÷ idle p99), answers other than 200, the servers' peak memory, and the
// same for the stretch after each import until its change showed (3 s at least) and the 3 s after the reindex (the
// index rebuilt beside the answering one, with shoppers' requests between its runs); after the re-import and the
// new import, how long after the import exited the change showed (a renamed product found
// by its new word in suggestions and on its page; a new product in suggestions) in every process; at the end,
// the suggestion queries sent against the rows in search_queries (rows lost). Options: --products N (20000),
// --engine sqlite|postgres (both), --idle S (10), --rate R: the shoppers' requests per second, all connections
// together (by default none: each connection sends its next request as soon as the last one is answered, which
// saturates the machine; a shop is rarely run so, and a rate shows the same operations at a load with room left).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { buildIsCurrent } from '../scripts/buildStamp.mjs';
import { startPostgres } from '../scripts/lib/postgresCluster.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const PRODUCTS = Number(option('products', 20_000));
const ENGINES = option('engine', 'sqlite,postgres').split(',');
const IDLE_SECONDS = Number(option('idle', 10));
const RATE = Number(option('rate', 0));
const CONNECTIONS = 10;
/**
 * The stretch after an operation measured apart: after an import, until its change showed and at least this long;
 * after the reindex, this long. A change that shows within a fraction of a second would leave a stretch of a few
 * dozen requests, whose p99 is their slowest: the seconds after a big import (pages rendered again, the facets
 * rebuilt) are then left out of the figure, where a slower propagation held them.
 */
const AFTER_MS = 3000;
/** The shoppers' requests before the first import, not measured (the shop starting, not importing). */
const WARM_UP_MS = 3000;
const WORDS = `linen shirt hoodie jacket mug bowl oak lamp wool scarf boots tent towel notebook cotton denim
  leather vase candle speaker serum puzzle blanket cushion jeans apron kettle knife charger sneakers`.split(
  /\s+/,
);
const MIX = [
  ['product page', 0.35],
  ['category page', 0.25],
  ['suggestions', 0.25],
  ['suggested product', 0.15],
];

if (!buildIsCurrent()) {
  await new Promise((resolve, reject) =>
    spawn(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' }).once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`build exited with ${code}`)),
    ),
  );
}
const { renamedProducts } = await import('../dist/server/live-import-bench.js');

const percentile = (sorted, p) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let visitor = 0;
/** A browser's user agent, one per suggestion request: each is its own visitor, so its own search_queries row. */
const userAgent = () =>
  `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 v${++visitor}`;

/** Runs a program of the build in its own process against the shop's storage; resolves once it has exited. */
function runProcess(file, programArgs, env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [file, ...programArgs], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${file} exited with ${code}:\n${stderr}`));
      else resolve({ ms: performance.now() - started, stdout, exitedAt: performance.now() });
    });
  });
}

function importVariant(variant, env) {
  const script = `import('./dist/server/live-import-bench.js').then((m) => m.importLiveVariant(${JSON.stringify(variant)}, ${PRODUCTS}))`;
  return runProcess('--input-type=module', ['-e', script], env).then((result) => ({
    ...result,
    summary: JSON.parse(result.stdout.trim().split('\n').at(-1)),
  }));
}

/** Resident memory of a process, MB (Linux /proc). */
function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/** The shoppers: CONNECTIONS loops over the origins, each request timed and filed under the current phase. */
function startShoppers(origins, targets) {
  const state = {
    phase: 'warm-up',
    running: true,
    samples: [],
    suggestionsSent: 0,
    targets,
    phaseStarts: new Map(),
  };
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  async function request(kind, origin, path, headers = {}) {
    const phase = state.phase;
    const started = performance.now();
    let status = 0;
    let body = '';
    try {
      const response = await fetch(`${origin}${path}`, { headers });
      status = response.status;
      body = await response.text();
    } catch {
      status = -1;
    }
    state.samples.push({ phase, kind, ms: performance.now() - started, status, started });
    return { status, body };
  }
  async function shopper(origin) {
    let suggested = [];
    // With a rate, each connection starts a request every CONNECTIONS ÷ RATE seconds (or at once when behind).
    const interval = RATE > 0 ? (1000 * CONNECTIONS) / RATE : 0;
    let nextStart = performance.now() + Math.random() * interval;
    while (state.running) {
      if (interval > 0) {
        const wait = nextStart - performance.now();
        if (wait > 0) await sleep(wait);
        nextStart = Math.max(performance.now(), nextStart + interval);
        if (!state.running) break;
      }
      const roll = Math.random();
      let kind = MIX[MIX.length - 1][0];
      for (let sum = 0, i = 0; i < MIX.length; i++) {
        sum += MIX[i][1];
        if (roll < sum) {
          kind = MIX[i][0];
          break;
        }
      }
      if (kind === 'product page' || (kind === 'suggested product' && suggested.length === 0)) {
        await request('product page', origin, `/product/${pick(state.targets.products)}/`);
      } else if (kind === 'category page') {
        await request('category page', origin, pick(state.targets.categories));
      } else if (kind === 'suggestions') {
        const word = pick(WORDS);
        // As typed: a prefix of three letters or more, or the whole word.
        const typed = word.slice(0, 3 + Math.floor(Math.random() * (word.length - 2)));
        const { status, body } = await request(
          'suggestions',
          origin,
          `/?wc-ajax=search_suggestions&s=${encodeURIComponent(typed)}`,
          { 'user-agent': userAgent() },
        );
        if (status === 200) state.suggestionsSent++;
        suggested = [...body.matchAll(/\/product\/([^/"\\]+)\//g)].map((match) => match[1]);
      } else {
        await request('suggested product', origin, `/product/${pick(suggested)}/`);
      }
    }
  }
  const loops = Array.from({ length: CONNECTIONS }, (_, i) => shopper(origins[i % origins.length]));
  return {
    state,
    /** Moves the shoppers onto other pages (read on every request). */
    swap(next) {
      state.targets = next;
    },
    async stop() {
      state.running = false;
      await Promise.all(loops);
    },
  };
}

function summarize(samples, phase, kind = null) {
  const own = samples.filter((sample) => sample.phase === phase && (kind === null || sample.kind === kind));
  const sorted = own.map((sample) => sample.ms).sort((a, b) => a - b);
  return {
    requests: own.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    errors: own.filter((sample) => sample.status !== 200).length,
  };
}

/** Whether every process's suggestions for the product's name list it. */
async function foundEverywhere(origins, { slug, name }) {
  for (const origin of origins) {
    const body = await (
      await fetch(`${origin}/?wc-ajax=search_suggestions&s=${encodeURIComponent(name)}`)
    ).text();
    if (!body.includes(`/product/${slug}/`)) return false;
  }
  return true;
}

/** Polls until `check` holds (every 25 ms, 120 s at most); the time it took from `since`, ms. */
async function waitUntil(check, since) {
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    if (await check()) return performance.now() - since;
    await sleep(25);
  }
  return Number.POSITIVE_INFINITY;
}

// Every shopper of the bench is one client (127.0.0.1), which the per-client cap on recorded searches would hold to
// 60 rows a minute: lifted, so every suggestion query must be written and "rows lost" counts only real losses.
const UNCAPPED_SEARCHES = { server: { stats: { recordedSearchesPerMinute: 100_000_000 } } };

async function benchEngine(engine) {
  const cluster = engine === 'postgres' ? await startPostgres() : null;
  const shops = [];
  let db = null;
  try {
    const env = cluster ? { DATABASE_URL: cluster.url } : {};
    shops.push(await startBuiltShop({ env, settings: UNCAPPED_SEARCHES }));
    if (cluster) shops.push(await startBuiltShop({ env, settings: UNCAPPED_SEARCHES }));
    const storageEnv = { ...env, DATA_DIR: shops[0].dataDir };
    const origins = shops.map((shop) => shop.url);
    const sqlite = cluster ? null : new Database(join(shops[0].dataDir, 'shop.sqlite'), { readonly: true });
    if (cluster) {
      db = new pg.Client({ connectionString: cluster.url });
      await db.connect();
    }
    const numbered = (sql) => {
      let n = 0;
      return sql.replace(/\?/g, () => `$${++n}`);
    };
    const rows = async (sql, params = []) =>
      sqlite ? sqlite.prepare(sql).all(...params) : (await db.query(numbered(sql), params)).rows;

    const memory = new Map();
    let phase = 'warm-up';
    const sampler = setInterval(() => {
      const total = shops.reduce((sum, shop) => sum + rssMb(shop.child.pid), 0);
      memory.set(phase, [...(memory.get(phase) ?? []), total]);
    }, 200);

    // The demo catalog's pages while the first import runs; the synthetic catalog's once it is in.
    const demo = {
      products: (await rows("SELECT slug FROM products WHERE slug IS NOT NULL AND status = 'publish'")).map(
        (row) => row.slug,
      ),
      categories: ['/product-category/apparel/'],
    };
    // The products the re-import renames, worked out before anyone shops: generating the catalog takes this process
    // about a second, and every request in flight then would be timed that much slower (idle's slowest requests,
    // ~1 s at its very end, were this bench's own pause, not the shop's).
    const renamed = renamedProducts(PRODUCTS).slice(0, 3);
    const shoppers = startShoppers(origins, demo);
    const setPhase = (name) => {
      phase = name;
      shoppers.state.phase = name;
      if (!shoppers.state.phaseStarts.has(name)) shoppers.state.phaseStarts.set(name, performance.now());
    };
    const results = {};
    try {
      // The shoppers warm the shop up (its code compiled, the demo pages rendered once) before anything is timed:
      // a fresh process's first requests are that slow whatever runs beside them.
      await new Promise((resolve) => setTimeout(resolve, WARM_UP_MS));
      setPhase('first import');
      const first = await importVariant('base', storageEnv);
      results['first import'] = { ms: first.ms, summary: first.summary };
      const targets = {
        products: (
          await rows(
            "SELECT slug FROM products WHERE slug LIKE '%' AND sku LIKE 'BN-%' AND type <> 'variation' AND status = 'publish' AND visibility = 'visible' ORDER BY id LIMIT 2000",
          )
        ).map((row) => row.slug),
        categories: (
          await rows("SELECT slug FROM terms WHERE taxonomy = 'product_cat' AND parent_id IS NULL")
        ).map((row) => `/product-category/${row.slug}/`),
      };
      // Every process has caught up with the first import (a product of it found by its name in suggestions)
      // before anything is measured against it.
      setPhase('after first import');
      const [firstProduct] = await rows(
        "SELECT slug, name FROM products WHERE sku LIKE 'BN-%' AND type <> 'variation' AND status = 'publish' AND visibility = 'visible' ORDER BY id DESC LIMIT 1",
      );
      results['first import'].suggestionShows = await waitUntil(
        () => foundEverywhere(origins, firstProduct),
        first.exitedAt,
      );
      shoppers.swap(targets);
      // Idle is the shop at rest: on PostgreSQL the processes keep the shared search tables (the index a starting
      // process answers from) in step with the catalog in the background, paced, for tens of seconds after 20,000
      // new products; that work finishes before idle is measured, so that every later ratio is against a shop at
      // rest (the database's own autovacuum is not waited for).
      if (cluster) {
        setPhase('after first import');
        results['first import'].fallbackFilled = await waitUntil(async () => {
          const [state] = await rows(
            'SELECT catalog_seq >= (SELECT max(seq) FROM search_changes) AS held FROM search_index_state WHERE id = 1',
          );
          return state?.held === true;
        }, first.exitedAt);
      }
      setPhase('settle');
      await sleep(3000);
      setPhase('idle');
      await sleep(IDLE_SECONDS * 1000);

      // Re-import: 20% prices, 5% names.
      setPhase('re-import');
      const again = await importVariant('reimport', storageEnv);
      setPhase('after re-import');
      const slugs = [];
      for (const { sku } of renamed) {
        slugs.push((await rows('SELECT slug FROM products WHERE sku = ?', [sku]))[0]?.slug);
      }
      const suggestionShows = await waitUntil(async () => {
        for (const origin of origins) {
          for (const { token } of renamed) {
            const body = await (await fetch(`${origin}/?wc-ajax=search_suggestions&s=${token}`)).text();
            if (!body.includes('/product/')) return false;
          }
        }
        return true;
      }, again.exitedAt);
      const pageShows = await waitUntil(async () => {
        for (const origin of origins) {
          for (const [i, { token }] of renamed.entries()) {
            const body = await (await fetch(`${origin}/product/${slugs[i]}/`)).text();
            if (!body.includes(token)) return false;
          }
        }
        return true;
      }, again.exitedAt);
      results['re-import'] = { ms: again.ms, summary: again.summary, suggestionShows, pageShows };
      // 'after re-import' is the stretch from the import's exit until its changes showed (the index's catch-up),
      // and at least AFTER_MS.
      await sleep(AFTER_MS - (performance.now() - again.exitedAt));
      setPhase('settle');
      await sleep(3000);

      // New products.
      setPhase('new import');
      const fresh = await importVariant('new', storageEnv);
      setPhase('after new import');
      const [newest] = await rows(
        "SELECT slug, name FROM products WHERE sku LIKE 'NW-%' AND type <> 'variation' AND status = 'publish' AND visibility = 'visible' ORDER BY id DESC LIMIT 1",
      );
      const newShows = await waitUntil(() => foundEverywhere(origins, newest), fresh.exitedAt);
      results['new import'] = { ms: fresh.ms, summary: fresh.summary, suggestionShows: newShows };
      await sleep(AFTER_MS - (performance.now() - fresh.exitedAt));
      setPhase('settle');
      await sleep(3000);

      setPhase('reindex');
      const reindex = await runProcess('dist/server/reindex.js', [], storageEnv);
      results.reindex = { ms: reindex.ms };
      setPhase('after reindex');
      await sleep(AFTER_MS);
    } finally {
      await shoppers.stop();
      clearInterval(sampler);
    }

    // Analytics: every suggestion a shopper typed and got answered 200 should be a row once the shops' write
    // queues drain (the bench's own propagation checks search for other words, and are left out).
    const sent = shoppers.state.suggestionsSent;
    const typed = [...new Set(WORDS.flatMap((word) => [...word].map((_, i) => word.slice(0, i + 1))))].filter(
      (prefix) => prefix.length >= 3,
    );
    let stored = 0;
    await waitUntil(async () => {
      const counted = await rows(
        `SELECT count(*) AS n FROM search_queries WHERE query IN (${typed.map(() => '?').join(', ')})`,
        typed,
      );
      stored = Number(counted[0].n);
      return stored >= sent;
    }, performance.now());
    sqlite?.close();

    const idle = summarize(shoppers.state.samples, 'idle');
    const peak = (name) => Math.max(...(memory.get(name) ?? [Number.NaN]));
    const idleMemory = percentile(
      [...(memory.get('idle') ?? [])].sort((a, b) => a - b),
      50,
    );
    const label = engine === 'postgres' ? 'PostgreSQL, 2 processes' : 'SQLite, 1 process';
    // A request is filed under the phase it started in: one that began before the idle phase is not idle.
    console.log(
      `\n## ${label}: ${PRODUCTS} products, ${CONNECTIONS} shopper connections${RATE > 0 ? `, ${RATE} requests/s in all` : ' (as fast as they are answered)'}`,
    );
    console.log(
      'operation         took s  requests  p50 ms  p99 ms  max ms  p99÷idle  max÷idle p99  non-200  peak MB',
    );
    const line = (name, took) => {
      const s = summarize(shoppers.state.samples, name);
      console.log(
        `${name.padEnd(16)}${(took === null ? '' : (took / 1000).toFixed(1)).padStart(8)}${String(s.requests).padStart(10)}` +
          `${s.p50.toFixed(1).padStart(8)}${s.p99.toFixed(1).padStart(8)}${s.max.toFixed(0).padStart(8)}` +
          `${(s.p99 / idle.p99).toFixed(2).padStart(10)}${(s.max / idle.p99).toFixed(2).padStart(14)}` +
          `${String(s.errors).padStart(9)}${peak(name).toFixed(0).padStart(9)}`,
      );
    };
    line('idle', null);
    line('first import', results['first import'].ms);
    line('re-import', results['re-import'].ms);
    line('new import', results['new import'].ms);
    // From the import's exit until its changes showed (the index rebuilt or merged beside the answering one), and the
    // 3 s after the reindex exited (its rebuild): "took" is the time to visible.
    line('after re-import', results['re-import'].pageShows);
    line('after new import', results['new import'].suggestionShows);
    line('reindex', results.reindex.ms);
    line('after reindex', null);
    // Which requests the slow stretches hold back: per kind, p50 / p99 ms (requests).
    for (const name of ['idle', 'after re-import', 'after new import', 'after reindex']) {
      const kinds = MIX.map(([kind]) => kind).filter((kind, i, all) => all.indexOf(kind) === i);
      const parts = kinds.map((kind) => {
        const s = summarize(shoppers.state.samples, name, kind);
        return `${kind} ${s.p50.toFixed(1)} / ${s.p99.toFixed(1)} (${s.requests})`;
      });
      console.log(`${name} by kind, p50 / p99 ms: ${parts.join('; ')}`);
    }
    // When the slowest requests of each stretch came (seconds into it; for a phase entered twice, into its first
    // entry): a stall at a stretch's start is what the stretch before it left behind.
    for (const name of [
      'idle',
      'first import',
      're-import',
      'new import',
      'reindex',
      'after re-import',
      'after new import',
      'after reindex',
    ]) {
      const since = shoppers.state.phaseStarts.get(name) ?? 0;
      const slowest = shoppers.state.samples
        .filter((sample) => sample.phase === name)
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3)
        .map(
          (sample) =>
            `${sample.ms.toFixed(0)} ms ${sample.kind} at ${((sample.started - since) / 1000).toFixed(1)} s`,
        );
      console.log(`${name}, slowest: ${slowest.join('; ')}`);
    }
    console.log(`idle memory (all processes): ${idleMemory.toFixed(0)} MB`);
    console.log(`first import: ${JSON.stringify(results['first import'].summary)}`);
    console.log(`re-import: ${JSON.stringify(results['re-import'].summary)}`);
    console.log(`new import: ${JSON.stringify(results['new import'].summary)}`);
    const seconds = (ms) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'not within 120 s');
    console.log(
      `visible after the re-import exited: renamed products in suggestions ${seconds(results['re-import'].suggestionShows)}, ` +
        `on their pages ${seconds(results['re-import'].pageShows)} (every process)`,
    );
    console.log(
      `visible after the new import exited: a new product in suggestions ${seconds(results['new import'].suggestionShows)}; ` +
        `after the first import: ${seconds(results['first import'].suggestionShows)} (every process)`,
    );
    if (cluster) {
      console.log(
        `the shared search tables held the first import ${seconds(results['first import'].fallbackFilled)} after it exited (idle began 3 s later)`,
      );
    }
    console.log(`load average (1 min) at the end: ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`);
    console.log(
      `search analytics: ${sent} suggestion queries answered 200, ${stored} rows, ${Math.max(0, sent - stored)} lost`,
    );
    return { label, results };
  } finally {
    await db?.end();
    for (const shop of shops) await shop.stop();
    cluster?.stop();
  }
}

const outcomes = [];
for (const engine of ENGINES) outcomes.push(await benchEngine(engine));
if (outcomes.length === 2) {
  const [lite, pgOutcome] = outcomes;
  console.log('\n## PostgreSQL ×2 ÷ SQLite, time');
  for (const name of ['first import', 're-import', 'new import', 'reindex']) {
    console.log(
      `${name.padEnd(14)}${(pgOutcome.results[name].ms / lite.results[name].ms).toFixed(2).padStart(8)}`,
    );
  }
}
