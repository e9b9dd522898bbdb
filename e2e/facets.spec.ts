import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

/*
 * The filters on listings, as a shopper meets them: the plain form without JavaScript, the in-place update with it
 * (address, back button, focus, the announced count), keyboard only, axe-clean and without sideways scrolling on a
 * 390 px phone.
 */

const shop = shopPerSpecFile();
const PHONE = { width: 390, height: 844 };

/** The count a value's label shows, e.g. 4 for "Gifts (4)". */
async function labelCount(page: Page, id: string): Promise<number> {
  const text = await page.locator(`label[for="${id}"] [aria-hidden="true"]`).textContent();
  return Number(text?.replace(/[()]/g, ''));
}

const productCards = (page: Page) => page.locator('#archive-results .product-card');

test('without JavaScript the filter form works and lands on the canonical address', async ({ browser }) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 900 },
  });
  const page = await context.newPage();
  await page.goto(`${shop().url}/product-category/apparel/`);
  const hoodies = await labelCount(page, 'facet-product_cat-hoodies');
  expect(hoodies).toBeGreaterThan(0);

  await page.getByRole('checkbox', { name: /^Hoodies/ }).check();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/\/product-category\/apparel\/\?filter_product_cat=hoodies$/);
  await expect(page.getByRole('checkbox', { name: /^Hoodies/ })).toBeChecked();
  await expect(productCards(page)).toHaveCount(hoodies);

  // A price range: the form sends the range, the address says it in WooCommerce's words.
  const range = page.locator('input[name="price_range"]:not([value=""])').first();
  const rangeId = (await range.getAttribute('id')) ?? '';
  const inRange = await labelCount(page, rangeId);
  await range.check();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/filter_product_cat=hoodies&min_price=\d+(\.\d+)?&max_price=\d+(\.\d+)?$/);
  await expect(productCards(page)).toHaveCount(inRange);

  await page.getByRole('link', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/product-category\/apparel\/$/);
  await context.close();
});

test('with JavaScript a choice updates counts and results in place, and the back button steps back', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${shop().url}/?s=&post_type=product`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  // Marks this document: a full reload would lose it.
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  const sameDocument = () =>
    page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
  const allProducts = await page.locator('#archive-results').getAttribute('data-total');

  // Keyboard only: focus the checkbox, Space to choose.
  const gifts = page.getByRole('checkbox', { name: /^Gifts/ });
  const giftsCount = await labelCount(page, 'facet-product_cat-gifts');
  await gifts.focus();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/\?s=&post_type=product&filter_product_cat=gifts$/);
  await expect(page.locator('#archive-results')).toHaveAttribute('data-total', String(giftsCount));
  await expect(productCards(page)).toHaveCount(giftsCount);
  await expect(page.locator('[data-facet-status]')).toHaveText(`${giftsCount} products found`);
  await expect(page.getByRole('checkbox', { name: /^Gifts/ })).toBeFocused();
  expect(await sameDocument()).toBe(true);

  // A second facet narrows further; the first facet's counts now follow the second choice.
  const inStock = page.getByRole('checkbox', { name: /^In stock/ });
  const inStockCount = await labelCount(page, 'facet-stock_status-instock');
  await inStock.focus();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/filter_product_cat=gifts&filter_stock_status=instock$/);
  await expect(page.locator('#archive-results')).toHaveAttribute('data-total', String(inStockCount));
  expect(await sameDocument()).toBe(true);

  // Back: the previous choice, its counts and results, without a reload.
  await page.goBack();
  await expect(page).toHaveURL(/\?s=&post_type=product&filter_product_cat=gifts$/);
  await expect(page.getByRole('checkbox', { name: /^In stock/ })).not.toBeChecked();
  await expect(page.locator('#archive-results')).toHaveAttribute('data-total', String(giftsCount));
  await page.goBack();
  await expect(page).toHaveURL(/\?s=&post_type=product$/);
  await expect(page.getByRole('checkbox', { name: /^Gifts/ })).not.toBeChecked();
  await expect(page.locator('#archive-results')).toHaveAttribute('data-total', String(allProducts));
  expect(await sameDocument()).toBe(true);

  // The address is shareable: opened afresh it shows the same choice.
  await page.goto(`${shop().url}/?s=&post_type=product&filter_product_cat=gifts`);
  await expect(page.getByRole('checkbox', { name: /^Gifts/ })).toBeChecked();
  await expect(productCards(page)).toHaveCount(giftsCount);
});

test('the filters are axe-clean, and on a 390 px phone start closed, open by keyboard and never scroll sideways', async ({
  page,
}) => {
  // Two axe audits and a keyboard walk: long on a busy machine, not waiting on anything.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${shop().url}/?s=&post_type=product&filter_product_cat=apparel`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await expectNoAxeViolations(page, { what: 'search results with filters' });

  await page.setViewportSize(PHONE);
  await page.goto(`${shop().url}/product-category/apparel/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const panel = page.locator('[data-facet-panel]');
  await expect(panel).not.toHaveAttribute('open');
  const noSidewaysScroll = () =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  expect(await noSidewaysScroll()).toBe(true);

  const summary = page.locator('[data-facet-panel] summary');
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('open');
  expect(await noSidewaysScroll()).toBe(true);
  await expectNoAxeViolations(page, { what: 'category page with filters open, phone' });

  // Tab reaches the first checkbox; Space chooses it and the page updates in place.
  await page.keyboard.press('Tab');
  const first = page.locator('form.facet-filters input[type="checkbox"]').first();
  await expect(first).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page).toHaveURL(/filter_product_cat=/);
  await expect(page.locator('[data-facet-status]')).toHaveText(/products? found/);
  expect(await noSidewaysScroll()).toBe(true);
});
