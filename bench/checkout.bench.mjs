// Checkout under load: `npm run bench -- checkout [--quick] [--mode rates|race|duplicate]
// [--engine sqlite|postgres]`; the other options (rates, seconds, rounds, timeout, race visitors) are in
// readOptions, each also a CHECKOUT_BENCH_* variable.
//
// rates      open-loop arrivals (a new visitor every 1/rate s, whatever the answers): each visitor has its own
//            cookie jar, adds a product to the cart (wc-ajax add_to_cart), opens /checkout/, reads every hidden
//            input of the checkout form and posts it with the billing form. Per rate: the place-order POST's
//            p50/p95/p99 and the share completed (a 303 to an order-received page within the timeout). The peer
//            is /healthz at the same rate in the same run; the ratio is checkout p95 ÷ healthz p95.
// race       N visitors each hold the last unit of one product (stock 1) and submit at once: orders created
//            (must be 1), stock left (0), and how the others were answered.
// duplicate  one visitor's checkout form posted 5 times at once, then the identical request replayed 5 times in
//            turn: the orders that cart produced and the distinct order-received targets.
// Orders and stock are counted in the database (read-only SQL), not only from the answers. SQLite runs one
// process; PostgreSQL runs two processes on one database, every request going to the next process in turn (as a
// balancer without sticky sessions would). Each engine and mode starts on a fresh data dir and database: a
// throwaway cluster (scripts/lib/postgresCluster.mjs), or new databases on the server of DATABASE_URL when set.
// Slow or failed checkouts are figures; only a harness failure (a shop that does not start, a checkout that
// cannot be placed at all before the load) exits non-zero.
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { BILLING_FORM } from '../scripts/lib/billingForm.mjs';
import { startPostgres } from '../scripts/lib/postgresCluster.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';
import { checkoutHiddenFields, errorNotice, isOrderConfirmation } from './support/checkoutForm.mjs';
import { createCookieJar } from './support/cookieJar.mjs';
import { openLoop, percentile, send, statusCounts } from './support/openLoop.mjs';
import { openShopDatabase } from './support/shopDatabase.mjs';

const ENGINES = {
  sqlite: { name: 'SQLite, 1 process', processes: 1, rates: [5, 10, 20, 40], raceVisitors: 50 },
  postgres: {
    name: 'PostgreSQL, 2 processes',
    processes: 2,
    rates: [5, 20, 40, 100, 200, 300],
    raceVisitors: 200,
  },
};
const DUPLICATE_POSTS = 5;
// The race and duplicate bursts are about what gets stored, not speed: their answers get a long time.
const BURST_TIMEOUT_MS = 60_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const options = readOptions();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const latency = (ms) => (ms >= options.timeoutMs ? `≥${options.timeoutMs}` : round(ms));
const ratio = (value) => value.toFixed(value < 10 ? 1 : 0);
const round = (ms) => (Number.isNaN(ms) ? '–' : ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));

console.log(
  `machine: ${cpus().length} cores, load average ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')} (1, 5, 15 min) at start; Node ${process.version}`,
);
console.log(
  `modes: ${options.modes.join(', ')}; engines: ${options.engines.join(', ')};` +
    ` ${options.seconds} s per rate × ${options.rounds} round(s); place-order timeout ${options.timeoutMs / 1000} s${options.quick ? ' (--quick)' : ''}`,
);

