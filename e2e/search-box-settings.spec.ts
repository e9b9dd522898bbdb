import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

/*
 * The search box's settings, each turned away from its default, in real Chromium. Suggestions come from the same
 * fixtures as search-box.spec.ts; everything else (pages, cart) is the real shop.
 */

const FIXTURES = join(import.meta.dirname, 'fixtures', 'search');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

async function routeSuggestions(page: Page) {
  await page.route(
    (url) => url.searchParams.get('wc-ajax') === 'search_suggestions',
    (route) => {
      const query = new URL(route.request().url()).searchParams.get('s') ?? '';
      let body: unknown;
      try {
        body = fixture(join('suggestions', `${query.toLowerCase()}.json`));
      } catch {
        body = fixture('no-results.json');
      }
      return route.fulfill({ json: body });
    },
  );
}

async function open(page: Page, url: string) {
  await routeSuggestions(page);
  await page.goto(url);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

const searchInput = (page: Page) => page.locator('header').getByRole('combobox', { name: 'Search products' });

test.describe('every setting away from its default', () => {
  const configured = shopPerSpecFile({
    // The desktop header down to 400 px, so the box itself is in view at every width below.
    theme: { breakpoint: 400 },
    cart: { hideIfEmpty: true, cartUrl: '/cart/?from=search' },
    search: {
      show: {
        images: false,
        price: false,
        description: false,
        sku: false,
        saleBadge: false,
        featuredBadge: false,
        headings: false,
        vendor: false,
        detailsPanel: false,
      },
      labels: {
        placeholder: 'Find linen and more',
        submit: 'Go',
        noResults: '<p class="custom-empty">Nothing here yet. <a href="/shop/">Browse the shop</a></p>',
        showMore: 'All %s results',
        historyHeading: 'Lately',
        historyClear: 'Forget',
      },
      icons: { back: '<span class="my-back-icon">⇐</span>' },
      maxHeight: 120,
      zIndex: 4242,
      width: 420,
      mobileOverlayBreakpoint: 500,
      goToFirstVariationOnSubmit: false,
      analytics: { enabled: true, modules: ['ga4'] },
      miniCart: { enabled: true },
    },
  });

  test('every show.* switch off: no picture, price, description, SKU, badges, headings, vendor or details panel', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${configured().url}/`);
    await searchInput(page).fill('linen');
    const listbox = page.getByRole('listbox');
    const shirt = listbox.getByRole('option', { name: /Washed Linen Shirt/ });
    await expect(shirt).toBeVisible();
    await expect(listbox.locator('img')).toHaveCount(0);
    for (const hidden of [
      '$',
      'SKU',
      'DEMO-LINEN',
      'garment-washed',
      'stonewashed',
      'featured',
      'sale',
      'Sold by',
      'Whitby',
    ]) {
      await expect(listbox).not.toContainText(hidden);
    }
    await expect(listbox.locator('.shop-search__headline')).toHaveCount(0);
    await expect(listbox).not.toContainText('Categories');
    await expect(page.getByRole('region', { name: 'Product details' })).toHaveCount(0);
    // Third-party slots still show: they are no show.* switch.
    await expect(shirt.locator('.third-party-note')).toHaveText('Ships in 2 days');
  });

  test('custom labels, no-results content and the history icon with images off', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${configured().url}/`);
    await expect(searchInput(page)).toHaveAttribute('placeholder', 'Find linen and more');
    await expect(page.locator('header').getByRole('button', { name: 'Go' })).toBeVisible();
    await searchInput(page).fill('linen');
    await expect(page.getByRole('option', { name: 'All 5 results' })).toBeVisible();
    await searchInput(page).fill('zzzz');
    const empty = page.locator('header .custom-empty');
    await expect(empty).toHaveText('Nothing here yet. Browse the shop');
    await expect(empty.getByRole('link', { name: 'Browse the shop' })).toHaveAttribute('href', '/shop/');
    await searchInput(page).fill('linen');
    await page.getByRole('option', { name: 'Washed Linen Shirt' }).click();
    await expect(page).toHaveURL(/washed-linen-shirt/);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await searchInput(page).focus();
    await expect(page.locator('header').getByText('Lately')).toBeVisible();
    const recent = page.getByRole('option', { name: 'Washed Linen Shirt' });
    await expect(recent.locator('.shop-search__thumb--icon svg')).toHaveCount(1);
    await page.locator('header').getByRole('button', { name: 'Forget' }).click();
    await expect(page.getByRole('listbox')).toBeHidden();
  });

  test('maxHeight, zIndex and width shape the box and its dropdown', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${configured().url}/`);
    expect((await page.locator('header .shop-search').boundingBox())?.width).toBeCloseTo(420, 0);
    await searchInput(page).fill('linen');
    const dropdown = page.locator('header .shop-search__dropdown');
    await expect(dropdown.getByRole('option').first()).toBeVisible();
    const box = await dropdown.evaluate((element) => ({
      height: element.getBoundingClientRect().height,
      scrolls: element.scrollHeight > element.clientHeight,
      zIndex: getComputedStyle(element).zIndex,
    }));
    expect(box.height).toBeLessThanOrEqual(120);
    expect(box.scrolls).toBe(true);
    expect(box.zIndex).toBe('4242');
  });

  test('the mobile overlay opens below mobileOverlayBreakpoint (500 px), not below the default 992 px', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 700, height: 900 });
    await open(page, `${configured().url}/`);
    await searchInput(page).click();
    await searchInput(page).fill('linen');
    await expect(page.getByRole('listbox')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Search' })).toHaveCount(0);
    await page.setViewportSize({ width: 450, height: 900 });
    await page
      .locator('h1, main')
      .first()
      .click({ position: { x: 5, y: 5 } });
    await searchInput(page).click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await expect(dialog).toBeVisible();
    // The configured back icon (search.icons.back) is on its Close button.
    await expect(dialog.getByRole('button', { name: 'Close search' }).locator('.my-back-icon')).toBeVisible();
  });

  test('with analytics on and modules ["ga4"], searches go to dataLayer and not to gtag', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const calls: unknown[] = [];
      Object.assign(window, {
        dataLayer: [],
        gtagCalls: calls,
        gtag: (...args: unknown[]) => calls.push(args),
      });
    });
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${configured().url}/`);
    await searchInput(page).fill('linen');
    await expect(page.getByRole('option').first()).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { dataLayer: { event: string }[] }).dataLayer))
      .toEqual([expect.objectContaining({ event: 'search_with_results', search_term: 'linen' })]);
    expect(await page.evaluate(() => (window as unknown as { gtagCalls: unknown[] }).gtagCalls)).toEqual([]);
  });

  test('with goToFirstVariationOnSubmit off, Enter goes to the results page', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${configured().url}/`);
    await searchInput(page).fill('sage');
    await expect(page.getByRole('option').first()).toBeVisible();
    await searchInput(page).press('Enter');
    await expect(page).toHaveURL(/\?s=sage&post_type=product/);
  });

  test('cart.hideIfEmpty hides the mini-cart until the cart has items; then it shows count and total and links to cart.cartUrl', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${configured().url}/product/cafe-au-lait-mug/`);
    const miniCart = page.locator('header .shop-search__mini-cart');
    await expect(miniCart).toBeHidden();
    await page.locator('main').getByRole('button', { name: 'Add to cart' }).click();
    await expect(miniCart).toBeVisible();
    await expect(miniCart).toHaveText('Cart 1 $18.00');
    await expect(miniCart).toHaveAttribute('href', '/cart/?from=search');
  });
});

