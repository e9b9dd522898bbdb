import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

/*
 * The owner's products in Chromium: an edit of price and stock seen on the product page and in the search box's
 * suggestions, a draft hidden from shoppers, a CSV upload with its progress bar then its summary, the export
 * imported again, and every page usable by keyboard alone, axe-clean and without sideways scrolling on a phone.
 */

const PASSWORD = 'e2e products password';
const shop = shopPerSpecFile({ server: { ownerPasswordHash: hashOwnerPassword(PASSWORD) } });

async function logIn(page: Page) {
  await page.goto(`${shop().url}/admin/login?next=/admin/products/`);
  await page.getByLabel('Password or token').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
}

const searchInput = (page: Page) => page.getByRole('combobox', { name: 'Search products' });

/** What the search box suggests for a query typed by a shopper. */
async function suggestionTexts(page: Page, query: string): Promise<string> {
  await page.goto(`${shop().url}/shop/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await searchInput(page).fill(query);
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(listbox).toBeVisible();
  return (await listbox.textContent()) ?? '';
}

async function openProduct(page: Page, search: string, name: string) {
  await page.goto(`${shop().url}/admin/products/?q=${encodeURIComponent(search)}`);
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
}

test('a price and stock edit shows on the product page and in the search suggestions at once', async ({
  page,
  browser,
}) => {
  await logIn(page);
  await openProduct(page, 'walnut', 'One-off Walnut Serving Board');
  await page.getByLabel('Name', { exact: true }).fill('Oiled Walnut Serving Board');
  await page.getByLabel('Regular price').fill('61.50');
  await page.getByLabel('Manage stock (count what is left)').check();
  await page.getByLabel('Stock quantity').fill('7');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const shopper = await browser.newContext();
  const shopperPage = await shopper.newPage();
  await shopperPage.goto(`${shop().url}/product/one-off-walnut-serving-board/`);
  await expect(shopperPage.getByRole('heading', { level: 1 })).toHaveText('Oiled Walnut Serving Board');
  await expect(shopperPage.locator('.product__price')).toContainText('$61.50');
  await expect(shopperPage.getByText('7 in stock')).toBeVisible();
  const suggested = await suggestionTexts(shopperPage, 'walnut');
  expect(suggested).toContain('Oiled Walnut Serving Board');
  expect(suggested).toContain('$61.50');
  await shopper.close();
});

test('a draft disappears from search and its page is not found', async ({ page, browser }) => {
  await logIn(page);
  await openProduct(page, 'scarf', 'Merino Rib Scarf');
  await page.getByLabel('Status', { exact: true }).selectOption('draft');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();

  const shopper = await browser.newContext();
  const shopperPage = await shopper.newPage();
  const response = await shopperPage.goto(`${shop().url}/product/merino-rib-scarf/`);
  expect(response?.status()).toBe(404);
  await shopperPage.goto(`${shop().url}/shop/`);
  await expect(shopperPage.locator('html[data-hydrated="true"]')).toBeAttached();
  await searchInput(shopperPage).fill('merino');
  // The answer for "merino" arrives (the listbox or its "no results"), and the scarf is not in it.
  await expect(shopperPage.locator('[role="status"]').filter({ hasText: /result|suggestion/i })).toHaveCount(
    1,
    {
      timeout: 10_000,
    },
  );
  await expect(shopperPage.getByRole('option', { name: /Merino Rib Scarf/ })).toHaveCount(0);
  await shopper.close();
});

test('a CSV upload shows a progress bar, then the summary with the skipped rows and why', async ({
  page,
}) => {
  await logIn(page);
  await page.goto(`${shop().url}/admin/products/import`);
  const rows = ['ID,Type,SKU,Name,Published,Regular price,Stock'];
  for (let n = 1; n <= 120; n++) rows.push(`,simple,E2E-LAMP-${n},Paper Lamp ${n},1,${20 + n},5`);
  rows.push(',simple,E2E-BAD,Bad Lamp,1,cheap,');
  await page.getByLabel(/CSV file/).setInputFiles({
    name: 'lamps.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(rows.join('\n')),
  });
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: 'Import of lamps.csv' })).toBeVisible();
  await expect(page.getByRole('progressbar')).toBeVisible();
  // The page reloads itself (no script needed) until the import is over.
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByText('120 created')).toBeVisible();
  await expect(page.getByText('1 skipped')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Skipped rows' })).toContainText(
    'Regular price: "cheap" is not a price',
  );
  await page.goto(`${shop().url}/admin/products/?q=paper+lamp`);
  await expect(page.getByText('120 products, page 1 of 3.')).toBeVisible();
});

test('the export downloads in WooCommerce’s format and imports again without a change', async ({ page }) => {
  await logIn(page);
  await page.goto(`${shop().url}/admin/products/`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d\d-\d\d\.csv$/);
  const csv = readFileSync((await download.path()) as string, 'utf8');
  expect(csv.split('\n')[0]).toContain('ID,Type,SKU,Name,Published');
  const products = csv.split('\r\n').length - 2;

  await page.goto(`${shop().url}/admin/products/import`);
  await page
    .getByLabel(/CSV file/)
    .setInputFiles({ name: 'export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('0 created')).toBeVisible();
  await expect(page.getByText('0 skipped')).toBeVisible();
  // Every row (variations included) matched the product it came from, as it is: nothing to write.
  await expect(page.getByText(`${products} unchanged`, { exact: true })).toBeVisible();
  await expect(page.getByText('0 updated', { exact: true })).toBeVisible();
});

test('by keyboard alone on a phone: find a product, change it, see the error in words; no axe violation, no sideways scroll', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page);
  const pages = [
    '/admin/products/',
    '/admin/products/new',
    '/admin/products/1001/',
    '/admin/products/import',
  ];
  for (const path of pages) {
    await page.goto(`${shop().url}${path}`);
    await expectNoAxeViolations(page, { soft: true, what: path });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect.soft(overflow, `sideways scroll on ${path}`).toBeLessThanOrEqual(0);
  }

  await page.goto(`${shop().url}/admin/products/`);
  // The page's own skip link, then the search field, by Tab alone.
  const focusOn = async (matches: () => Promise<boolean>, what: string) => {
    for (let presses = 0; presses < 60; presses++) {
      if (await matches()) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${what}`);
  };
  const focusedIs = (selector: string) => () =>
    page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector);
  await focusOn(focusedIs('a[href="#admin-main"]'), 'the skip link');
  await page.keyboard.press('Enter');
  await focusOn(focusedIs('input[name="q"]'), 'the search field');
  await page.keyboard.type('candle');
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^\d+ products?\./)).toBeVisible();
  await focusOn(focusedIs('a[href="/admin/products/1026/"]'), 'the candle');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Crème Fig Soy Candle');
  await focusOn(focusedIs('input[name="sale_price"]'), 'the sale price');
  await page.keyboard.type('999');
  await focusOn(focusedIs('button[type="submit"]:not(.shop-search__submit)'), 'the save button');
  await page.keyboard.press('Enter');
  await expect(page.getByText('The sale price must be below the regular price.')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Nothing was saved');
  await expect(page.getByLabel('Sale price', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Sale price', { exact: true })).toHaveAccessibleDescription(
    'The sale price must be below the regular price. Empty: no sale.',
  );
  await expectNoAxeViolations(page, { what: 'the edit form with an error' });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // The job page, at phone width too.
  await page.goto(`${shop().url}/admin/products/import`);
  await page.getByLabel(/CSV file/).setInputFiles({
    name: 'one.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('ID,Type,SKU,Name,Regular price\n,simple,E2E-ONE,One Lamp,10\n,simple,,,x'),
  });
  await page.getByRole('button', { name: 'Import' }).click();
  await expect(page.getByRole('heading', { name: 'Summary' })).toBeVisible({ timeout: 20_000 });
  await expectNoAxeViolations(page, { what: 'the import summary' });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
});
