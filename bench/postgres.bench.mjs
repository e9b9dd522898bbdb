// PostgreSQL and several processes (issue 12): product-page throughput of the built shop with 1 process on
// SQLite (the peer), 1 process on PostgreSQL and 2 processes on one PostgreSQL database. With 2 processes the
// load is split evenly between them (two load generators at once, as a balancer would split it) and their
// throughputs are summed. A throwaway cluster is started for the run (scripts/ensure-postgres.mjs's helper).
// Loopback only, bounded: a fixed number of requests per target and round, three rounds, medians reported.
// Not yet here (docs/postgres-progress.md): search suggestions, which need the search engine branch.
import autocannon from 'autocannon';
import { startPostgres } from '../scripts/lib/postgresCluster.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';

const REQUESTS = 1500;
const CONNECTIONS = 16;
const ROUNDS = 3;
const PAGE = '/product/washed-linen-shirt/';

function run(url, amount, connections) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url: `${url}${PAGE}`, connections, amount, timeout: 20 });
    instance.on('done', (result) => {
      if (result['2xx'] !== amount)
        reject(new Error(`${url} answered ${result['2xx']} of ${amount} with 2xx`));
      else resolve(result);
    });
    instance.on('error', reject);
  });
}

/** Requests per second over all the processes, the load split evenly between them. */
async function throughput(urls) {
  const per = Math.floor(REQUESTS / urls.length);
  const start = performance.now();
  await Promise.all(urls.map((url) => run(url, per, CONNECTIONS / urls.length)));
  return (per * urls.length) / ((performance.now() - start) / 1000);
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
  const setups = [
    ['1 process, SQLite', [sqlite.url]],
    ['1 process, PostgreSQL', [first.url]],
    ['2 processes, PostgreSQL', [first.url, second.url]],
  ];
  for (const [, urls] of setups) await throughput(urls); // warm-up: caches, JIT, pools
  const rates = new Map(setups.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, urls] of setups) rates.get(name).push(await throughput(urls));
  }
  const peer = median(rates.get('1 process, SQLite'));
  console.log(`GET ${PAGE}: ${ROUNDS} rounds × ${REQUESTS} requests, ${CONNECTIONS} connections, medians`);
  console.log('setup                          req/s   ratio to 1 process on SQLite');
  for (const [name] of setups) {
    const rate = median(rates.get(name));
    console.log(`${name.padEnd(26)}${rate.toFixed(0).padStart(10)}${(rate / peer).toFixed(2).padStart(10)}`);
  }
} finally {
  for (const shop of shops) await shop.stop();
  cluster.stop();
}
