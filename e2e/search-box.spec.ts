import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

/*
 * The search box in real Chromium against the real shop. The three search endpoints belong to the search engine
 * (their own specs); here they are fulfilled from fixtures in the exact response format of docs/contract.md and
 * docs/contract.md "Payloads", so these tests pin the browser side.
 */

const FIXTURES = join(import.meta.dirname, 'fixtures', 'search');
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

interface SearchTraffic {
  suggestions: string[];
  details: { objectID: string }[][];
  prices: number[][];
}

async function routeSearch(page: Page): Promise<SearchTraffic> {
  const traffic: SearchTraffic = { suggestions: [], details: [], prices: [] };
  const details = fixture('details.json') as { items: { objectID: string }[] };
  await page.route(
    (url) => url.searchParams.has('wc-ajax'),
    async (route) => {
      const url = new URL(route.request().url());
      const name = url.searchParams.get('wc-ajax');
      if (name === 'search_suggestions') {
        const query = url.searchParams.get('s') ?? '';
        traffic.suggestions.push(query);
        let body: unknown;
        try {
          body = fixture(join('suggestions', `${query.toLowerCase()}.json`));
        } catch {
          body = fixture('no-results.json');
        }
        return route.fulfill({ json: body });
      }
      if (name === 'search_details') {
        const { items } = route.request().postDataJSON() as { items: { objectID: string }[] };
        traffic.details.push(items);
        const wanted = new Set(items.map((item) => item.objectID));
        return route.fulfill({ json: { items: details.items.filter((item) => wanted.has(item.objectID)) } });
      }
      if (name === 'search_prices') {
        traffic.prices.push((route.request().postDataJSON() as { items: number[] }).items);
        return route.fulfill({ json: fixture('prices.json') });
      }
      return route.continue();
    },
  );
  return traffic;
}

/** Suggestions from the fixtures, details and prices from the real shop (its demo catalog has these ids). */
async function routeSuggestionsOnly(page: Page) {
  await page.route(
    (url) => url.searchParams.get('wc-ajax') === 'search_suggestions',
    (route) => {
      const query = new URL(route.request().url()).searchParams.get('s') ?? '';
      return route.fulfill({ json: fixture(join('suggestions', `${query.toLowerCase()}.json`)) });
    },
  );
}

/** Whether focus is anywhere inside the header's search box. */
const focusInHeaderBox = (page: Page) =>
  page.evaluate(() => !!document.activeElement?.closest('header .shop-search'));

// The theme's break point below 700 px, so the 700 px check keeps the desktop header with its box in view.
const shop = shopPerSpecFile({
  theme: { breakpoint: 600 },
  search: { show: { detailsPanel: true, sku: true, vendor: true } },
});

