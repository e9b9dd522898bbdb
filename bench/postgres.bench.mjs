// PostgreSQL and several processes: throughput of the built shop's product page and search
// suggestions with 1 process on SQLite (the peer), 1 process on PostgreSQL and 2 processes on one PostgreSQL
// database. With 2 processes the load is split evenly between them (two load generators at once, as a balancer
// would split it) and their throughputs are summed. A throwaway cluster is started for the run
// (scripts/ensure-postgres.mjs's helper). Loopback only, bounded: a fixed duration per target and round (a rate
// from a fixed request count would be rounded to autocannon's one-second ticks), three rounds, medians reported.
// Each shop's search index is printed as its server names it in its startup output ("Search index: NAME").
import autocannon from 'autocannon';
import { startPostgres } from '../scripts/lib/postgresCluster.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';
import { benchPageMix } from './support/pageMix.mjs';

// ── Page mix ────────────────────────────────────────────────────────────────────────────────────────────────────
// The cold path (no render cache) of product, category, shop/home and search results pages on a bench catalog,
// SQLite ×1 beside PostgreSQL ×2 in one run (bench/support/pageMix.mjs). `npm run bench -- postgres --pages` runs
// only this part; `--products N`, `--seconds S`, `--rounds R` change its size (default 20000, 5, 3).
{
  const option = (name, fallback) => {
    const index = process.argv.indexOf(`--${name}`);
    return index >= 0 ? Number(process.argv[index + 1]) : fallback;
  };
  const pageMixCluster = await startPostgres();
  try {
    await benchPageMix({
      cluster: pageMixCluster,
      products: option('products', 20_000),
      connections: 16,
      seconds: option('seconds', 5),
      rounds: option('rounds', 3),
    });
  } finally {
    pageMixCluster.stop();
  }
  if (process.argv.includes('--pages')) process.exit(0);
}
// ── end of page mix ─────────────────────────────────────────────────────────────────────────────────────────────

const SECONDS = 5;
const CONNECTIONS = 16;
const ROUNDS = 3;
const TARGETS = [
  ['product page', '/product/washed-linen-shirt/'],
  ['suggestions', '/?wc-ajax=search_suggestions&s=linen'],
];

/** Requests per second answered with 2xx by one target over SECONDS; any other answer fails the bench. */
function run(url, connections) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: SECONDS, timeout: 20 });
    instance.on('done', (result) => {
      if (result.non2xx !== 0 || result.errors !== 0 || result.timeouts !== 0)
        reject(
          new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`),
        );
      else resolve(result['2xx'] / result.duration);
    });
    instance.on('error', reject);
  });
}

/** Requests per second over all the processes, the load split evenly between them (run at the same time). */
async function throughput(origins, path) {
  const rates = await Promise.all(
    origins.map((origin) => run(`${origin}${path}`, CONNECTIONS / origins.length)),
  );
  return rates.reduce((sum, rate) => sum + rate, 0);
}

const searchIndexOf = (shop) => /search index:\s*(\S+)/i.exec(shop.output())?.[1] ?? 'not reported';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cluster = await startPostgres();
const shops = [];
try {
  const sqlite = await startBuiltShop();
  shops.push(sqlite);
  const first = await startBuiltShop({ env: { DATABASE_URL: cluster.url } });
  shops.push(first);
  const second = await startBuiltShop({ env: { DATABASE_URL: cluster.url } });
  shops.push(second);
  const setups = [
    ['1 process, SQLite', [sqlite]],
    ['1 process, PostgreSQL', [first]],
    ['2 processes, PostgreSQL', [first, second]],
  ];
  for (const [name, group] of setups)
    console.log(`${name}: search index ${group.map(searchIndexOf).join(', ')}`);
  for (const [target, path] of TARGETS) {
    const origins = (group) => group.map((shop) => shop.url);
    for (const [, group] of setups) await throughput(origins(group), path); // warm-up: caches, JIT, pools
    const rates = new Map(setups.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, group] of setups) rates.get(name).push(await throughput(origins(group), path));
    }
    const peer = median(rates.get('1 process, SQLite'));
    console.log(`\n${target}: GET ${path}: ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections`);
    console.log('setup                      median req/s   ratio to 1 process on SQLite');
    for (const [name] of setups) {
      const rate = median(rates.get(name));
      console.log(
        `${name.padEnd(26)}${rate.toFixed(0).padStart(10)}${(rate / peer).toFixed(2).padStart(10)}`,
      );
    }
  }
} finally {
  for (const shop of shops) await shop.stop();
  cluster.stop();
}
