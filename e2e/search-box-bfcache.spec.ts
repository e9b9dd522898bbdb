import { expect, type Page, test } from '@playwright/test';
import { findChromium } from '../scripts/ensure-chromium.mjs';
import { shopPerSpecFile } from './support/startShop';

/*
 * The back arrow into a page the browser restores from its back-forward cache. The other specs run Chromium with
 * that cache off; this one turns it on, so `pageshow` arrives with `persisted` as it does for shoppers.
 */

test.use({
  launchOptions: {
    executablePath: findChromium() ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
    // Playwright turns the cache off by default; a restored page fires no load event, hence goBack's 'commit'.
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  },
});

const shop = shopPerSpecFile({ theme: { breakpoint: 400 } });

const searchInput = (page: Page) => page.locator('header').getByRole('combobox', { name: 'Search products' });

test('after the back arrow restores the page, the self-repair helper checks 11 times, and a box the theme re-renders is revived', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const watch = () => {
    const state = { restored: 0, scans: 0, restoredAt: 0, scanTimes: [] as number[] };
    Object.assign(window, { bfcache: state });
    const original = Document.prototype.querySelectorAll;
    Document.prototype.querySelectorAll = function (this: Document, selector: string) {
      if (selector === '[data-island="searchBox"]') {
        state.scans += 1;
        if (state.restoredAt) state.scanTimes.push(Math.round(performance.now() - state.restoredAt));
      }
      return original.call(this, selector);
    } as typeof original;
    window.addEventListener('pageshow', (event) => {
      if (!event.persisted) return;
      state.restored += 1;
      state.restoredAt = performance.now();
    });
  };
  await page.goto(`${shop().url}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  // Installed after load: an init script would cost the page its place in the back-forward cache.
  await page.evaluate(watch);
  await searchInput(page).fill('mug');
  await page.getByRole('option', { name: /Café au Lait Mug/ }).click();
  await expect(page).toHaveURL(/\/product\/cafe-au-lait-mug\/$/);
  await page.goBack({ waitUntil: 'commit' });
  await expect(page).toHaveURL(`${shop().url}/`);
  type State = { restored: number; scanTimes: number[] };
  const state = () => page.evaluate(() => (window as unknown as { bfcache: State }).bfcache);
  await expect.poll(async () => (await state()).restored).toBe(1);

  // 11 checks, 500 ms apart, then no more. The helper's observer also scans when the page re-renders itself after
  // the restore (the cart and the statistics refresh), at times that depend on the server's answers: those scans
  // are allowed, but each 500 ms tick must have its check and nothing may scan after the last one.
  const timed = async () => (await state()).scanTimes.filter((time) => time >= 250);
  const lastTick = 11 * 500;
  await expect
    .poll(async () => (await timed()).some((time) => time >= lastTick - 5), { timeout: 8000 })
    .toBe(true);
  await page.waitForTimeout(1200);
  const scanTimes = await timed();
  for (let tick = 1; tick <= 11; tick++) {
    expect(
      scanTimes.some((time) => time >= tick * 500 - 5 && time < tick * 500 + 250),
      `a check near ${tick * 500} ms in ${scanTimes.join(', ')}`,
    ).toBe(true);
  }
  expect(scanTimes.filter((time) => time >= lastTick + 250)).toEqual([]);

  // A theme that rebuilds its header after the restore: the box's markup comes back without its handlers.
  await page.evaluate(() => {
    const box = document.querySelector('header .shop-search');
    box?.replaceWith(box.cloneNode(true));
  });
  await searchInput(page).fill('');
  await searchInput(page).fill('mug');
  await expect(page.locator('header').getByRole('option', { name: /Café au Lait Mug/ })).toBeVisible();
  const ids = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[id]'), (element) => element.id),
  );
  expect(new Set(ids).size).toBe(ids.length);
});
