import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

/*
 * Did you mean as a shopper meets it, against the real engine: a misspelt query shows the corrected query's
 * results with "Showing results for X — search instead for Y" in the search box and on the results page, in a
 * polite live region; the "search instead" link is reached with the keyboard and searches the words as typed.
 */

const shop = shopPerSpecFile();

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** Presses Tab until `target` has focus (at most `limit` times): proves it is in the keyboard's tab order. */
async function tabTo(page: Page, target: Locator, limit = 60) {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('the search box shows the corrected query and a keyboard link to the words as typed', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${shop().url}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const box = page.getByRole('combobox', { name: 'Search products' });

  await box.pressSequentially('hodiee'); // two edits from "hoodie": found nothing as typed
  const notice = page.locator('.shop-search__did-you-mean');
  await expect(notice).toHaveAttribute('role', 'status');
  await expect(notice).toHaveAttribute('aria-live', 'polite');
  await expect(notice).toHaveText('Showing results for hoodie — search instead for hodiee');
  // The box's own status, always present, announces it with the count.
  await expect(page.locator('.shop-search .screen-reader-text[role="status"]')).toHaveText(
    /^Showing results for hoodie\. \d+ results available/,
  );
  await expect(
    page.getByRole('listbox').getByRole('option', { name: /Lined Pullover Hoodie/ }),
  ).toBeVisible();
  await expectNoAxeViolations(page);

  // The arrows move through the suggestions only; the link is reached with Tab, and Enter follows it.
  await box.press('ArrowDown');
  await expect(page.getByRole('listbox').getByRole('option', { selected: true })).toContainText('Hoodie');
  const instead = notice.getByRole('link', { name: 'hodiee' });
  await tabTo(page, instead, 10);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?s=hodiee&post_type=product&exact=1$/);
  await expect(page.getByText('No products were found matching your search.')).toBeVisible();
  await expect(page.locator('.search-did-you-mean')).toHaveCount(0);
});

test('the results page says which query it shows, at 390 px, without horizontal scroll', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${shop().url}/?s=lined+hodiee&post_type=product`);
  const notice = page.getByRole('status').filter({ hasText: 'Showing results for' });
  await expect(notice).toHaveText('Showing results for lined hoodie — search instead for lined hodiee');
  await expect(notice).toHaveAttribute('aria-live', 'polite');
  await expect(page.locator('.product-card__title').first()).toHaveText('Lined Pullover Hoodie');
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectNoAxeViolations(page);

  const instead = notice.getByRole('link', { name: 'lined hodiee' });
  await tabTo(page, instead);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?s=lined\+hodiee&post_type=product&exact=1$/);
  await expect(page.getByText('No products were found matching your search.')).toBeVisible();
});

test('the box at 390 px shows the notice in its overlay without horizontal scroll', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${shop().url}/shop/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).first().click();
  const box = page.getByRole('combobox', { name: 'Search products' });
  await expect(box).toBeVisible();
  await box.click();
  await box.pressSequentially('hodie');
  const notice = page.getByRole('status').filter({ hasText: 'Showing results for' }).first();
  await expect(notice).toHaveText('Showing results for hoodie — search instead for hodie');
  expect(await noHorizontalScroll(page)).toBe(true);
  await expectNoAxeViolations(page);
});