async function openHome(page: Page) {
  const traffic = await routeSearch(page);
  await page.goto(`${shop().url}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  return traffic;
}

const searchInput = (page: Page) => page.getByRole('combobox', { name: 'Search products' });

/** On small screens the header's box sits in the theme's search dropdown: its "Search" icon opens it. */
async function revealHeaderSearch(page: Page) {
  const icon = page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).first();
  if ((await icon.isVisible()) && (await icon.getAttribute('aria-expanded')) !== 'true') await icon.click();
}

test('typing shows every suggestion type with its fields, highlighted and announced', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const traffic = await openHome(page);
  await searchInput(page).fill('linen');
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(listbox).toBeVisible();
  await expect(searchInput(page)).toHaveAttribute('aria-expanded', 'true');
  expect(traffic.suggestions).toEqual(['linen']);
  const options = listbox.getByRole('option');
  await expect(options).toHaveCount(5);
  await expect(options.nth(0)).toContainText('Apparel › Shirts');
  const shirt = options.nth(1);
  await expect(shirt.locator('.shop-search__title mark')).toHaveText('Linen');
  await expect(shirt).toContainText('SKU: DEMO-LINEN-SHIRT');
  await expect(shirt).toContainText('$68.00');
  await expect(shirt).toContainText('featured');
  await expect(shirt).toContainText('Ships in 2 days');
  await expect(options.nth(2)).toContainText('sale');
  await expect(options.nth(2)).toContainText('Sold by: Tidewater Mill, Whitby');
  await expect(options.nth(4)).toHaveText('See all products... (5)');
  await expect(listbox.getByText('Categories')).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(/4 results available/);
  await expectNoAxeViolations(page);
});

test('arrows move over the options skipping headlines, Escape and a click outside hide the dropdown', async ({
  page,
}) => {
  await openHome(page);
  const input = searchInput(page);
  await input.fill('linen');
  const listbox = page.getByRole('listbox');
  await expect(listbox).toBeVisible();
  await input.press('ArrowDown');
  const first = listbox.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id')) ?? '');
  // The hydrated box names the elements the server drew: the listbox it controls and the label's input.
  const listboxId = await listbox.getAttribute('id');
  expect(listboxId).toBeTruthy();
  await expect(input).toHaveAttribute('aria-controls', String(listboxId));
  await expect(page.locator(`label[for="${await input.getAttribute('id')}"]`)).toHaveCount(1);
  await expect(input).toHaveValue('Shirts');
  await input.press('ArrowDown');
  await expect(input).toHaveValue('Washed Linen Shirt');
  await input.press('ArrowUp');
  await input.press('ArrowUp');
  await expect(input).toHaveValue('linen');
  await expect(input).not.toHaveAttribute('aria-activedescendant');
  await input.press('Escape');
  await expect(listbox).toBeHidden();
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  // Down on a hidden box with a value reopens it, from the cache.
  await input.press('ArrowDown');
  await expect(listbox).toBeVisible();
  await page.mouse.click(5, 500);
  await expect(listbox).toBeHidden();
});

test('keyboard only: from focus to the product page, which lands in the history view', async ({ page }) => {
  const traffic = await openHome(page);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  const input = searchInput(page);
  for (let step = 0; step < 12 && !(await input.evaluate((el) => el === document.activeElement)); step += 1) {
    await page.keyboard.press('Tab');
  }
  await expect(input).toBeFocused();
  await page.keyboard.type('linen');
  await expect(page.getByRole('listbox')).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/product\/washed-linen-shirt\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Washed Linen Shirt' })).toBeVisible();
  expect(traffic.suggestions).toEqual(['linen']);

  // History view: focus on the empty box shows the product just chosen; a phrase is saved on submit.
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const box = searchInput(page);
  await box.focus();
  const listbox = page.getByRole('listbox');
  await expect(page.getByText('Your recent searches')).toBeVisible();
  await expect(listbox.getByRole('option')).toHaveText([/Washed Linen Shirt/]);
  await expect(listbox.getByRole('option').first()).not.toContainText('$68.00');
  await expectNoAxeViolations(page);
  const stored = await page.evaluate(() => localStorage.getItem('fibosearch_recently_viewed_products'));
  expect(JSON.parse(stored ?? '[]')).toEqual([expect.objectContaining({ post_id: 1001 })]);
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(listbox).toBeHidden();
  expect(await page.evaluate(() => localStorage.getItem('fibosearch_recently_viewed_products'))).toBeNull();
});

test('a submitted phrase comes back in the history view and fills the box when chosen', async ({ page }) => {
  await openHome(page);
  await searchInput(page).fill('mug');
  await expect(page.getByRole('listbox')).toBeVisible();
  await searchInput(page).press('Enter');
  await expect(page).toHaveURL(/\?s=mug&post_type=product/);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await expect(searchInput(page)).toHaveValue('mug');
  await searchInput(page).fill('');
  const phrase = page.getByRole('option', { name: 'mug' });
  await expect(phrase).toBeVisible();
  await searchInput(page).fill('linen');
  await searchInput(page).fill('');
  await phrase.click();
  await expect(page).toHaveURL(/\?s=mug&post_type=product/);
});

test('text typed before the box hydrates is searched, and Enter submits it', async ({ page }) => {
  const traffic = await routeSearch(page);
  // The box's chunk is held until the shopper has typed, as on a slow connection.
  let releaseChunk = () => {};
  const typed = new Promise<void>((resolve) => {
    releaseChunk = resolve;
  });
  await page.route(/\/assets\/SearchBox-[^/]*\.js$/, async (route) => {
    await typed;
    await route.continue();
  });
  await page.goto(`${shop().url}/`);
  await revealHeaderSearch(page);
  await searchInput(page).pressSequentially('mug');
  await expect(page.locator('html[data-hydrated="true"]')).not.toBeAttached();
  releaseChunk();
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await expect(page.getByRole('listbox', { name: 'Search suggestions' })).toBeVisible();
  expect(traffic.suggestions).toEqual(['mug']);
  await searchInput(page).press('Enter');
  await expect(page).toHaveURL(/\?s=mug&post_type=product/);
});

test('Ctrl+Enter opens the chosen suggestion in a new tab', async ({ page, context }) => {
  await openHome(page);
  await searchInput(page).fill('mug');
  await expect(page.getByRole('listbox')).toBeVisible();
  await searchInput(page).press('ArrowDown');
  const [opened] = await Promise.all([
    context.waitForEvent('page'),
    searchInput(page).press('Control+Enter'),
  ]);
  await opened.waitForLoadState();
  expect(opened.url()).toMatch(/\/product\/cafe-au-lait-mug\/$/);
  expect(page.url()).toBe(`${shop().url}/`);
});

test('no results shows the configured empty text, and more_products goes to the results page', async ({
  page,
}) => {
  const traffic = await openHome(page);
  await searchInput(page).fill('zzzz');
  await expect(page.locator('.shop-search__no-results')).toHaveText('No results');
  await expect(page.getByRole('status')).toHaveText('No results.');
  await expect(page.getByRole('listbox')).toBeHidden();
  await searchInput(page).fill('linen');
  await page.getByRole('option', { name: /See all products/ }).click();
  await expect(page).toHaveURL(/\?s=linen&post_type=product/);
  expect(traffic.suggestions).toEqual(['zzzz', 'linen']);
});

test('the details panel shows at 1280 px but not at 700 px, each id requested once', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const traffic = await openHome(page);
  await searchInput(page).fill('linen');
  const panel = page.getByRole('region', { name: 'Product details' });
  await expect(panel).toContainText('Linen and cotton shirts.');
  await page.getByRole('option', { name: /Linen Tea Towel/ }).hover();
  await expect(panel).toContainText('Stonewashed for softness.');
  await expectNoAxeViolations(page);
  await searchInput(page).fill('line');
  await searchInput(page).fill('linen');
  await expect(panel).toBeVisible();
  expect(traffic.details.map((items) => items.map((item) => item.objectID))).toEqual([
    ['taxonomy__12__product_cat', 'product__1001', 'product__1025', 'product__1011'],
  ]);
  await page.setViewportSize({ width: 700, height: 900 });
  await expect(panel).toBeHidden();
  await expect(page.getByRole('listbox')).toBeVisible();
  // The dropdown follows the input when the layout changes: it stays right below it.
  const input = await searchInput(page).boundingBox();
  const dropdown = await page.locator('.shop-search__dropdown').boundingBox();
  expect(Math.abs((dropdown?.x ?? 0) - (input?.x ?? 0))).toBeLessThan(2);
  expect(dropdown?.y ?? 0).toBeGreaterThanOrEqual((input?.y ?? 0) + (input?.height ?? 0) - 1);
});

test('a search box inserted into the page later is mounted and works on its own', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  await page.evaluate(() => {
    const container = document.createElement('div');
    container.className = 'late-box';
    container.dataset.island = 'searchBox';
    container.dataset.props = '{}';
    document.querySelector('main')?.prepend(container);
  });
  const late = page.locator('.late-box').getByRole('combobox', { name: 'Search products' });
  await expect(late).toBeVisible();
  await late.fill('mug');
  await expect(page.locator('.late-box').getByRole('option', { name: /Café au Lait Mug/ })).toBeVisible();
  await expect(page.locator('header').getByRole('listbox')).toBeHidden();
  // This box's form is wider than the details-panel breakpoint (550 px): the panel shares the form's width.
  const panel = page.locator('.late-box').getByRole('region', { name: 'Product details' });
  await expect(panel).toBeVisible();
  await expect(page.locator('.late-box .shop-search')).toHaveClass(/has-details--full/);
  const form = await page.locator('.late-box form').boundingBox();
  const panelBox = await panel.boundingBox();
  expect(panelBox?.x ?? 0).toBeGreaterThan(form?.x ?? 0);
  expect((panelBox?.x ?? 0) + (panelBox?.width ?? 0)).toBeLessThanOrEqual(
    (form?.x ?? 0) + (form?.width ?? 0) + 2,
  );
  const ids = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[id]'), (element) => element.id),
  );
  expect(new Set(ids).size).toBe(ids.length);
});

test('a box a theme copies after load (without its container, or a copy of a repaired one) is revived with its own ids', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  // A late box the helper mounts, so the copies below include a copy of a repaired box.
  await page.evaluate(() => {
    const container = document.createElement('div');
    container.className = 'late-box';
    container.dataset.island = 'searchBox';
    container.dataset.props = '{}';
    document.querySelector('main')?.prepend(container);
  });
  await expect(page.locator('.late-box').getByRole('combobox')).toBeVisible();
  await page.evaluate(() => {
    const main = document.querySelector('main') as HTMLElement;
    // A theme's mobile menu copies the header's form markup (no island container, so never hydrated)...
    const menu = document.createElement('nav');
    menu.className = 'theme-mobile-menu';
    menu.setAttribute('aria-label', 'Mobile menu');
    menu.append((document.querySelector('header .shop-search') as HTMLElement).cloneNode(true));
    // ...and a popup copies the repaired box with its container.
    const popup = document.createElement('div');
    popup.className = 'theme-popup';
    popup.append((document.querySelector('.late-box') as HTMLElement).cloneNode(true));
    main.prepend(menu, popup);
  });
  for (const where of ['.theme-mobile-menu', '.theme-popup']) {
    const input = page.locator(where).getByRole('combobox', { name: 'Search products' });
    await input.fill('mug');
    await expect(page.locator(where).getByRole('option', { name: /Café au Lait Mug/ })).toBeVisible();
    await input.press('Escape');
  }
  await expect(page.locator('header').getByRole('listbox')).toBeHidden();
  const ids = await page.evaluate(() =>
    Array.from(document.querySelectorAll('[id]'), (element) => element.id),
  );
  expect(new Set(ids).size).toBe(ids.length);
});

test('focus leaving the box through its own controls closes the dropdown', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  await searchInput(page).fill('linen');
  await expect(page.getByRole('listbox')).toBeVisible();
  let passedSubmit = false;
  for (let step = 0; step < 10 && (await focusInHeaderBox(page)); step += 1) {
    await page.keyboard.press('Tab');
    passedSubmit ||= await page
      .locator('header .shop-search__submit')
      .evaluate((button) => button === document.activeElement);
  }
  expect(passedSubmit).toBe(true);
  expect(await focusInHeaderBox(page)).toBe(false);
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(searchInput(page)).toHaveAttribute('aria-expanded', 'false');
});

test("the details panel's Add to cart adds through the cart's ajax path and fires added_to_cart", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await routeSuggestionsOnly(page);
  await page.goto(`${shop().url}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await page.evaluate(() => {
    const events: string[] = [];
    (window as unknown as { cartEvents: string[] }).cartEvents = events;
    for (const name of ['adding_to_cart', 'added_to_cart']) {
      document.addEventListener(name, () => events.push(name));
    }
  });
  await searchInput(page).fill('mug');
  const panel = page.getByRole('region', { name: 'Product details' });
  await expect(panel.getByRole('heading', { name: 'Café au Lait Mug' })).toBeVisible();
  await panel.getByRole('button', { name: 'Add to cart' }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { cartEvents: string[] }).cartEvents))
    .toEqual(['adding_to_cart', 'added_to_cart']);
  // No page load: the header's cart fragment was replaced in place.
  expect(page.url()).toBe(`${shop().url}/`);
  await expect(page.locator('header .cart-contents__count')).toHaveText('1');
});