test.describe('flexible layouts', () => {
  const flexible = shopPerSpecFile({
    theme: { breakpoint: 400 },
    search: {
      layout: 'icon-flexible',
      layoutBreakpoint: 1000,
      mobileOverlayBreakpoint: 500,
      icons: {
        magnifier:
          '<svg class="my-magnifier" aria-hidden="true" viewBox="0 0 10 10" width="16" height="16"><circle cx="5" cy="5" r="4"/></svg>',
      },
      miniCart: { enabled: true },
    },
  });
  const inverse = shopPerSpecFile({
    theme: { breakpoint: 400 },
    search: { layout: 'icon-flexible-inv', layoutBreakpoint: 1000, mobileOverlayBreakpoint: 500 },
  });

  const icon = (page: Page) => page.locator('header .shop-search__icon');

  test('icon-flexible: a box at and above the layout breakpoint, the configured icon below it', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${flexible().url}/`);
    await expect(searchInput(page)).toBeVisible();
    await expect(icon(page)).toHaveCount(0);
    await page.setViewportSize({ width: 900, height: 900 });
    await expect(icon(page)).toBeVisible();
    await expect(icon(page).locator('svg.my-magnifier')).toHaveCount(1);
    await expect(searchInput(page)).toBeHidden();
    await icon(page).click();
    await expect(searchInput(page)).toBeFocused();
    await searchInput(page).fill('mug');
    await expect(page.getByRole('option', { name: /Café au Lait Mug/ })).toBeVisible();
  });

  test('icon-flexible-inv: the icon at and above the layout breakpoint, a box below it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${inverse().url}/`);
    await expect(icon(page)).toBeVisible();
    await expect(searchInput(page)).toBeHidden();
    await page.setViewportSize({ width: 900, height: 900 });
    await expect(icon(page)).toHaveCount(0);
    await expect(searchInput(page)).toBeVisible();
  });

  test('the mini-cart follows cart.hideIfEmpty (off): shown with an empty cart', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await open(page, `${flexible().url}/`);
    const miniCart = page.locator('header .shop-search__mini-cart');
    await expect(miniCart).toBeVisible();
    await expect(miniCart).toHaveText('Cart 0 $0.00');
    await expect(miniCart).toHaveAttribute('href', '/cart/');
  });
});
