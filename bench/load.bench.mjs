// Load: autocannon against the built shop in its own process, loopback only, every target bounded by a request
// count and a time cap. Prints requests per second, p50/p99 latency, errors (which must be 0) and the shop process's
// CPU milliseconds per request (steadier than req/s on a machine shared with other work) per target, and
// for the checkout flow the orders in the database, which must equal the order confirmations the shoppers got.
// The peer is the same server answering /healthz (one tiny JSON response, no rendering, no session), the ceiling
// any endpoint of this server sits under, measured in the same run.
//
// Anonymous pages are measured twice: "warm" from the render cache (one shop with the default cache, each page
// asked once before), and "cold" rendered on every request (a second shop with `server.pageCache.maxBytes: 0`).
// Cart and checkout are never cached: their rows are the shopper's own pages, with a cart.
// Every GET target first runs 200 requests that are not counted (the JIT compiler's first pass is not the shop's
// speed); its counted run still opens its 50 connections at once, so each row includes a burst of new visitors.
//
// The checkout flow runs twice: first alone, then last, after every other target, the warm search-results pages
// among them (each a recorded search: a flood of them must not starve the orders of SQLite's writer). The two rows,
// the load average and the search-analytics counters of /healthz (recorded, capped, dropped) are printed together.
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { BILLING_FORM } from '../scripts/lib/billingForm.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';
import { checkoutHiddenFields } from './support/checkoutForm.mjs';
import { cookieWithCartItem, createCookieJar } from './support/cookieJar.mjs';
import { processCpuMs } from './support/processCpu.mjs';
import { countStoredHits, hitParams, hitRequest } from './support/statsHits.mjs';

const SHOPPERS = 50;
const TIME_CAP_SECONDS = 45;
// A request unanswered this long counts as an error. Generous: on a machine shared with other work, 50
// connections on 2 cores queue some requests for seconds (p99 shows it) without the server failing them.
const REQUEST_TIMEOUT_SECONDS = 30;
const ORDERS_PER_SHOPPER = 4;
const WARM_UP_REQUESTS = 200;
// The hit target's visitors all post from 127.0.0.1, one client for the per-address rate limit: lift it. The same
// for the per-client cap on recorded searches, so every search of the search targets is written (in batches): the
// checkout flow after them meets the heaviest analytics load, not the 60 rows a minute of a capped crawler.
const LIFTED_LIMITS = {
  newSessionsPerHour: 100_000_000,
  stats: { rateLimitPerMinute: 100_000_000, recordedSearchesPerMinute: 100_000_000 },
};
const shop = await startBuiltShop({ settings: { server: LIFTED_LIMITS } });
const coldShop = await startBuiltShop({
  settings: { server: { ...LIFTED_LIMITS, pageCache: { maxBytes: 0 } } },
});
const cartCookie = await cookieWithCartItem(shop.url);
// What a browser sends: the warm pages answer with their stored brotli copy.
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };

const PAGES = [
  { page: 'home', path: '/' },
  { page: 'category', path: '/product-category/home/kitchen/' },
  { page: 'product', path: '/product/washed-linen-shirt/' },
  { page: 'search results', path: '/?s=linen&post_type=product' },
];

// The targets, in one table: a plain GET (its path and the headers it sends) per row. The statistics hit and the
// checkout flow, which need per-request bodies and a count in the database, are measured after them.
const TARGETS = [
  { name: 'peer: /healthz', path: '/healthz', amount: 10_000 },
  ...PAGES.map(({ page, path }) => ({
    name: `${page} (warm)`,
    path,
    headers: BROWSER,
    amount: 10_000,
    warm: true,
  })),
  ...PAGES.map(({ page, path }) => ({
    name: `${page} (cold)`,
    path,
    headers: BROWSER,
    amount: 2_000,
    on: coldShop,
  })),
  {
    name: 'cart page (with a cart)',
    path: '/cart/',
    headers: { ...BROWSER, cookie: cartCookie },
    amount: 2_000,
  },
  {
    name: 'checkout page (with a cart)',
    path: '/checkout/',
    headers: { ...BROWSER, cookie: cartCookie },
    amount: 2_000,
  },
  {
    name: 'get_refreshed_fragments',
    path: '/?wc-ajax=get_refreshed_fragments',
    headers: { cookie: cartCookie },
    amount: 5_000,
  },
  { name: 'search_suggestions', path: '/?wc-ajax=search_suggestions&s=linen', amount: 5_000 },
];

const rows = [];
let checkoutAlone;
let analytics;
try {
  checkoutAlone = await measureCheckoutFlow('checkout flow alone (first)');
  for (const target of TARGETS) rows.push(await measure(target));
  rows.push(await measureHits());
  rows.push(await measureCheckoutFlow('checkout flow (after the rest)'));
  analytics = await searchAnalytics().catch((error) => {
    console.error(`search analytics counters unavailable: ${error.cause?.code ?? error.message}`);
    return { recorded: NaN, capped: NaN, dropped: NaN, deferred: NaN };
  });
} finally {
  await shop.stop().catch(() => {});
  await coldShop.stop().catch(() => {});
}

