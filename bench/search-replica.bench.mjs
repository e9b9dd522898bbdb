// Search replicas on PostgreSQL (`npm run bench -- search-replica`, after `npm run build`): suggestion throughput
// of the built shop with 1 process on SQLite (the embedded index, the peer) beside 1 and 2 processes on one
// PostgreSQL database, each answering from its own in-memory replica; and how long a catalog edit committed on
// PostgreSQL takes to show in a process's suggestions (the replica woken by LISTEN/NOTIFY). With 2 processes the
// load is split evenly between them and their throughputs summed. A throwaway cluster is started for the run.
// Loopback only; each round runs a fixed duration; three rounds, medians reported.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startPostgres } from '../scripts/lib/postgresCluster.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';

const SECONDS = 5;
const CONNECTIONS = 16;
const ROUNDS = 3;
/** Keystrokes of a few searches, cycled by every connection. */
const QUERIES = ['l', 'li', 'linen', 'linen sh', 'mu', 'mug', 'tea towel', 'woo', 'hoodie', 'cap'];
const EDITS = 20;
const PRODUCT_ID = 1025;

/** Requests per second answered with 2xx over SECONDS; any other answer fails the bench. */
function run(origin, connections) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: origin,
      connections,
      duration: SECONDS,
      timeout: 20,
      requests: QUERIES.map((query) => ({
        method: 'GET',
        path: `/?wc-ajax=search_suggestions&s=${encodeURIComponent(query)}`,
      })),
    });
    instance.on('done', (result) => {
      if (result.non2xx !== 0 || result.errors !== 0 || result.timeouts !== 0)
        reject(
          new Error(
            `${origin}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
          ),
        );
      else resolve(result['2xx'] / result.duration);
    });
    instance.on('error', reject);
  });
}

/**
 * CPU seconds a process used (all its threads), plus those of its children already reaped: /proc/PID/stat's
 * utime, stime, cutime, cstime, in clock ticks of 1/100 s.
 */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

/** The PostgreSQL server's CPU seconds: the postmaster, its live backends and the ones that ended. */
function postgresCpuSeconds(postmaster) {
  let total = cpuSeconds(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(stat[1]) === postmaster) {
        total += stat.slice(11, 13).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
      }
    } catch {
      // ended meanwhile: counted in the postmaster's cutime/cstime
    }
  }
  return total;
}

/**
 * Requests per second over the group, and per CPU second the group used (its server processes, and PostgreSQL's
 * when it uses it). The second figure holds on a machine shared with other work, where a setup of more processes
 * (a server and its database backends) gets a larger share of the cores than a single process does.
 */
async function throughput(group, postmaster) {
  const cpu = () =>
    group.reduce((sum, shop) => sum + cpuSeconds(shop.child.pid), 0) +
    (group[0].postgres ? postgresCpuSeconds(postmaster) : 0);
  const before = cpu();
  const rates = await Promise.all(group.map((shop) => run(shop.url, CONNECTIONS / group.length)));
  const used = cpu() - before;
  const rate = rates.reduce((sum, each) => sum + each, 0);
  return { rate, perCpuSecond: (rate * SECONDS) / used };
}

/** Waits until the shop answers from its own index (not the PostgreSQL fallback): /healthz says `ready`. */
async function ready(shop) {
  for (let i = 0; i < 600; i++) {
    const health = await (await fetch(`${shop.url}/healthz`)).json();
    if (health.searchIndex === 'ready') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${shop.url}: the search index never became ready`);
}

async function suggests(shop, word) {
  const response = await fetch(`${shop.url}/?wc-ajax=search_suggestions&s=${word}`);
  const body = await response.json();
  return body.suggestions.some((each) => each.type === 'product' && each.value.includes(word));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cluster = await startPostgres();
const shops = [];
try {
  const sqlite = await startBuiltShop();
  shops.push(sqlite);
  const first = { ...(await startBuiltShop({ env: { DATABASE_URL: cluster.url } })), postgres: true };
  shops.push(first);
  const second = { ...(await startBuiltShop({ env: { DATABASE_URL: cluster.url } })), postgres: true };
  shops.push(second);
  const postmaster = Number(readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  for (const shop of shops) await ready(shop);
  const setups = [
    ['1 process, SQLite', [sqlite]],
    ['1 process, PostgreSQL', [first]],
    ['2 processes, PostgreSQL', [first, second]],
  ];
  for (const [, group] of setups) await throughput(group, postmaster); // warm-up: JIT, pools
  const runs = new Map(setups.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, group] of setups) runs.get(name).push(await throughput(group, postmaster));
  }
  const figure = (name, key) => median(runs.get(name).map((each) => each[key]));
  const peer = (key) => figure('1 process, SQLite', key);
  console.log(
    `\nsuggestions: ${QUERIES.length} keystrokes cycled, ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections (medians)`,
  );
  console.log('setup                        req/s  ratio   req per CPU second  ratio');
  for (const [name] of setups) {
    const rate = figure(name, 'rate');
    const perCpu = figure(name, 'perCpuSecond');
    console.log(
      `${name.padEnd(26)}${rate.toFixed(0).padStart(7)}${(rate / peer('rate')).toFixed(2).padStart(7)}` +
        `${perCpu.toFixed(0).padStart(21)}${(perCpu / peer('perCpuSecond')).toFixed(2).padStart(7)}`,
    );
  }

  // Propagation: a rename committed on the database, timed until the second process suggests it.
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  const delays = [];
  try {
    for (let edit = 0; edit < EDITS; edit++) {
      const word = `replica${edit}x${Date.now() % 100000}`;
      const started = performance.now();
      await client.query('UPDATE products SET name = $1 WHERE id = $2', [`Tea Towel ${word}`, PRODUCT_ID]);
      while (!(await suggests(second, word))) await new Promise((resolve) => setTimeout(resolve, 2));
      delays.push(performance.now() - started);
    }
  } finally {
    await client.end();
  }
  const sorted = [...delays].sort((a, b) => a - b);
  console.log(
    `\npropagation, rename committed → suggested by the other process (${EDITS} edits): ` +
      `median ${median(delays).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms`,
  );
} finally {
  for (const shop of shops) await shop.stop();
  cluster.stop();
}