test('variation, vendor and post suggestions show their own fields', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openHome(page);
  await searchInput(page).fill('sage');
  const variation = page.getByRole('option', { name: /Washed Linen Shirt - Sage, S/ });
  await expect(variation).toContainText('$68.00');
  await expect(variation.locator('img')).toHaveCount(1);
  await searchInput(page).fill('tide');
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByText('Vendors', { exact: true })).toBeVisible();
  await expect(listbox.getByText('Posts', { exact: true })).toBeVisible();
  const vendor = page.getByRole('option', { name: /Tidewater Mill/ });
  await expect(vendor.locator('.shop-search__title mark')).toHaveText('Tide');
  await expect(vendor).toContainText('Whitby');
  await expect(vendor).toContainText('Linen woven on the Yorkshire coast.');
  const post = page.getByRole('option', { name: 'About Tidewater linen' });
  await expect(post.locator('mark')).toHaveText('Tide');
  await post.click();
  await expect(page).toHaveURL(/\/about\/$/);
});

test('Enter with a variation among the suggestions opens the first variation (goToFirstVariationOnSubmit)', async ({
  page,
}) => {
  await openHome(page);
  await searchInput(page).fill('sage');
  await expect(page.getByRole('option', { name: /Sage, S/ })).toBeVisible();
  await searchInput(page).press('Enter');
  await expect(page).toHaveURL(/\/product\/washed-linen-shirt\/\?attribute_color=Sage&attribute_size=S$/);
});