let postgres;
try {
  for (const engine of options.engines) {
    for (const mode of options.modes) {
      const run = { rates: measureRates, race: measureRace, duplicate: measureDuplicate }[mode];
      await withFreshShops(engine, mode, run);
    }
  }
} finally {
  await postgres?.stop();
}
console.log(
  `\nload average at the end: ${loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);

function readOptions() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      quick: { type: 'boolean', default: process.env.CHECKOUT_BENCH_QUICK === '1' },
      mode: { type: 'string', default: process.env.CHECKOUT_BENCH_MODE ?? 'all' },
      engine: { type: 'string', default: process.env.CHECKOUT_BENCH_ENGINE ?? 'both' },
      seconds: { type: 'string', default: process.env.CHECKOUT_BENCH_SECONDS },
      rounds: { type: 'string', default: process.env.CHECKOUT_BENCH_ROUNDS ?? '1' },
      timeout: { type: 'string', default: process.env.CHECKOUT_BENCH_TIMEOUT ?? '10' },
      'sqlite-rates': { type: 'string', default: process.env.CHECKOUT_BENCH_SQLITE_RATES },
      'postgres-rates': { type: 'string', default: process.env.CHECKOUT_BENCH_POSTGRES_RATES },
      'sqlite-visitors': { type: 'string', default: process.env.CHECKOUT_BENCH_SQLITE_VISITORS },
      'postgres-visitors': { type: 'string', default: process.env.CHECKOUT_BENCH_POSTGRES_VISITORS },
    },
  });
  const positive = (text, what) => {
    const number = Number(text);
    if (!(number > 0)) throw new Error(`${what} must be a positive number, not "${text}"`);
    return number;
  };
  const list = (text, what) => text.split(',').map((each) => positive(each.trim(), what));
  const oneOf = (value, allowed, what) => {
    if (value === 'all' || value === 'both') return allowed;
    if (!allowed.includes(value)) throw new Error(`${what} is one of ${allowed.join(', ')}, not "${value}"`);
    return [value];
  };
  for (const engine of Object.keys(ENGINES)) {
    if (values[`${engine}-rates`])
      ENGINES[engine].rates = list(values[`${engine}-rates`], `--${engine}-rates`);
    if (values[`${engine}-visitors`]) {
      ENGINES[engine].raceVisitors = positive(values[`${engine}-visitors`], `--${engine}-visitors`);
    }
  }
  return {
    quick: values.quick,
    modes: oneOf(values.mode, ['rates', 'race', 'duplicate'], '--mode'),
    engines: oneOf(values.engine, Object.keys(ENGINES), '--engine'),
    // Quick: a glance at the curve in about a minute, too few samples for a p99.
    seconds: values.seconds ? positive(values.seconds, '--seconds') : values.quick ? 2 : 10,
    rounds: Math.round(positive(values.rounds, '--rounds')),
    timeoutMs: positive(values.timeout, '--timeout') * 1000,
  };
}

/** The PostgreSQL server the bench makes its databases on, started (or reached) once for the whole run. */
async function postgresServer() {
  if (postgres) return postgres;
  const given = process.env.DATABASE_URL;
  const cluster = given ? null : await startPostgres();
  console.log(
    given
      ? 'PostgreSQL: a new database per mode on the server of DATABASE_URL'
      : 'PostgreSQL: a throwaway cluster, a new database per mode',
  );
  const adminUrl = given ?? cluster.url;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  postgres = {
    async createDatabase(name) {
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    dropDatabase: (name) => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    stop: async () => cluster?.stop(),
  };
  return postgres;
}

/**
 * Starts the engine's shop processes on a fresh data dir (and database), hands `run` the shop, and stops them.
 * `shop.client()` is a new visitor: its own cookie jar, each request to the next process in turn.
 */
async function withFreshShops(engine, mode, run) {
  const setup = ENGINES[engine];
  console.log(`\n## ${mode}: ${setup.name}`);
  const databaseName = `checkout_bench_${mode}`;
  const databaseUrl =
    engine === 'postgres' ? await (await postgresServer()).createDatabase(databaseName) : '';
  const processes = [];
  try {
    // One after the other: the first seeds the catalog, the next finds it there.
    for (let index = 0; index < setup.processes; index++) {
      // Every simulated shopper comes from 127.0.0.1, which the shop counts as one client: lift the new-cart limit.
      processes.push(
        await startBuiltShop({
          settings: { server: { newSessionsPerHour: 100_000_000 } },
          env: { DATABASE_URL: databaseUrl },
        }),
      );
    }
    const origins = processes.map((each) => each.url);
    let turn = 0;
    const nextOrigin = () => origins[turn++ % origins.length];
    const database = await openShopDatabase({ dataDir: processes[0].dataDir, databaseUrl });
    try {
      const shop = {
        setup,
        database,
        nextOrigin,
        client: () => visitor(nextOrigin),
        countOrders: async () => Number(await database.value('SELECT COUNT(*) FROM orders')),
      };
      await run(shop);
    } finally {
      await database.close();
    }
  } finally {
    for (const each of processes) await each.stop().catch(() => {});
    if (databaseUrl) await postgres.dropDatabase(databaseName);
  }
}

/** A visitor with its own cookie jar; each request goes to the next shop process. */
function visitor(nextOrigin) {
  const jar = createCookieJar();
  const client = async (path, { timeoutMs = options.timeoutMs, ...init } = {}) => {
    const answer = await send(`${nextOrigin()}${path}`, {
      ...init,
      headers: { ...init.headers, cookie: jar.header() },
      timeoutMs,
    });
    jar.storeLines([answer.headers?.['set-cookie'] ?? []].flat());
    return answer;
  };
  client.cookieHeader = () => jar.header();
  return client;
}

