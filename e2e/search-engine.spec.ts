import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

/*
 * The search box against the real engine and endpoints (search-box.spec.ts covers every UI state with fixture
 * answers): typing finds products, categories and typos; the details panel and the results page come from
 * the same index; hidden products never show.
 */

const shop = shopPerSpecFile({ search: { show: { detailsPanel: true } } });

test('typing in the header box suggests from the catalog, and Enter on a suggestion opens it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${shop().url}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const box = page.getByRole('combobox', { name: 'Search products' });

  await box.pressSequentially('hodie'); // a typo
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option', { name: /Lined Pullover Hoodie/ })).toBeVisible();
  await expect(listbox.getByRole('option', { name: /Zip-Up Hoodie/ })).toBeVisible();
  await expect(listbox).not.toContainText('Staff Hoodie'); // hidden from the catalog
  await expect(page.getByRole('region', { name: 'Product details' })).toContainText('$');
  await expectNoAxeViolations(page);

  // Down moves through the suggestions (headlines skipped); Enter opens the selected one.
  await box.press('ArrowDown');
  const selected = listbox.getByRole('option', { selected: true });
  await expect(selected).toHaveCount(1);
  const name = (await selected.textContent()) ?? '';
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Hoodie|Hoodies/);
  expect(name).toMatch(/Hoodie/);
});

test('submitting the box lists the index matches on the results page', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${shop().url}/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const box = page.getByRole('combobox', { name: 'Search products' });
  await box.fill('t-shirt');
  await expect(
    page
      .getByRole('listbox')
      .getByRole('option', { name: /T-Shirt/ })
      .first(),
  ).toBeVisible();
  await box.press('Enter'); // nothing selected: the form is submitted
  await expect(page).toHaveURL(/\?s=t-shirt&post_type=product/);
  await expect(page.locator('.product-card__title').first()).toContainText('T-Shirt');
});