test('search analytics stay off unless analytics.enabled', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { dataLayer: unknown[] }).dataLayer = [];
  });
  await openHome(page);
  await searchInput(page).fill('linen');
  await expect(page.getByRole('option').first()).toBeVisible();
  await searchInput(page).fill('zzzz');
  await expect(page.locator('.shop-search__no-results')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { dataLayer: unknown[] }).dataLayer)).toEqual([]);
});

test.describe('the details panel beside a narrow form', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('sits beside the dropdown, and matches its height once it is taller than 340 px', async ({ page }) => {
    await openHome(page);
    const form = await page.locator('header form.shop-search__form').boundingBox();
    // The header's form is narrower than the 550 px breakpoint: side mode.
    expect(form?.width ?? 0).toBeLessThan(550);
    await searchInput(page).fill('linen');
    const panel = page.getByRole('region', { name: 'Product details' });
    await expect(panel).toContainText('Linen and cotton shirts.');
    await expect(page.locator('header .shop-search')).toHaveClass(/has-details--side/);
    const dropdown = page.locator('header .shop-search__dropdown');
    const side = await panel.boundingBox();
    const list = await dropdown.boundingBox();
    // Left of the dropdown (the box is at the header's right end), not over it.
    expect((side?.x ?? 0) + (side?.width ?? 0)).toBeLessThanOrEqual((list?.x ?? 0) + 1);
    expect(list?.height ?? 0).toBeGreaterThan(340);
    await expect.poll(async () => (await panel.boundingBox())?.height).toBeCloseTo(list?.height ?? 0, 0);

    // A short list (under 340 px): the panel keeps its own height.
    await searchInput(page).fill('mug');
    await expect(page.getByRole('option', { name: /Café au Lait Mug/ })).toBeVisible();
    const shortList = await dropdown.boundingBox();
    expect(shortList?.height ?? 0).toBeLessThan(340);
    // Its content is shorter than the list, and nothing stretches it to the list's height.
    await page.waitForTimeout(100);
    expect((await panel.boundingBox())?.height ?? 0).toBeLessThan((shortList?.height ?? 0) - 20);
  });

  test('the 550 px breakpoint: a 540 px form keeps the side panel, a 560 px one shares its width', async ({
    page,
  }) => {
    await openHome(page);
    for (const [width, mode] of [
      [540, 'side'],
      [560, 'full'],
    ] as const) {
      await page.evaluate((formWidth) => {
        document.querySelector('.sized-box')?.remove();
        const container = document.createElement('div');
        container.className = 'sized-box';
        container.style.width = `${formWidth}px`;
        container.style.marginLeft = '400px';
        container.dataset.island = 'searchBox';
        container.dataset.props = '{}';
        document.querySelector('main')?.prepend(container);
      }, width);
      const input = page.locator('.sized-box').getByRole('combobox');
      await input.fill('linen');
      await expect(page.locator('.sized-box').getByRole('region', { name: 'Product details' })).toBeVisible();
      const formWidth = await page
        .locator('.sized-box form')
        .evaluate((form) => form.getBoundingClientRect().width);
      expect(Math.abs(formWidth - width)).toBeLessThan(2);
      await expect(page.locator('.sized-box .shop-search')).toHaveClass(new RegExp(`has-details--${mode}`));
    }
  });

  test('is not shown in the history view, nor with no results', async ({ page }) => {
    await openHome(page);
    await searchInput(page).fill('linen');
    await page.getByRole('option', { name: /Washed Linen Shirt/ }).click();
    await expect(page).toHaveURL(/washed-linen-shirt/);
    await page.goto(`${shop().url}/`);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await searchInput(page).focus();
    await expect(page.getByText('Your recent searches')).toBeVisible();
    await expect(page.getByRole('option', { name: /Washed Linen Shirt/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Product details' })).toHaveCount(0);
    await searchInput(page).fill('zzzz');
    await expect(page.locator('.shop-search__no-results')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Product details' })).toHaveCount(0);
    // The same box does show it for results.
    await searchInput(page).fill('linen');
    await expect(page.getByRole('region', { name: 'Product details' })).toBeVisible();
  });
});

test.describe('on a wide touch screen', () => {
  test.use({ viewport: { width: 1280, height: 900 }, hasTouch: true, isMobile: true });

  test('the details panel is not shown', async ({ page }) => {
    await openHome(page);
    expect(await page.evaluate(() => matchMedia('(hover: none) and (pointer: coarse)').matches)).toBe(true);
    await searchInput(page).fill('linen');
    await expect(page.getByRole('option', { name: /Washed Linen Shirt/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Product details' })).toHaveCount(0);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true });

  test('the box opens a full-screen overlay dialog, closed by Escape and by its back button', async ({
    page,
  }) => {
    await openHome(page);
    await revealHeaderSearch(page);
    await searchInput(page).click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await expect(dialog).toBeVisible();
    await expect(searchInput(page)).toBeFocused();
    await page.keyboard.type('linen');
    await expect(dialog.getByRole('listbox')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Product details' })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await revealHeaderSearch(page);
    await searchInput(page).click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close search' }).click();
    await expect(dialog).toBeHidden();
  });

  test('Escape closes the overlay from its Close button and from the dropdown, not only from the input', async ({
    page,
  }) => {
    await openHome(page);
    const dialog = page.getByRole('dialog', { name: 'Search' });
    for (const focusTarget of ['close', 'dropdown'] as const) {
      await revealHeaderSearch(page);
      await searchInput(page).click();
      await expect(dialog).toBeVisible();
      await searchInput(page).fill('linen');
      await expect(dialog.getByRole('listbox')).toBeVisible();
      if (focusTarget === 'close') await dialog.getByRole('button', { name: 'Close search' }).focus();
      else await dialog.locator('.shop-search__dropdown').focus();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('listbox')).toBeHidden();
      // The box itself left overlay mode (the theme's own panel closing on Escape would hide it too).
      await expect(page.locator('header .shop-search')).not.toHaveClass(/is-overlay/);
    }
  });
});

test.describe('on an iPad (iPadOS reports a Mac with a touch screen)', () => {
  test.use({
    viewport: { width: 820, height: 1180 },
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  });

  test('the keyboard closing (a blur) keeps the overlay results open, as on iOS', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => 5 });
    });
    await openHome(page);
    await revealHeaderSearch(page);
    await searchInput(page).click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await expect(dialog).toBeVisible();
    await searchInput(page).fill('linen');
    await expect(dialog.getByRole('listbox')).toBeVisible();
    // The keyboard's Done button blurs the input without moving focus anywhere.
    await searchInput(page).evaluate((input) => input.blur());
    // Longer than the 150 ms hide delay a blur would wait.
    await page.waitForTimeout(400);
    await expect(dialog.getByRole('listbox')).toBeVisible();
  });
});

test.describe('icon layout, right to left, darkened overlay, dynamic prices and voice search', () => {
  const iconShop = shopPerSpecFile({
    search: {
      layout: 'icon',
      rtl: true,
      darkenedOverlay: true,
      dynamicPrices: true,
      voiceSearch: { enabled: true, lang: 'en-GB' },
    },
  });

  test('the icon expands into a box that searches, prices update, the overlay and voice work', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    // A fake Web Speech API: hears "mug" once started.
    await page.addInitScript(() => {
      class FakeRecognition {
        lang = '';
        continuous = false;
        interimResults = false;
        onstart: (() => void) | null = null;
        onend: (() => void) | null = null;
        onresult: ((event: unknown) => void) | null = null;
        start() {
          (window as unknown as { heardLang: string }).heardLang = this.lang;
          this.onstart?.();
          setTimeout(() => {
            this.onresult?.({ resultIndex: 0, results: [{ isFinal: true, 0: { transcript: 'mug' } }] });
            this.onend?.();
          }, 50);
        }
        abort() {}
      }
      // Chromium has the real, unprefixed API (which refuses a headless microphone); both names get the fake.
      Object.assign(window, { SpeechRecognition: FakeRecognition, webkitSpeechRecognition: FakeRecognition });
    });
    const traffic = await routeSearch(page);
    await page.goto(`${iconShop().url}/`);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await expect(page.locator('.shop-search')).toHaveAttribute('dir', 'rtl');
    // The icon comes before the form's own submit button, also named Search.
    const icon = page.getByRole('button', { name: 'Search', exact: true }).first();
    await expect(icon).toHaveAttribute('aria-expanded', 'false');
    await expect(searchInput(page)).toBeHidden();
    await icon.click();
    await expect(icon).toHaveAttribute('aria-expanded', 'true');
    await expect(searchInput(page)).toBeFocused();

    await page.keyboard.type('linen');
    const shirt = page.getByRole('option', { name: /Washed Linen Shirt/ });
    await expect(shirt).toContainText('$61.20');
    expect(traffic.prices).toEqual([[1001, 1025, 1011]]);
    await expect(page.locator('.shop-search__darken')).toHaveCount(4);
    await page.locator('.shop-search__darken--bottom').click({ position: { x: 10, y: 300 } });
    await expect(page.getByRole('listbox')).toBeHidden();
    await expect(page.locator('.shop-search__darken')).toHaveCount(0);

    await page.getByRole('button', { name: 'Voice search' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { heardLang?: string }).heardLang))
      .toBe('en-GB');
    await expect(searchInput(page)).toHaveValue('mug');
    await expect(page.getByRole('option', { name: /Café au Lait Mug/ })).toBeVisible();
    await searchInput(page).press('Escape');
    await expect(icon).toHaveAttribute('aria-expanded', 'false');
  });

  async function openIconBox(page: Page) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await routeSearch(page);
    await page.goto(`${iconShop().url}/`);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    const icon = page.getByRole('button', { name: 'Search', exact: true }).first();
    await icon.click();
    await expect(searchInput(page)).toBeFocused();
    return icon;
  }

  test('Escape from the submit button folds the icon layout and gives focus back to the icon', async ({
    page,
  }) => {
    const icon = await openIconBox(page);
    await page.locator('.shop-search__submit').focus();
    await page.keyboard.press('Escape');
    await expect(icon).toHaveAttribute('aria-expanded', 'false');
    await expect(searchInput(page)).toBeHidden();
    await expect(icon).toBeFocused();
  });

  test('focus leaving the box through its controls closes the dropdown and the darkened overlay', async ({
    page,
  }) => {
    await openIconBox(page);
    await page.keyboard.type('linen');
    await expect(page.getByRole('listbox')).toBeVisible();
    await expect(page.locator('.shop-search__darken')).toHaveCount(4);
    for (let step = 0; step < 10 && (await focusInHeaderBox(page)); step += 1) {
      await page.keyboard.press('Tab');
    }
    expect(await focusInHeaderBox(page)).toBe(false);
    await expect(page.getByRole('listbox')).toBeHidden();
    await expect(page.locator('.shop-search__darken')).toHaveCount(0);
  });

  test('the darkened overlay: 0.6 opacity, in over 200 ms, out over 400 ms, and on the form within 10 ms of a layout shift', async ({
    page,
  }) => {
    await page.clock.install();
    await openIconBox(page);
    await page.keyboard.type('linen');
    const top = page.locator('.shop-search__darken--top');
    await expect(page.locator('.shop-search__darken')).toHaveCount(4);
    const look = await top.evaluate((panel) => {
      const style = getComputedStyle(panel);
      return {
        fadeIn: style.animationName !== 'none' ? style.animationDuration : 'none',
        fadeOut: style.transitionDuration,
      };
    });
    expect(look).toEqual({ fadeIn: '0.2s', fadeOut: '0.4s' });
    await expect.poll(() => top.evaluate((panel) => getComputedStyle(panel).opacity)).toBe('0.6');

    // From here on time only moves when the test says so.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    const formTop = () =>
      page.locator('header form.shop-search__form').evaluate((form) => form.getBoundingClientRect().top);
    const panelHeight = () => top.evaluate((panel) => panel.getBoundingClientRect().height);
    const before = await formTop();
    expect(await panelHeight()).toBeCloseTo(before, 0);
    // A banner appears above the header: the form moves down without any resize or scroll event.
    await page.evaluate(() => {
      const banner = document.createElement('div');
      banner.style.height = '120px';
      document.body.prepend(banner);
    });
    expect(await formTop()).toBeCloseTo(before + 120, 0);
    await page.clock.runFor(10);
    await expect.poll(panelHeight).toBeCloseTo(before + 120, 0);

    await page.locator('.shop-search__darken--bottom').click({ position: { x: 10, y: 300 } });
    await expect(page.getByRole('listbox')).toBeHidden();
    await expect(page.locator('.shop-search__darken.is-closing')).toHaveCount(4);
    await expect.poll(() => top.evaluate((panel) => getComputedStyle(panel).opacity)).not.toBe('0.6');
    await page.clock.runFor(399);
    await expect(page.locator('.shop-search__darken')).toHaveCount(4);
    await page.clock.runFor(2);
    await expect(page.locator('.shop-search__darken')).toHaveCount(0);
  });
});