/**
 * A visitor's way to the place-order button: the product added to the cart (as the add-to-cart button posts it),
 * the checkout page opened and its form read. Resolves to the place-order body, or where it stopped.
 */
async function openCheckout(client, productId, timeoutMs) {
  const added = await client('/?wc-ajax=add_to_cart', {
    method: 'POST',
    headers: FORM,
    body: `product_id=${productId}&quantity=1`,
    timeoutMs,
  });
  if (added.status !== 200) return { failedAt: 'add_to_cart', status: added.status };
  const page = await client('/checkout/', { timeoutMs });
  const fields = page.status === 200 ? checkoutHiddenFields(page.body) : null;
  if (!fields) return { failedAt: 'checkout page', status: page.status };
  return { body: new URLSearchParams({ ...fields, ...BILLING_FORM }).toString() };
}

/** Posts the checkout form: the answer's status, time, target and notice, and whether it confirmed an order. */
async function placeOrder(post, body, timeoutMs) {
  const answer = await post('/checkout/', { method: 'POST', headers: FORM, body, timeoutMs });
  const location = answer.headers?.location;
  return {
    status: answer.status,
    ms: answer.ms,
    location,
    confirmed: isOrderConfirmation(answer.status, location),
    notice: answer.status === 303 ? '' : errorNotice(answer.body),
  };
}

/** Simple products without stock management: the load buys them, so stock never ends a run. */
async function unlimitedProducts(database) {
  const ids = await database.rows(
    `SELECT id FROM products
     WHERE type = 'simple' AND status = 'publish' AND stock_quantity IS NULL AND stock_status = 'instock'
       AND regular_price IS NOT NULL AND sold_individually = 0 AND is_virtual = 0
     ORDER BY id`,
  );
  if (ids.length === 0) throw new Error('The catalog has no simple product without stock management');
  return ids.map((row) => Number(row.id));
}

/** One complete checkout before the load: the harness works against this shop, or the bench stops here. */
async function checkHarness(shop, productId) {
  const client = shop.client();
  const opened = await openCheckout(client, productId, 30_000);
  if (opened.failedAt) throw new Error(`Harness: ${opened.failedAt} answered ${opened.status}`);
  const placed = await placeOrder(client, opened.body, 30_000);
  if (!placed.confirmed) {
    throw new Error(
      `Harness: placing an order answered ${placed.status} ${placed.location ?? placed.notice}`,
    );
  }
}

/** Waits until /healthz answers quickly again, so a rate's backlog does not weigh on the next one's figures. */
async function settle(shop) {
  const until = performance.now() + 60_000;
  let quick = 0;
  while (quick < 3 && performance.now() < until) {
    const answer = await send(`${shop.nextOrigin()}/healthz`, { timeoutMs: 10_000 });
    quick = answer.status === 200 && answer.ms < 50 ? quick + 1 : 0;
    await sleep(200);
  }
}

async function measureRates(shop) {
  const products = await unlimitedProducts(shop.database);
  console.log(`buying ${products.length} products without stock management, one line per visitor, in turn`);
  // Warm-up (JIT, connection pools, caches) that also checks the flow end to end.
  for (let index = 0; index < 10; index++) await checkHarness(shop, products[index % products.length]);
  await openLoop({ rate: 100, seconds: 1, arrive: () => send(`${shop.nextOrigin()}/healthz`) });
  const { rates } = shop.setup;
  const measured = new Map(rates.map((rate) => [rate, []]));
  // Rounds go through every rate in turn, so a burst of other work on the machine spreads over all of them.
  for (let pass = 0; pass < options.rounds; pass++) {
    for (const rate of rates) measured.get(rate).push(await measureRate(shop, products, rate));
  }
  const rows = rates.map((rate) => combineRounds(rate, measured.get(rate)));
  const timeoutMs = options.timeoutMs;
  console.log(
    `\nopen loop, ${options.seconds} s per rate${options.rounds > 1 ? `, median of ${options.rounds} rounds` : ''};` +
      ` place-order POST latency in ms over the visitors who reached it (≥${timeoutMs}: timed out);` +
      ' /healthz at the same rate just before',
  );
  console.log(
    'rate/s  visitors  completed  stored   p50 ms   p95 ms   p99 ms   healthz p50   healthz p95   p95 ratio   late p99 ms   not completed',
  );
  for (const row of rows) {
    console.log(
      [
        String(row.rate).padStart(6),
        String(row.sent).padStart(9),
        `${((100 * row.completed) / row.sent).toFixed(1)} %`.padStart(10),
        String(row.stored).padStart(7),
        latency(row.p50).padStart(8),
        latency(row.p95).padStart(8),
        latency(row.p99).padStart(8),
        round(row.healthP50).padStart(13),
        (round(row.healthP95) + (row.healthFailures ? ` (${row.healthFailures} failed)` : '')).padStart(13),
        `${row.p95 >= timeoutMs ? '≥' : ''}${ratio(row.p95 / row.healthP95)}×`.padStart(11),
        round(row.lateP99).padStart(13),
        `   ${row.failures || '–'}`,
      ].join(' '),
    );
  }
  console.log(
    '"completed": a 303 to an order-received page within the timeout; "stored": orders in the database after the' +
      ' rate (more than completed: stored after the visitor stopped waiting); "late p99": how late the' +
      ' generator sent its arrivals (the schedule held if small); "not completed": statuses of the step that' +
      ' stopped a visitor.',
  );
  const lost = rows.filter((row) => row.stored < row.completed);
  if (lost.length > 0) {
    console.log(
      `CONFIRMED BUT NOT STORED at ${lost.map((row) => `${row.rate}/s`).join(', ')}: orders were lost`,
    );
  }
}

