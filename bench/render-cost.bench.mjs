// Render cost: the server CPU one page costs when nothing is cached, this build against another build side by side.
// `npm run bench -- render-cost --baseline DIR` starts this checkout's built shop with the render cache off
// (`server.pageCache.maxBytes: 0`) and DIR's built shop (another checkout, `npm run build` done there: the build
// before the render cache, say), each in its own process with its own demo catalog, and asks both the same pages
// with the headers a browser sends (brotli accepted), the same number of requests, in alternating rounds (which
// shop goes first swaps each round), after a warm-up. The figure is the shop process's CPU milliseconds per request
// (/proc, user + system), which other work on shared cores does not skew as it skews requests per second (also
// printed). Medians over the rounds, and baseline ÷ this build: how many times less CPU a page costs now.
// Without --baseline only this build is measured. Options: --rounds N (5), --requests N per page and round (600),
// --connections N (10), --pages home,category,product,cart,checkout (all), --warm-up N requests per page before
// the rounds (300; 0 measures a fresh process, whose first requests also pay V8 compiling the code they run).
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';
import { cookieWithCartItem } from './support/cookieJar.mjs';
import { processCpuMs } from './support/processCpu.mjs';

const { values: options } = parseArgs({
  args: process.argv.slice(3),
  options: {
    baseline: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '600' },
    connections: { type: 'string', default: '10' },
    pages: { type: 'string', default: 'home,category,product,cart,checkout' },
    'warm-up': { type: 'string', default: '300' },
  },
});
const ROUNDS = Number(options.rounds);
const REQUESTS = Number(options.requests);
const CONNECTIONS = Number(options.connections);
const WARM_UP_REQUESTS = Number(options['warm-up']);
// Every visit of the benchmark comes from 127.0.0.1: lift the per-address limit on new sessions. Only settings both
// builds know (settings objects are strict), the render cache's off switch only for this build.
const LIFTED = { newSessionsPerHour: 100_000_000 };
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };
const ALL_PAGES = [
  { page: 'home', path: '/' },
  { page: 'category', path: '/product-category/home/kitchen/' },
  { page: 'product', path: '/product/washed-linen-shirt/' },
  { page: 'cart', path: '/cart/', withCart: true },
  { page: 'checkout', path: '/checkout/', withCart: true },
];
const wanted = options.pages.split(',');
const PAGES = ALL_PAGES.filter(({ page }) => wanted.includes(page));

const shops = [];
try {
  shops.push({
    name: 'this build',
    shop: await startBuiltShop({ settings: { server: { ...LIFTED, pageCache: { maxBytes: 0 } } } }),
  });
  if (options.baseline) {
    shops.push({
      name: 'baseline',
      shop: await startBuiltShop({ root: resolve(options.baseline), settings: { server: LIFTED } }),
    });
  }
  for (const each of shops) each.cartCookie = await cookieWithCartItem(each.shop.url);

  const headersOf = (each, page) => (page.withCart ? { ...BROWSER, cookie: each.cartCookie } : BROWSER);
  for (const each of shops) {
    for (const page of PAGES)
      if (WARM_UP_REQUESTS > 0) await run(each, page.path, headersOf(each, page), WARM_UP_REQUESTS);
  }
  // figures[page][shop name] = [{ cpuMsPerRequest, rps }, …] one per round
  const figures = Object.fromEntries(PAGES.map(({ page }) => [page, {}]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? shops : [...shops].reverse();
    for (const page of PAGES) {
      for (const each of order) {
        const result = await run(each, page.path, headersOf(each, page), REQUESTS);
        figures[page.page][each.name] = [...(figures[page.page][each.name] ?? []), result];
      }
    }
  }

  console.log(
    `render cost, cache off: ${ROUNDS} rounds × ${REQUESTS} requests per page and build, ${CONNECTIONS} connections, loopback` +
      (options.baseline ? `; baseline: ${options.baseline}` : ''),
  );
  const header = ['page'.padEnd(10)];
  for (const each of shops)
    header.push(`${each.name} cpu ms/req`.padStart(24), `${each.name} req/s`.padStart(18));
  if (options.baseline) header.push('baseline ÷ this build (cpu)'.padStart(29));
  console.log(header.join(' '));
  for (const page of PAGES) {
    const row = [page.page.padEnd(10)];
    const medians = {};
    for (const each of shops) {
      const rounds = figures[page.page][each.name];
      medians[each.name] = median(rounds.map((r) => r.cpuMsPerRequest));
      row.push(
        medians[each.name].toFixed(3).padStart(24),
        median(rounds.map((r) => r.rps))
          .toFixed(0)
          .padStart(18),
      );
    }
    if (options.baseline) row.push(`${(medians.baseline / medians['this build']).toFixed(2)}×`.padStart(29));
    console.log(row.join(' '));
  }
  console.log(
    `load average (1/5/15 min) at the end: ${loadavg()
      .map((each) => each.toFixed(2))
      .join(' / ')}`,
  );
} finally {
  for (const each of shops) await each.shop.stop().catch(() => {});
}

/** `amount` requests at `path`; the CPU the shop's process spent meanwhile, per request, and requests per second. */
function run(each, path, headers, amount) {
  const pid = each.shop.child.pid;
  return new Promise((done, fail) => {
    const cpuBefore = processCpuMs(pid);
    const started = performance.now();
    // autocannon's own duration ends at its next whole-second tick: the last response ends the run instead.
    let lastResponse = started;
    const instance = autocannon(
      { url: `${each.shop.url}${path}`, headers, amount, connections: CONNECTIONS, timeout: 30 },
      (error, result) => {
        if (error) return fail(error);
        const seconds = (lastResponse - started) / 1000;
        const cpuAfter = processCpuMs(pid);
        const failures = result.errors + result.non2xx;
        if (failures > 0) return fail(new Error(`${each.name} ${path}: ${failures} failed requests`));
        done({
          cpuMsPerRequest: cpuBefore === null ? Number.NaN : (cpuAfter - cpuBefore) / result.requests.total,
          rps: result.requests.total / seconds,
        });
      },
    );
    instance.on('response', () => {
      lastResponse = performance.now();
    });
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
