import { type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import { findChromium } from '../scripts/ensure-chromium.mjs';
import { shopPerSpecFile } from './support/startShop';

/* Cart fragments across pages, tabs and the back-forward cache (SPEC.md §4 "Cart fragments", issue 3). */

const shop = shopPerSpecFile();

/** Every cart request a page sends (fragments, add, remove, quantity). */
function recordCartRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const name = url.searchParams.get('wc-ajax');
    if (name) seen.push(name);
    if (url.pathname === '/ajax' && request.postData()?.includes('cart')) seen.push('ajax');
  });
  return seen;
}

async function openHydrated(page: Page, path: string) {
  await page.goto(`${shop().url}${path}`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

async function addMugFromShop(page: Page) {
  await openHydrated(page, '/shop/');
  await page.getByRole('button', { name: 'Add “Café au Lait Mug” to your cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
}

test('a visitor with no cart makes no cart request at all', async ({ page }) => {
  const requests = recordCartRequests(page);
  await openHydrated(page, '/');
  await openHydrated(page, '/shop/');
  await openHydrated(page, '/product/cafe-au-lait-mug/');
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(
    page.getByRole('dialog', { name: 'Cart' }).getByText('No products in the cart.'),
  ).toBeVisible();
  await page.waitForTimeout(300);
  expect(requests).toEqual([]);
});

test('stored fragments are used on the next page without a request, and a changed cart refetches', async ({
  page,
}) => {
  await addMugFromShop(page);
  const requests = recordCartRequests(page);
  await page.addInitScript(() => {
    document.addEventListener('wc_fragments_loaded', () => {
      (window as Window & { fragmentsLoaded?: boolean }).fragmentsLoaded = true;
    });
  });
  await openHydrated(page, '/product/speckled-stoneware-bowl/');
  await expect
    .poll(() => page.evaluate(() => (window as Window & { fragmentsLoaded?: boolean }).fragmentsLoaded))
    .toBe(true);
  expect(requests).toEqual([]);

  // The cart changes behind this tab's back (the cookie changes, the stored hash does not): the next load refetches.
  const response = await page.request.post(`${shop().url}/?wc-ajax=add_to_cart`, {
    form: { product_id: '1022', quantity: '2' },
    headers: { origin: shop().url },
  });
  expect(response.ok()).toBe(true);
  await openHydrated(page, '/shop/');
  await expect.poll(() => requests).toEqual(['get_refreshed_fragments']);
  await expect(page.getByRole('link', { name: /^Cart 3 items/ })).toBeVisible();
  // The refetched fragments are stored under the cart's new hash, the one in the cookie. The header count above is
  // server-rendered, so this waits for the answer itself.
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const key = JSON.parse(document.getElementById('shop-settings')?.textContent ?? '{}').cart
            .storageKey;
          const stored = sessionStorage.getItem(`wc_cart_hash_${key}`);
          const cookie = /(?:^|; )woocommerce_cart_hash=([^;]*)/.exec(document.cookie)?.[1];
          return stored !== null && stored === cookie;
        }),
      { message: 'the stored cart hash is the cookie’s' },
    )
    .toBe(true);
});

test('a change in one tab updates the mini-cart in a second tab of the same browser', async ({ context }) => {
  const first = await context.newPage();
  const second = await context.newPage();
  await addMugFromShop(first);
  await openHydrated(second, '/product/speckled-stoneware-bowl/');
  await expect(second.getByRole('link', { name: /^Cart 1 item/ })).toBeVisible();

  // Tab one adds another mug from its drawer; tab two hears the local-storage change and refreshes.
  await first
    .getByRole('dialog', { name: 'Cart' })
    .getByRole('button', { name: 'Increase quantity' })
    .click();
  await expect(first.getByRole('link', { name: /^Cart 2 items/ })).toBeVisible();
  await expect(second.getByRole('link', { name: /^Cart 2 items/ })).toBeVisible();
  await second.getByRole('link', { name: /^Cart/ }).click();
  await expect(second.getByRole('dialog', { name: 'Cart' }).getByLabel(/Quantity/)).toHaveValue('2');
});

test('the cart page updates and removes without a reload, then fires updated_wc_div', async ({ page }) => {
  await addMugFromShop(page);
  await openHydrated(page, '/cart/');
  await page.evaluate(() => {
    (window as Window & { notReloaded?: boolean; updated?: number }).notReloaded = true;
    document.addEventListener('updated_wc_div', () => {
      const w = window as Window & { updated?: number };
      w.updated = (w.updated ?? 0) + 1;
    });
  });
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Increase quantity' }).click();
  await main.getByRole('button', { name: 'Increase quantity' }).click();
  await main.getByRole('button', { name: 'Update cart' }).click();
  await expect(main.getByRole('status')).toHaveText('Cart updated.');
  await expect(main.getByLabel(/Quantity/)).toHaveValue('3');
  // updated_wc_div refreshed the fragments: the header agrees.
  await expect(page.getByRole('link', { name: /^Cart 3 items/ })).toBeVisible();
  // Enter in a quantity updates the cart (it does not press the first line's Remove).
  await main.getByLabel(/Quantity/).fill('4');
  await main.getByLabel(/Quantity/).press('Enter');
  await expect(page.getByRole('link', { name: /^Cart 4 items/ })).toBeVisible();
  await expect(main.getByLabel(/Quantity/)).toHaveValue('4');
  await main.getByRole('button', { name: /^Remove Café au Lait Mug/ }).click();
  await expect(main.getByText('Your cart is currently empty.')).toBeVisible();
  await expect(page.getByRole('link', { name: /^Cart 0 items/ })).toBeVisible();
  const state = await page.evaluate(() => {
    const w = window as Window & { notReloaded?: boolean; updated?: number };
    return { notReloaded: w.notReloaded, updated: w.updated };
  });
  expect(state).toEqual({ notReloaded: true, updated: 3 });
});

test('the cart page focuses the notice of an update 500 ms after it appears, not at once', async ({
  page,
}) => {
  await addMugFromShop(page);
  // Page-side clocks: when the answer's notice entered the page and when it took the focus.
  await page.addInitScript(() => {
    const w = window as Window & { noticeAt?: number; focusedAt?: number };
    new MutationObserver(() => {
      if (w.noticeAt === undefined && document.querySelector('main .notice')) w.noticeAt = performance.now();
    }).observe(document, { childList: true, subtree: true });
    document.addEventListener('focusin', (event) => {
      if ((event.target as Element).matches('.notice')) w.focusedAt ??= performance.now();
    });
  });
  await openHydrated(page, '/cart/');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Increase quantity' }).click();
  await main.getByRole('button', { name: 'Update cart' }).click();
  await expect(main.getByRole('status')).toBeFocused();
  const clocks = await page.evaluate(() => {
    const w = window as Window & { noticeAt?: number; focusedAt?: number };
    return { noticeAt: w.noticeAt ?? Number.NaN, focusedAt: w.focusedAt ?? Number.NaN };
  });
  expect(clocks.focusedAt - clocks.noticeAt).toBeGreaterThanOrEqual(495);
  expect(clocks.focusedAt - clocks.noticeAt).toBeLessThan(1500);
});

/** The fragments, hash and created time this tab stored, and the cart hash cookie. */
function storedCart(page: Page) {
  return page.evaluate(() => {
    const key = JSON.parse(document.getElementById('shop-settings')?.textContent ?? '{}').cart.storageKey;
    return {
      fragments: sessionStorage.getItem(`wc_fragments_${key}`) ?? '',
      hash: sessionStorage.getItem(`wc_cart_hash_${key}`),
      sharedHash: localStorage.getItem(`wc_cart_hash_${key}`),
      created: Number(sessionStorage.getItem('wc_cart_created')),
      cookie: /(?:^|; )woocommerce_cart_hash=([^;]*)/.exec(document.cookie)?.[1] ?? '',
    };
  });
}

test('Remove in the mini-cart stores the answer’s fragments and cart hash, with no refresh request', async ({
  page,
}) => {
  await addMugFromShop(page);
  await openHydrated(page, '/product/speckled-stoneware-bowl/');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  await expect(drawer.getByRole('link', { name: 'Speckled Stoneware Bowl' })).toBeVisible();
  const before = await storedCart(page);
  const requests = recordCartRequests(page);
  await drawer.getByRole('button', { name: /^Remove Café au Lait Mug/ }).click();
  await expect(drawer.getByRole('link', { name: 'Café au Lait Mug' })).toHaveCount(0);
  await expect.poll(async () => (await storedCart(page)).hash).not.toBe(before.hash);
  const after = await storedCart(page);
  expect(after.hash).toBe(after.cookie);
  expect(after.sharedHash).toBe(after.cookie);
  const fragments = JSON.parse(after.fragments) as Record<string, string>;
  expect(fragments['div.widget_shopping_cart_content']).toContain('Speckled Stoneware Bowl');
  expect(fragments['div.widget_shopping_cart_content']).not.toContain('Café au Lait Mug');
  await page.waitForTimeout(300);
  expect(requests).toEqual(['remove_from_cart']);
});

test('stored fragments are used for 24 hours after they were stored, then fetched again', async ({
  page,
}) => {
  await addMugFromShop(page);
  const { created } = await storedCart(page);
  const DAY = 24 * 60 * 60 * 1000;
  // The next page opens a minute before the stored fragments turn 24 hours old.
  await page.clock.install({ time: created + DAY - 60_000 });
  const requests = recordCartRequests(page);
  await openHydrated(page, '/product/speckled-stoneware-bowl/');
  await page.clock.runFor(50_000);
  expect(requests).toEqual([]);
  // Up to the 24th hour and not far past it: a jump further would also fire the request's own timeout.
  const now = await page.evaluate(() => Date.now());
  await page.clock.runFor(created + DAY - now + 100);
  await expect.poll(() => requests).toEqual(['get_refreshed_fragments']);

  // The refetch started a new 24 hours: a page opened just after them fetches at once.
  await expect.poll(async () => (await storedCart(page)).created).toBeGreaterThan(created);
  const refreshed = await storedCart(page);
  await page.clock.setSystemTime(refreshed.created + DAY + 1000);
  await openHydrated(page, '/shop/');
  await expect.poll(() => requests).toEqual(['get_refreshed_fragments', 'get_refreshed_fragments']);
});

test.describe('with the back-forward cache on', () => {
  let context: BrowserContext;
  test.beforeAll(async () => {
    // Playwright disables the cache by default (DESIGN.md "Testing notes").
    const browser = await chromium.launch({
      executablePath: findChromium() ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    });
    context = await browser.newContext();
  });
  test.afterAll(async () => {
    await context?.browser()?.close();
  });

  test('a page restored from the back-forward cache refreshes its fragments', async () => {
    const page = await context.newPage();
    await addMugFromShop(page);
    await page.getByRole('dialog', { name: 'Cart' }).getByRole('button', { name: 'Close' }).click();
    await page.evaluate(() => {
      (window as Window & { restoredMarker?: boolean }).restoredMarker = true;
    });
    await openHydrated(page, '/product/speckled-stoneware-bowl/');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('link', { name: /^Cart 2 items/ })).toBeVisible();

    const requests = recordCartRequests(page);
    // A restored page fires no new load event: wait for the navigation to commit only.
    await page.goBack({ waitUntil: 'commit' });
    // The same document came back (not a reload), with its old header, and asked for fresh fragments.
    expect(await page.evaluate(() => (window as Window & { restoredMarker?: boolean }).restoredMarker)).toBe(
      true,
    );
    await expect.poll(() => requests).toContain('get_refreshed_fragments');
    await expect(page.getByRole('link', { name: /^Cart 2 items/ })).toBeVisible();
  });
});
