// The search box in real Chromium: time from the keystroke to the suggestions painted, for uncached queries
// (debounce as shipped, 400 ms, plus the request) and cached ones (answered in the keystroke's frame), beside a
// plain <datalist> filled from memory on the same keystroke — the floor of "keystroke → frame" in this browser.
// Also the gzipped size of the search UI's initial JavaScript and of its lazy chunks. Loopback only, bounded:
// SAMPLES keystrokes per case, medians reported; the suggestions endpoint is fulfilled in the page's network layer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { findChromium } from '../scripts/ensure-chromium.mjs';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';

const SAMPLES = 15;
const root = new URL('..', import.meta.url).pathname;

// --- bundle size -------------------------------------------------------------------------------------------
const manifest = JSON.parse(readFileSync(join(root, 'dist/client/.vite/manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(root, 'dist/client', file)), { level: 9 }).length;
function staticClosure(key, seen = new Set()) {
  if (seen.has(key) || key === 'src/client/entry.tsx') return seen;
  seen.add(key);
  for (const child of manifest[key]?.imports ?? []) staticClosure(child, seen);
  return seen;
}
const initial = [...staticClosure('src/client/search/SearchBox.tsx')];
const initialJs = initial.reduce((sum, key) => sum + gz(manifest[key].file), 0);
const initialCss = (manifest['src/client/search/SearchBox.tsx'].css ?? []).reduce(
  (sum, file) => sum + gz(file),
  0,
);
const entryJs = gz(manifest['src/client/entry.tsx'].file);
console.log(
  'search UI initial JS (gzip): %s bytes in %d chunks (%s)',
  initialJs,
  initial.length,
  initial.join(', '),
);
console.log(
  'search UI CSS (gzip): %s bytes; shared page entry with React (gzip): %s bytes',
  initialCss,
  entryJs,
);
for (const lazy of ['src/client/search/DetailsPanel.tsx', 'src/client/search/core/createVoiceSearch.ts']) {
  console.log('lazy chunk %s (gzip): %s bytes', lazy, gz(manifest[lazy].file));
}

// --- latency -----------------------------------------------------------------------------------------------
const shop = await startBuiltShop();
const { url } = shop;

const browser = await chromium.launch({
  executablePath: findChromium() ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.route(
    (address) => address.searchParams.get('wc-ajax') === 'search_suggestions',
    (route) => {
      const query = new URL(route.request().url()).searchParams.get('s');
      const suggestions = [1, 2, 3, 4, 5].map((n) => ({
        type: 'product',
        post_id: n,
        value: `${query} product ${n}`,
        url: `/product/p-${n}/`,
        price: '<span>$10.00</span>',
      }));
      return route.fulfill({ json: { suggestions } });
    },
  );
  await page.goto(`${url}/`);
  await page.waitForSelector('html[data-hydrated="true"]', { state: 'attached' });

  // Resolves with ms from the next keydown to the frame after `done()` first holds.
  const measure = (selector, expected, target = page) =>
    target.evaluate(
      ([selector, expected]) =>
        new Promise((resolve) => {
          let start = 0;
          document.addEventListener('keydown', () => (start = performance.now()), {
            once: true,
            capture: true,
          });
          const done = () =>
            [...document.querySelectorAll(selector)].some((el) =>
              (el.tagName === 'OPTION' ? el.value : el.textContent).includes(expected),
            );
          const observer = new MutationObserver(() => {
            if (!start || !done()) return;
            observer.disconnect();
            requestAnimationFrame(() => resolve(performance.now() - start));
          });
          observer.observe(document.body, {
            subtree: true,
            childList: true,
            characterData: true,
            attributes: true,
          });
          // Bounded: a case that never paints reports an error instead of hanging the run.
          setTimeout(() => resolve(Number.NaN), 5000);
        }),
      [selector, expected],
    );

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const input = page.getByRole('combobox', { name: 'Search products' }).first();
  const uncached = [];
  const cached = [];
  for (let i = 0; i < SAMPLES; i++) {
    const query = `lin${String.fromCharCode(97 + i)}x`;
    await input.fill(query.slice(0, -1));
    await page.waitForTimeout(450);
    let pending = measure('[role="option"]', `${query} product 1`);
    await input.press(query.at(-1));
    uncached.push(await pending);
    await input.fill(query.slice(0, -1));
    await page.waitForTimeout(50);
    pending = measure('[role="option"]', `${query} product 1`);
    await input.press(query.at(-1));
    cached.push(await pending);
  }

  // The peer: a <datalist> filled from an in-memory list on each keystroke.
  const peer = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await peer.setContent(`<input list="d" id="q"><datalist id="d"></datalist><script>
    const names = Array.from({ length: 200 }, (_, i) => 'lin' + String.fromCharCode(97 + (i % 26)) + 'x product ' + i);
    q.addEventListener('input', () => {
      const v = q.value.toLowerCase();
      d.replaceChildren(...names.filter((n) => n.includes(v)).slice(0, 5).map((n) => Object.assign(document.createElement('option'), { value: n })));
    });</script>`);
  const datalist = [];
  for (let i = 0; i < SAMPLES; i++) {
    const query = `lin${String.fromCharCode(97 + i)}x`;
    await peer.fill('#q', query.slice(0, -1));
    const pending = measure('#d option', `${query} product`, peer);
    await peer.press('#q', query.at(-1));
    datalist.push(await pending);
  }
  const [u, c, d] = [median(uncached), median(cached), median(datalist)];
  if ([...uncached, ...cached, ...datalist].some(Number.isNaN))
    throw new Error('a keystroke never painted its answer');
  console.log('keystroke → painted (median of %d)      ms     vs datalist', SAMPLES);
  console.log(
    'search box, uncached (debounce 400) %s %s×',
    u.toFixed(1).padStart(9),
    (u / d).toFixed(1).padStart(8),
  );
  console.log(
    'search box, cached                  %s %s×',
    c.toFixed(1).padStart(9),
    (c / d).toFixed(1).padStart(8),
  );
  console.log('plain <datalist> from memory        %s %s×', d.toFixed(1).padStart(9), '1.0'.padStart(8));
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await browser.close();
  await shop.stop();
}
