// Search replicas on PostgreSQL (`npm run bench -- search-replica`, after `npm run build`): suggestion throughput
// of the built shop with 1 process on SQLite (the embedded index, the peer) beside 1 and 2 processes on one
// PostgreSQL database, each answering from its own in-memory replica; and how long a catalog edit committed on
// PostgreSQL takes to show in a process's suggestions (the replica woken by LISTEN/NOTIFY). With 2 processes the
// load is split evenly between them and their throughputs summed. A throwaway cluster is started for the run.
// Loopback only; each round runs a fixed duration; three rounds, medians reported.
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

async function throughput(origins) {
  const rates = await Promise.all(origins.map((origin) => run(origin, CONNECTIONS / origins.length)));
  return rates.reduce((sum, rate) => sum + rate, 0);
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
  const first = await startBuiltShop({ env: { DATABASE_URL: cluster.url } });
  shops.push(first);
  const second = await startBuiltShop({ env: { DATABASE_URL: cluster.url } });
  shops.push(second);
  for (const shop of shops) await ready(shop);
  const setups = [
    ['1 process, SQLite', [sqlite]],
    ['1 process, PostgreSQL', [first]],
    ['2 processes, PostgreSQL', [first, second]],
  ];
  for (const [, group] of setups) await throughput(group.map((shop) => shop.url)); // warm-up: JIT, pools
  const rates = new Map(setups.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, group] of setups) rates.get(name).push(await throughput(group.map((shop) => shop.url)));
  }
  const peer = median(rates.get('1 process, SQLite'));
  console.log(
    `\nsuggestions: ${QUERIES.length} keystrokes cycled, ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections`,
  );
  console.log('setup                      median req/s   ratio to 1 process on SQLite');
  for (const [name] of setups) {
    const rate = median(rates.get(name));
    console.log(`${name.padEnd(26)}${rate.toFixed(0).padStart(10)}${(rate / peer).toFixed(2).padStart(10)}`);
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