console.log(
  `autocannon, ${SHOPPERS} connections, loopback; each target capped at ${TIME_CAP_SECONDS} s, after ${WARM_UP_REQUESTS} requests not counted`,
);
console.log(
  'target                            requests      req/s   p50 ms   p99 ms   max ms   errors timeouts   vs peer  cpu ms/req',
);
const peer = rows[0];
for (const row of [...rows, checkoutAlone]) {
  console.log(
    [
      row.name.padEnd(32),
      String(row.requests).padStart(9),
      row.rps.toFixed(0).padStart(10),
      row.p50.toFixed(1).padStart(8),
      row.p99.toFixed(1).padStart(8),
      row.max.toFixed(1).padStart(8),
      String(row.errors).padStart(8),
      String(row.timeouts).padStart(8),
      `${(row.rps / peer.rps).toFixed(2)}×`.padStart(9),
      (row.cpuMsPerRequest?.toFixed(2) ?? '-').padStart(11),
    ].join(' '),
  );
}
const hits = rows.at(-2);
console.log(
  `stats hit: ${hits.acknowledged} acknowledged, ${hits.stored} stored` +
    ` (${hits.acknowledged === hits.stored ? 'equal' : 'MISMATCH'}); sustained hits: \`npm run bench -- hits\``,
);
const flow = rows.at(-1);
console.log(
  `checkout: ${flow.confirmations} order confirmations, ${flow.ordersInDatabase} orders in the database` +
    ` (${flow.confirmations === flow.ordersInDatabase ? 'equal' : 'MISMATCH'}), ${flow.ordersPerSecond.toFixed(1)} orders/s`,
);
console.log(
  `checkout flow after the rest ÷ alone: ${(flow.rps / checkoutAlone.rps).toFixed(2)}× req/s` +
    ` (p99 ${flow.p99.toFixed(0)} vs ${checkoutAlone.p99.toFixed(0)} ms); alone: ${checkoutAlone.confirmations} confirmations,` +
    ` ${checkoutAlone.ordersInDatabase} orders`,
);
console.log(
  `search analytics: ${analytics.recorded} searches recorded, ${analytics.capped} capped` +
    ` (server.stats.recordedSearchesPerMinute per client), ${analytics.dropped} dropped`,
);
console.log(
  `requests that waited for a turn of the event loop (/healthz deferredRequests, server.loopSliceMs): ${analytics.deferred}`,
);
console.log(
  `load average (1/5/15 min) at the end: ${loadavg()
    .map((each) => each.toFixed(2))
    .join(' / ')}`,
);
const failed = [...rows, checkoutAlone].filter((row) => row.errors + row.timeouts > 0);
if (
  failed.length > 0 ||
  flow.confirmations !== flow.ordersInDatabase ||
  checkoutAlone.confirmations !== checkoutAlone.ordersInDatabase ||
  hits.acknowledged !== hits.stored ||
  !(analytics.dropped === 0)
) {
  console.error(`FAILED: errors in ${failed.map((row) => row.name).join(', ') || 'order count'}`);
  process.exitCode = 1;
}

/**
 * Runs autocannon with a time cap on top of its request count, so a stuck server cannot hold the bench. autocannon's
 * own `duration` ends at its next whole-second tick after the last response (2,000 requests answered in 2.1 s count
 * as 3.01 s); `seconds` ends at the last response instead. `cpuMs` is what the shop's process spent meanwhile.
 */
function run(options, on = shop) {
  return new Promise((resolve, reject) => {
    const cpuBefore = processCpuMs(on.child.pid);
    const started = performance.now();
    let lastResponse = started;
    const instance = autocannon(
      { connections: SHOPPERS, timeout: REQUEST_TIMEOUT_SECONDS, ...options },
      (error, result) => {
        if (error) return reject(error);
        const cpuAfter = processCpuMs(on.child.pid);
        resolve({
          ...result,
          seconds: (lastResponse - started) / 1000,
          cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
        });
      },
    );
    instance.on('response', () => {
      lastResponse = performance.now();
    });
    const cap = setTimeout(() => instance.stop(), TIME_CAP_SECONDS * 1000);
    instance.on('done', () => clearTimeout(cap));
  });
}

function figures(name, result, extraErrors = 0) {
  return {
    name,
    requests: result.requests.total,
    rps: result.requests.total / result.seconds,
    cpuMsPerRequest: result.cpuMs === null ? null : result.cpuMs / result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    // autocannon's `errors` includes timeouts; they are shown apart.
    errors: result.errors - result.timeouts + result.non2xx + result.mismatches + extraErrors,
    timeouts: result.timeouts,
  };
}

async function measure({ name, path, headers = {}, amount, method = 'GET', body, on = shop, warm = false }) {
  if (warm) {
    const first = await fetch(`${on.url}${path}`, { headers });
    await first.arrayBuffer();
    if (first.headers.get('x-shop-cache') === null)
      throw new Error(`${path} is not answered by the render cache`);
  }
  // A short run first, not counted, so the figures are the code's and not the JIT compiler's first pass over it.
  // The counted run still opens its connections all at once, so a burst of new visitors is in every row.
  await run({ url: `${on.url}${path}`, method, headers, body, amount: WARM_UP_REQUESTS }, on);
  const result = await run({ url: `${on.url}${path}`, method, headers, body, amount }, on);
  return figures(name, result);
}

