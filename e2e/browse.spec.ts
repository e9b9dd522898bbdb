import { expect, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

const shop = shopPerSpecFile();

test('the home page shows the featured products of the demo catalog', async ({ page }) => {
  await page.goto(`${shop().url}/`);
  await expect(page.getByRole('heading', { level: 2, name: 'Featured products' })).toBeVisible();
  const featured = page.locator('.products .product-card');
  await expect(featured.first()).toBeVisible();
  expect(await featured.count()).toBeGreaterThanOrEqual(4);
  await expect(page.getByRole('link', { name: /Washed Linen Shirt/ }).first()).toBeVisible();
  // Only the catalog's islands hydrate; the settings object is on every page.
  const settings = JSON.parse((await page.locator('#shop-settings').textContent()) ?? '{}');
  expect(Object.keys(settings)).toEqual(
    expect.arrayContaining([
      'theme',
      'cart',
      'search',
      'swatches',
      'attribution',
      'stats',
      'consent',
      'rest',
      'i18n',
    ]),
  );
  expect(settings.server).toBeUndefined();
});

test('the shop page counts its results and pages through them', async ({ page }) => {
  await page.goto(`${shop().url}/shop/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
  const count = page.locator('.woocommerce-result-count');
  await expect(count).toHaveText(/^Showing 1–12 of \d+ results$/);
  const total = Number((await count.textContent())?.match(/of (\d+)/)?.[1]);
  // Shop visibility: visible and catalog products, not the hidden, search-only or draft ones.
  await expect(page.locator('.products .product-card')).toHaveCount(12);
  await page.getByRole('link', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/\/shop\/page\/2\/$/);
  await expect(count).toHaveText(`Showing 13–${Math.min(24, total)} of ${total} results`);
  await expect(page.locator('.products .product-card')).toHaveCount(Math.min(12, total - 12));
});

test('changing the ordering dropdown submits it and reorders the products', async ({ page }) => {
  await page.goto(`${shop().url}/shop/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await page.getByLabel('Shop order').selectOption('price');
  await expect(page).toHaveURL(/orderby=price/);
  await expect(page.getByLabel('Shop order')).toHaveValue('price');
  const prices = await page.locator('.products .product-card .price').evaluateAll((nodes) =>
    nodes.map((node) => {
      const amounts =
        (node.querySelector('ins')?.textContent ?? node.textContent ?? '').match(/[\d,.]+/g) ?? [];
      return Number(amounts[0]?.replace(/,/g, ''));
    }),
  );
  expect(prices.length).toBeGreaterThan(3);
  expect(prices).toEqual([...prices].sort((a, b) => a - b));

  await page.getByLabel('Shop order').selectOption('price-desc');
  await expect(page).toHaveURL(/orderby=price-desc/);
  const firstDesc = await page.locator('.products .product-card .product-card__title').first().textContent();
  expect(firstDesc).toBe('Washed Linen Duvet Set');
});

test('a category archive shows that category and its subcategories only', async ({ page }) => {
  await page.goto(`${shop().url}/`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Apparel' }).click();
  await expect(page).toHaveURL(/\/product-category\/apparel\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Apparel' })).toBeVisible();
  const names = await page.locator('.product-card__title').allTextContents();
  expect(names).toContain('Washed Linen Shirt');
  expect(names).toContain('Merino Rib Scarf');
  expect(names).not.toContain('Café au Lait Mug');
  await expect(page.locator('.woocommerce-result-count')).toHaveText(`Showing all ${names.length} results`);

  await page.goto(`${shop().url}/product-category/apparel/shirts/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Shirts' })).toBeVisible();
  expect(await page.locator('.product-card__title').allTextContents()).not.toContain('Merino Rib Scarf');
});

test('an unknown address shows a readable 404 page', async ({ page }) => {
  const response = await page.goto(`${shop().url}/product/no-such-thing/`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue shopping' })).toBeVisible();

  const other = await page.goto(`${shop().url}/definitely/not/here/`);
  expect(other?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('search results list the products matching the words', async ({ page }) => {
  await page.goto(`${shop().url}/`);
  // Typed once the search box is hydrated: this test is about the results page (typing before hydration is
  // another path).
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
  await page.getByRole('combobox', { name: 'Search products' }).fill('linen');
  await page.getByRole('combobox', { name: 'Search products' }).press('Enter');
  await expect(page).toHaveURL(/\?s=linen&post_type=product/);
  const names = await page.locator('.product-card__title').allTextContents();
  expect(names).toEqual(
    expect.arrayContaining(['Washed Linen Shirt', 'Linen Tea Towel', 'Washed Linen Duvet Set']),
  );
  expect(names).not.toContain('Café au Lait Mug');
  await expect(page.locator('.woocommerce-result-count')).toHaveText(`Showing all ${names.length} results`);
});