/**
 * One rate: /healthz at that rate (the peer), then as many visitors a second going through the checkout, each
 * followed by a pause until the shop is idle again, so a backlog does not weigh on what is measured next.
 */
async function measureRate(shop, products, rate) {
  const timeoutMs = options.timeoutMs;
  const ordersBefore = await shop.countOrders();
  const health = await openLoop({
    rate,
    seconds: options.seconds,
    arrive: () => send(`${shop.nextOrigin()}/healthz`, { timeoutMs }),
  });
  await settle(shop);
  const checkout = await openLoop({
    rate,
    seconds: options.seconds,
    arrive: async (index) => {
      const client = shop.client();
      const opened = await openCheckout(client, products[index % products.length], timeoutMs);
      if (opened.failedAt) return { ...opened, status: `${opened.failedAt} ${opened.status}` };
      return placeOrder(client, opened.body, timeoutMs);
    },
  });
  await settle(shop);
  const outcomes = checkout.results;
  // A place-order POST that timed out counts at the timeout: its latency is at least that.
  const orderMs = outcomes
    .filter((outcome) => !outcome.failedAt)
    .map((outcome) => (outcome.status === 'timeout' ? timeoutMs : outcome.ms));
  const healthMs = health.results.map((answer) => (answer.status === 'timeout' ? timeoutMs : answer.ms));
  return {
    sent: outcomes.length,
    completed: outcomes.filter((outcome) => outcome.confirmed).length,
    stored: (await shop.countOrders()) - ordersBefore,
    p50: percentile(orderMs, 50),
    p95: percentile(orderMs, 95),
    p99: percentile(orderMs, 99),
    healthP50: percentile(healthMs, 50),
    healthP95: percentile(healthMs, 95),
    healthFailures: health.results.filter((answer) => answer.status !== 200).length,
    lateP99: percentile(checkout.lateMs, 99),
    failures: outcomes.filter((outcome) => !outcome.confirmed).map((outcome) => outcome.status),
  };
}

/** A rate's rounds as one row: counts summed, latencies the median of the rounds', the worst lateness. */
function combineRounds(rate, rounds) {
  const sum = (field) => rounds.reduce((total, each) => total + each[field], 0);
  const median = (field) =>
    percentile(
      rounds.map((each) => each[field]),
      50,
    );
  return {
    rate,
    sent: sum('sent'),
    completed: sum('completed'),
    stored: sum('stored'),
    p50: median('p50'),
    p95: median('p95'),
    p99: median('p99'),
    healthP50: median('healthP50'),
    healthP95: median('healthP95'),
    healthFailures: sum('healthFailures'),
    lateP99: Math.max(...rounds.map((each) => each.lateP99)),
    failures: statusCounts(rounds.flatMap((each) => each.failures)),
  };
}

/** Visitors opening their checkouts, `concurrency` at a time (the preparation is not what is measured). */
async function openCheckouts(shop, count, productId, concurrency = 10) {
  const ready = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const client = shop.client();
      const opened = await openCheckout(client, productId, BURST_TIMEOUT_MS);
      if (opened.failedAt) throw new Error(`Harness: ${opened.failedAt} answered ${opened.status}`);
      ready.push({ client, body: opened.body });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return ready;
}