/**
 * The statistics hit endpoint (a signed POST answered after its group commit) from 5 000 distinct visitors; every
 * acknowledged hit must be in the database.
 */
async function measureHits() {
  const before = countStoredHits(shop.dataDir);
  let acknowledged = 0;
  const params = await hitParams(shop.url);
  const result = await run({
    url: shop.url,
    amount: 5_000,
    requests: [hitRequest(params, { visitors: 5_000, onAck: () => acknowledged++ })],
  });
  const stored = countStoredHits(shop.dataDir) - before;
  return { ...figures('stats hit (REST)', result), acknowledged, stored };
}

/**
 * SHOPPERS concurrent shoppers, each autocannon connection one shopper with its own cookie jar (autocannon's
 * per-connection context, reset at each pass, so every pass is a new visitor): view a product, add it to the
 * cart, open the checkout and read its form's hidden fields (nonce, cart hash and any other), place the order.
 * Every step's status is checked; a confirmation is the 303 to /checkout/order-received/.
 */
async function measureCheckoutFlow(name) {
  const ordersBefore = countOrders();
  let confirmations = 0;
  let wrongStatus = 0;
  const expect = (status, wanted) => {
    if (status !== wanted) wrongStatus++;
  };
  const withCookies = (request, context) => ({
    ...request,
    headers: { ...request.headers, cookie: context.jar?.header() ?? '' },
  });
  const keep = (context, headers) => {
    context.jar ??= createCookieJar();
    context.jar.storeLines(setCookieLines(headers));
  };
  const requests = [
    {
      method: 'GET',
      path: '/product/waxed-canvas-tote/',
      setupRequest: (request, context) => {
        context.jar = createCookieJar();
        return request;
      },
      onResponse: (status) => expect(status, 200),
    },
    {
      method: 'POST',
      path: '/?wc-ajax=add_to_cart',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      // The tote has no stock limit, so every shopper can buy it.
      body: 'product_id=1033&quantity=2',
      setupRequest: withCookies,
      onResponse: (status, _body, context, headers) => {
        expect(status, 200);
        keep(context, headers);
      },
    },
    {
      method: 'GET',
      path: '/checkout/',
      setupRequest: withCookies,
      onResponse: (status, body, context) => {
        expect(status, 200);
        context.hiddenFields = checkoutHiddenFields(body) ?? {};
      },
    },
    {
      method: 'POST',
      path: '/checkout/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      setupRequest: (request, context) => ({
        ...withCookies(request, context),
        body: new URLSearchParams({ ...context.hiddenFields, ...BILLING_FORM }).toString(),
      }),
      onResponse: (status, _body, _context, headers) => {
        const location = headerValue(headers, 'location');
        if (status === 303 && /^\/checkout\/order-received\/\d+\//.test(String(location))) confirmations++;
        else wrongStatus++;
      },
    },
  ];
  const started = performance.now();
  const result = await run({
    url: shop.url,
    requests,
    amount: SHOPPERS * ORDERS_PER_SHOPPER * requests.length,
  });
  const seconds = (performance.now() - started) / 1000;
  const ordersInDatabase = countOrders() - ordersBefore;
  // autocannon counts the expected 303s as non-2xx; the per-step checks above are the real error count.
  const row = figures(name, { ...result, non2xx: 0 }, wrongStatus);
  return { ...row, confirmations, ordersInDatabase, ordersPerSecond: confirmations / seconds };
}

function countOrders() {
  const db = new Database(`${shop.dataDir}/shop.sqlite`, { readonly: true });
  const count = db.prepare('SELECT COUNT(*) FROM orders').pluck().get();
  db.close();
  return count;
}

/** The searches stored, and the shop's counters of those capped and dropped (GET /healthz). */
async function searchAnalytics() {
  // A fresh connection: a pooled keep-alive one may have been closed by the server during the last target.
  const health = await fetchJsonRetrying(`${shop.url}/healthz`);
  const db = new Database(`${shop.dataDir}/shop.sqlite`, { readonly: true });
  const recorded = db.prepare('SELECT COUNT(*) FROM search_queries').pluck().get();
  db.close();
  return {
    recorded,
    capped: health.cappedWrites?.searchQueries ?? 0,
    dropped: Object.values(health.droppedWrites).reduce((sum, each) => sum + each, 0),
    deferred: health.deferredRequests,
  };
}

async function fetchJsonRetrying(url, tries = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (await fetch(url, { headers: { connection: 'close' } })).json();
    } catch (error) {
      if (attempt >= tries) throw error;
    }
  }
}

function headerValue(headers, name) {
  const key = Object.keys(headers).find((each) => each.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function setCookieLines(headers) {
  const value = headerValue(headers, 'set-cookie');
  return value === undefined ? [] : [value].flat();
}
