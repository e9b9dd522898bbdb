// The cold-path page mix of a bench catalog: product, category, shop/home and search results pages, as a
// shopper's browser asks for them (no render cache in front), on 1 SQLite process beside 2 PostgreSQL processes
// on one database, measured in the same run. Used by postgres.bench.mjs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startBuiltShop } from '../../scripts/lib/startBuiltShop.mjs';
import { copyCatalogToPostgres } from './copyCatalog.mjs';
import { openShopDatabase } from './shopDatabase.mjs';

/** Runs one of the shop's programs (dist/server/NAME.js) to its end. */
function runProgram(name, args, env) {
  execFileSync(process.execPath, [`dist/server/${name}.js`, ...args], {
    env: { ...process.env, LOG_LEVEL: '', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * The deterministic bench catalog (`npm run seed:bench`) in a fresh SQLite data dir, and the same rows in
 * `databaseUrl`: the schema migrated, the catalog copied (copyCatalog.mjs) and the shared search index built
 * (`npm run reindex`). Answers the seconds each engine took.
 */
async function seedBothEngines(products, sqliteDir, databaseUrl) {
  const started = Date.now();
  runProgram('seed-bench', ['--products', String(products)], { DATA_DIR: sqliteDir });
  const sqliteSeconds = (Date.now() - started) / 1000;
  const postgresEnv = { DATA_DIR: mkdtempSync(join(tmpdir(), 'shop-')), DATABASE_URL: databaseUrl };
  runProgram('reindex', [], postgresEnv); // migrates the empty database
  await copyCatalogToPostgres(sqliteDir, databaseUrl);
  runProgram('reindex', [], postgresEnv);
  // What autovacuum does within a minute of a bulk load, again now: the copy's own VACUUM can leave the visibility
  // map empty on the bench's cluster (its commits are asynchronous, so rows committed a moment before are not yet
  // marked visible to all), and then every index-only count of a listing reads the table rows as well.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('VACUUM ANALYZE');
  } finally {
    await client.end();
  }
  return { sqliteSeconds, postgresSeconds: (Date.now() - started) / 1000 - sqliteSeconds };
}

/**
 * The addresses of each kind of page, read from the seeded catalog (the same on both engines: the generator is
 * deterministic): product pages of simple and variable products, top-level and leaf category pages, the shop and
 * home pages, and search results for words of the catalog's vocabulary.
 */
async function pageMixPaths(dataDir) {
  const db = await openShopDatabase({ dataDir });
  try {
    const slugs = await db.rows(
      `SELECT slug FROM products WHERE type IN ('simple', 'variable') AND status = 'publish'
       AND visibility = 'visible' ORDER BY id LIMIT 40`,
    );
    const categories = await db.rows(
      `SELECT t.slug, parent.slug AS parent FROM terms t LEFT JOIN terms parent ON parent.id = t.parent_id
       WHERE t.taxonomy = 'product_cat' ORDER BY t.id LIMIT 24`,
    );
    return {
      product: slugs.map(({ slug }) => `/product/${slug}/`),
      category: categories.map(({ slug, parent }) =>
        parent ? `/product-category/${parent}/${slug}/` : `/product-category/${slug}/`,
      ),
      'shop/home': ['/shop/', '/', '/shop/page/2/', '/shop/?orderby=price'],
      'search results': ['linen', 'mug', 'wool jumper', 'oak', 'classic tee', 'candle'].map(
        (text) => `/?s=${encodeURIComponent(text)}&post_type=product`,
      ),
    };
  } finally {
    await db.close();
  }
}

/** One autocannon run cycling through `paths` on one origin; any non-2xx answer or error fails the bench. */
function run(origin, paths, connections, seconds) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: origin,
      connections,
      duration: seconds,
      timeout: 30,
      requests: paths.map((path) => ({ method: 'GET', path })),
    });
    instance.on('done', (result) => {
      if (result.non2xx !== 0 || result.errors !== 0 || result.timeouts !== 0)
        reject(
          new Error(
            `${origin}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
          ),
        );
      else
        resolve({ rate: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99 });
    });
    instance.on('error', reject);
  });
}

/*
 * CPU time, for a figure a busy machine does not skew: on a machine shared with other work, req/s and latency
 * depend on how much of the two cores the setup gets (more processes get a larger share), while the CPU time a
 * request costs (the shop processes plus, on PostgreSQL, every process of the bench's own cluster) does not. At
 * full load on the two cores, throughput is inversely proportional to it.
 */
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** Fields of /proc/PID/stat after the command name: [state, ppid, …]; null once the process is gone. */
function statFields(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** CPU seconds a process used (user + system), with its reaped children's when `withChildren`. */
function cpuSeconds(pid, withChildren = false) {
  const fields = statFields(pid);
  if (!fields) return 0;
  // utime, stime, cutime, cstime are stat's fields 14–17, here 11–14 (counted from 0 after the name).
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return (utime + stime + (withChildren ? cutime + cstime : 0)) / TICKS_PER_SECOND;
}

/** CPU seconds of a PostgreSQL cluster: its postmaster (with the backends that exited) and its live children. */
function clusterCpuSeconds(postmasterPid) {
  let total = cpuSeconds(postmasterPid, true);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    if (statFields(entry)?.[1] === String(postmasterPid)) total += cpuSeconds(entry);
  }
  return total;
}

/**
 * The load split evenly between the processes (as a balancer would), run at once: throughputs summed, latency
 * percentiles the worse process's (percentiles of two runs cannot be merged exactly), and the CPU milliseconds
 * per request the setup's processes spent.
 */
async function measure(setup, paths, connections, seconds) {
  const cpuBefore = setup.cpuSeconds();
  const results = await Promise.all(
    setup.origins.map((origin) => run(origin, paths, connections / setup.origins.length, seconds)),
  );
  const cpu = setup.cpuSeconds() - cpuBefore;
  const rate = results.reduce((sum, result) => sum + result.rate, 0);
  return {
    rate,
    p50: Math.max(...results.map((result) => result.p50)),
    p99: Math.max(...results.map((result) => result.p99)),
    cpuMs: (cpu * 1000) / (rate * seconds),
  };
}

/** The render cache off: every request renders its page and reads what it shows (the cold path). */
const COLD = { server: { pageCache: { maxBytes: 0 } } };

/** Resolves once the shop's `/healthz` says its search index is ready (a replica built), within a minute. */
async function searchIndexReady(origin) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const health = await (await fetch(`${origin}/healthz`)).json();
    if (health.searchIndex === 'ready') return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${origin}: the search index was not ready within a minute`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Seeds `products` bench products into a fresh SQLite data dir and a fresh database of `cluster`, starts 1 SQLite
 * and 2 PostgreSQL shops, and prints req/s, p50/p99 and the PostgreSQL ÷ SQLite throughput ratio per kind of
 * page and for the whole mix (every kind's addresses interleaved), medians of `rounds` rounds.
 */
export async function benchPageMix({ cluster, products, connections, seconds, rounds }) {
  const sqliteDir = mkdtempSync(join(tmpdir(), 'shop-'));
  const databaseUrl = cluster.createDatabase('page_mix');
  const seeded = await seedBothEngines(products, sqliteDir, databaseUrl);
  console.log(
    `\npage mix: ${products} bench products (SQLite seeded in ${seeded.sqliteSeconds.toFixed(0)} s, ` +
      `copied to PostgreSQL and indexed in ${seeded.postgresSeconds.toFixed(0)} s)`,
  );
  const paths = await pageMixPaths(sqliteDir);
  const kinds = Object.entries(paths);
  // Every kind in turn (a product page, a category page, a shop or home page, a search, the next product page…).
  const mix = [0, 1, 2, 3].flatMap((index) => kinds.map(([, list]) => list[index]));
  kinds.push(['mix (all kinds)', mix]);

  const shops = [];
  try {
    const sqlite = await startBuiltShop({ dataDir: sqliteDir, settings: COLD });
    shops.push(sqlite);
    for (let n = 0; n < 2; n++)
      shops.push(await startBuiltShop({ settings: COLD, env: { DATABASE_URL: databaseUrl } }));
    // Each PostgreSQL process answers searches from its own replica once built; until then from the shared table
    // index. The mix measures the replicas, as a shop runs once started.
    for (const shop of shops) await searchIndexReady(shop.url);
    const postmasterPid = Number(
      readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const shopCpu = (group) => group.reduce((sum, shop) => sum + cpuSeconds(shop.child.pid), 0);
    const setups = [
      { name: 'SQLite ×1', origins: [sqlite.url], cpuSeconds: () => shopCpu([sqlite]) },
      {
        name: 'PostgreSQL ×2',
        origins: shops.slice(1).map((shop) => shop.url),
        cpuSeconds: () => shopCpu(shops.slice(1)) + clusterCpuSeconds(postmasterPid),
      },
    ];
    console.log(
      `cold path (no render cache), ${connections} connections, ${rounds} round(s) × ${seconds} s per kind, medians;` +
        '\nCPU ms/req: CPU time of the shop processes (and of the PostgreSQL cluster) per answered request',
    );
    console.log(
      'page kind          setup            req/s   p50 ms   p99 ms  CPU ms/req   ratio PG÷SQLite: req/s  by CPU',
    );
    for (const [kind, list] of kinds) {
      for (const setup of setups) await measure(setup, list, connections, 2); // warm-up: JIT, pools, plans
      const figures = new Map(setups.map(({ name }) => [name, []]));
      for (let round = 0; round < rounds; round++)
        for (const setup of setups)
          figures.get(setup.name).push(await measure(setup, list, connections, seconds));
      const summary = Object.fromEntries(
        setups.map(({ name }) => {
          const rows = figures.get(name);
          const middle = (key) => median(rows.map((row) => row[key]));
          return [
            name,
            { rate: middle('rate'), p50: middle('p50'), p99: middle('p99'), cpuMs: middle('cpuMs') },
          ];
        }),
      );
      const peer = summary['SQLite ×1'];
      for (const { name } of setups) {
        const { rate, p50, p99, cpuMs } = summary[name];
        const ratios =
          name === 'SQLite ×1'
            ? ''
            : `${(rate / peer.rate).toFixed(2).padStart(24)}${(peer.cpuMs / cpuMs).toFixed(2).padStart(8)}`;
        console.log(
          [
            kind.padEnd(18),
            name.padEnd(14),
            rate.toFixed(0).padStart(7),
            p50.toFixed(0).padStart(8),
            p99.toFixed(0).padStart(8),
            cpuMs.toFixed(1).padStart(11),
          ].join(' ') + ratios,
        );
      }
    }
  } finally {
    for (const shop of shops) await shop.stop();
  }
}