function summariseNotices(outcomes) {
  const notices = new Map();
  for (const { status, notice } of outcomes) {
    if (!notice) continue;
    const key = `${status} "${notice}"`;
    notices.set(key, (notices.get(key) ?? 0) + 1);
  }
  return [...notices].map(([key, count]) => `${count}× ${key}`);
}

async function measureRace(shop) {
  const [product] = await shop.database.rows(
    `SELECT id, name FROM products
     WHERE type = 'simple' AND status = 'publish' AND stock_quantity = 1 AND stock_status = 'instock'
     ORDER BY id LIMIT 1`,
  );
  if (!product) throw new Error('Harness: the catalog has no product with a stock of 1');
  const productId = Number(product.id);
  const visitors = shop.setup.raceVisitors;
  const ready = await openCheckouts(shop, visitors, productId);
  const started = performance.now();
  const outcomes = await Promise.all(
    ready.map(({ client, body }) => placeOrder(client, body, BURST_TIMEOUT_MS)),
  );
  const burstMs = performance.now() - started;
  await sleep(500);
  const orders = Number(
    await shop.database.value('SELECT COUNT(DISTINCT order_id) FROM order_items WHERE product_id = ?', [
      productId,
    ]),
  );
  const [stock] = await shop.database.rows('SELECT stock_quantity, stock_status FROM products WHERE id = ?', [
    productId,
  ]);
  const confirmed = outcomes.filter((outcome) => outcome.confirmed).length;
  const losers = outcomes.filter((outcome) => !outcome.confirmed);
  console.log(
    `${visitors} visitors, each with the last unit of "${product.name}" (id ${productId}, stock 1) in the cart, submit at once`,
  );
  console.log(`orders created (database): ${orders}${orders === 1 ? '' : '   <- expected 1'}`);
  console.log(
    `stock left (database): ${stock.stock_quantity} (${stock.stock_status})` +
      (Number(stock.stock_quantity) === 0 ? '' : '   <- expected 0'),
  );
  console.log(`confirmations (303 to order-received): ${confirmed}`);
  console.log(`the others were answered: ${statusCounts(losers.map((outcome) => outcome.status)) || '–'}`);
  for (const line of summariseNotices(losers)) console.log(`  ${line}`);
  const ms = outcomes.map((outcome) => outcome.ms);
  console.log(
    `answers: p50 ${round(percentile(ms, 50))} ms, max ${round(Math.max(...ms))} ms; all answered in ${round(burstMs)} ms`,
  );
}

async function measureDuplicate(shop) {
  const [productId] = await unlimitedProducts(shop.database);
  const [{ client, body }] = await openCheckouts(shop, 1, productId, 1);
  const ordersBefore = await shop.countOrders();
  // The identical request each time, cookies included, as a double click or a retrying proxy sends it: the
  // cookies the first answers set are not sent back.
  const cookie = client.cookieHeader();
  const replay = (path, { headers, ...init }) =>
    send(`${shop.nextOrigin()}${path}`, { ...init, headers: { ...headers, cookie } });
  const together = await Promise.all(
    Array.from({ length: DUPLICATE_POSTS }, () => placeOrder(replay, body, BURST_TIMEOUT_MS)),
  );
  const inTurn = [];
  for (let index = 0; index < DUPLICATE_POSTS; index++) {
    inTurn.push(await placeOrder(replay, body, BURST_TIMEOUT_MS));
  }
  await sleep(500);
  const orders = (await shop.countOrders()) - ordersBefore;
  const targets = new Set(
    [...together, ...inTurn].filter((outcome) => outcome.status === 303).map((outcome) => outcome.location),
  );
  console.log(`one visitor's cart (1 line), its checkout form posted ${DUPLICATE_POSTS} times at once, then`);
  console.log(`the same request replayed ${DUPLICATE_POSTS} times in turn`);
  console.log(`at once:  ${statusCounts(together.map((outcome) => outcome.status))}`);
  for (const line of summariseNotices(together)) console.log(`  ${line}`);
  console.log(`in turn:  ${statusCounts(inTurn.map((outcome) => outcome.status))}`);
  for (const line of summariseNotices(inTurn)) console.log(`  ${line}`);
  console.log(`orders that cart produced (database): ${orders}`);
  console.log(`distinct 303 targets: ${targets.size}`);
  for (const target of targets) console.log(`  ${target}`);
}
