// Page speed as a phone sees it: Lighthouse (mobile emulation, simulated slow 4G and a 4× slower CPU, its
// defaults) driving Debian's Chromium against the built shop, median of 3 runs per page. Prints the
// performance score, LCP, TBT, CLS and the gzipped JavaScript and CSS each page loads, against the floor: a
// static HTML copy of the product page with no JavaScript, served from memory, measured in the same run.
// Targets: score ≥ 95 on every page, CLS 0, initial JavaScript ≤ 110 KB gzipped with React.
// Lighthouse's figures are simulated from a trace, so a busy machine lowers scores (TBT above all).
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { findChromium } from '../scripts/ensure-chromium.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';
import { cookieWithCartItem } from './support/cookieJar.mjs';

const RUNS = 3;
let version = '';
const gzipCache = new Map();
const TARGET = { score: 95, cls: 0, jsKb: 110 };

// The pages audited, in one table. Features landing later add their page types here (one line each), e.g.
// search results `/?s=linen&post_type=product`, a content page `/about/`, a category archive.
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'shop', path: '/shop/' },
  { name: 'variable product', path: '/product/washed-linen-shirt/' },
  { name: 'cart (1 item)', path: '/cart/', withCart: true },
  { name: 'checkout', path: '/checkout/', withCart: true },
];
const FLOOR_SOURCE = '/product/washed-linen-shirt/';

const shop = await startBuiltShop();
const floor = await serveStaticCopy(`${shop.url}${FLOOR_SOURCE}`, shop.url);
const chrome = await chromeLauncher.launch({
  chromePath: findChromium() ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions'],
});

try {
  // Lighthouse keeps the browser's cookies between runs, and the shop's own scripts write some (traffic
  // source, cart): every run starts from an empty cookie jar, and a cart page's run from a cart of its own.
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const cdp = await browser.target().createCDPSession();
  const freshCookies = (withCart) => async () => {
    await cdp.send('Storage.clearCookies');
    if (!withCart) return;
    const cookies = (await cookieWithCartItem(shop.url)).split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: shop.url };
    });
    await cdp.send('Storage.setCookies', { cookies });
  };
  const rows = [];
  for (const page of PAGES) {
    rows.push({ name: page.name, ...(await audit(`${shop.url}${page.path}`, freshCookies(page.withCart))) });
  }
  rows.push({ name: 'floor: static product, no JS', ...(await audit(floor.url, freshCookies(false))) });
  await browser.disconnect();

  console.log(`Lighthouse ${version} mobile, median of ${RUNS} runs; sizes gzipped (zlib level 6)`);
  console.log('page                            score   LCP ms   TBT ms     CLS   JS KB  CSS KB  target');
  for (const row of rows) {
    const met = row.score >= TARGET.score && row.cls <= TARGET.cls && row.jsKb <= TARGET.jsKb;
    console.log(
      [
        row.name.padEnd(30),
        String(row.score).padStart(7),
        row.lcp.toFixed(0).padStart(8),
        row.tbt.toFixed(0).padStart(8),
        row.cls.toFixed(3).padStart(8),
        row.jsKb.toFixed(1).padStart(7),
        row.cssKb.toFixed(1).padStart(7),
        (met ? 'met' : 'MISSED').padStart(7),
      ].join(' '),
    );
  }
  const floorRow = rows.at(-1);
  const product = rows.find((row) => row.name === 'variable product');
  console.log(
    `product page vs floor: LCP ${(product.lcp / floorRow.lcp).toFixed(2)}×, score ${product.score} vs ${floorRow.score}`,
  );
  console.log(`targets: score ≥ ${TARGET.score}, CLS ${TARGET.cls}, initial JS ≤ ${TARGET.jsKb} KB gzipped`);
} finally {
  chrome.kill();
  floor.close();
  await shop.stop();
}

/** Runs Lighthouse RUNS times on one URL (the cookies prepared afresh per run) and takes each figure's median. */
async function audit(url, prepareRun) {
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    await prepareRun();
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = result.lhr;
    version = lhr.lighthouseVersion;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    if (lhr.finalDisplayedUrl !== url) throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}`);
    runs.push({
      score: Math.round(lhr.categories.performance.score * 100),
      lcp: lhr.audits['largest-contentful-paint'].numericValue,
      tbt: lhr.audits['total-blocking-time'].numericValue,
      cls: lhr.audits['cumulative-layout-shift'].numericValue,
      ...(await gzippedAssets(lhr.audits['network-requests'].details.items)),
    });
  }
  const median = (key) => runs.map((run) => run[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return Object.fromEntries(Object.keys(runs[0]).map((key) => [key, median(key)]));
}

/** The JavaScript and CSS a page loaded, gzipped here (the target's measure; the shop sends brotli where accepted). */
async function gzippedAssets(requests) {
  const sizes = { jsKb: 0, cssKb: 0 };
  for (const request of requests) {
    const key =
      request.resourceType === 'Script' ? 'jsKb' : request.resourceType === 'Stylesheet' ? 'cssKb' : null;
    if (!key || !request.url.startsWith('http')) continue;
    if (!gzipCache.has(request.url)) {
      const body = Buffer.from(await (await fetch(request.url)).arrayBuffer());
      gzipCache.set(request.url, gzipSync(body).length / 1024);
    }
    sizes[key] += gzipCache.get(request.url);
  }
  return sizes;
}

/** The floor: the page's own HTML with every script and module preload removed, served from memory. */
async function serveStaticCopy(source, base) {
  const html = (await (await fetch(source)).text())
    .replace(/<script\b(?![^>]*type="application\/json")[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace('<head>', `<head><base href="${base}/">`);
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}
