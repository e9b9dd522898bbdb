import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

// The swatch options on, through SHOP_CONFIG; e2e/swatches.spec.ts covers them off.
const shop = shopPerSpecFile({
  swatches: {
    clearOnReselect: true,
    deselectUnavailable: true,
    clickableOutOfStock: true,
    stockLeftThreshold: 5,
    showOnArchive: true,
  },
});

const HOODIE = '/product/brushed-cotton-hoodie/';
const SNEAKER = '/product/canvas-sneaker/';
const swatch = (page: Page, group: string, name: string) =>
  page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true });
const hiddenSelect = (page: Page, field: string) => page.locator(`select[name="attribute_${field}"]`);

test('clear-on-reselect: choosing the selected swatch again clears it', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}`);
  await swatch(page, 'Color', 'Red').click();
  await expect(hiddenSelect(page, 'color')).toHaveValue('red');
  await swatch(page, 'Color', 'Red').click();
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-checked', 'false');
  await expect(hiddenSelect(page, 'color')).toHaveValue('');
  // Space on the focused, selected swatch clears it too.
  await swatch(page, 'Color', 'Green').click();
  await page.keyboard.press('Space');
  await expect(hiddenSelect(page, 'color')).toHaveValue('');
});

test('deselect-unavailable: choosing an unavailable value clears the choice in its way', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}`);
  await swatch(page, 'Color', 'Red').click();
  const yes = swatch(page, 'Logo', 'Yes');
  // Greyed out and described, yet operable, since choosing it clears Color.
  await expect(yes).toHaveClass(/swatch--disabled/);
  await expect(yes).toHaveAttribute('aria-disabled', 'false');
  await expect(yes).toHaveAccessibleDescription('Not available with Color: Red');
  await yes.click();
  await expect(yes).toHaveAttribute('aria-checked', 'true');
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-checked', 'false');
  await expect(hiddenSelect(page, 'logo')).toHaveValue('yes');
  await expect(hiddenSelect(page, 'color')).toHaveValue('');
  await expect(page).toHaveURL(/\?attribute_logo=yes$/);
});

test('a sold-out value stays clickable in the no-stock state, and low stock is labelled', async ({
  page,
}) => {
  await page.goto(`${shop().url}${SNEAKER}?attribute_color=olive`);
  const soldOut = swatch(page, 'Shoe size', '44');
  await expect(soldOut).toHaveClass(/swatch--no-stock/);
  await expect(soldOut).toHaveAttribute('aria-disabled', 'false');
  await expect(soldOut).toHaveAccessibleDescription('Out of stock with Color: Olive');
  await soldOut.click();
  await expect(hiddenSelect(page, 'shoe-size')).toHaveValue('44');
  await expect(page.locator('.woocommerce-variation-availability')).toHaveText('Out of stock');
  await expect(page.getByRole('button', { name: /Add to cart/ })).toHaveAttribute('aria-disabled', 'true');

  await page.goto(`${shop().url}${HOODIE}?attribute_color=red&attribute_logo=no`);
  await expect(page.locator('.single_variation .stock')).toHaveText('Only 3 left in stock');
});

test('archive cards show swatches that change the card image, price and link', async ({ page }) => {
  await page.goto(`${shop().url}/product-category/apparel/knitwear/`);
  const card = page.locator('.product-card', { hasText: 'Brushed Cotton Hoodie' });
  const image = card.locator('.product-card__link img');
  const before = await image.getAttribute('src');
  await expect(card.locator(':scope > .price')).toHaveText('$45.00 – $50.00');

  const group = page.getByRole('radiogroup', { name: 'Color: Brushed Cotton Hoodie' });
  await group.getByRole('radio', { name: 'Red', exact: true }).click();
  await expect(card.locator(':scope > .price')).toHaveText('$45.00');
  await expect(image).not.toHaveAttribute('src', before ?? '');
  await expect(card.locator('.product-card__link')).toHaveAttribute('href', /\?attribute_color=red$/);

  // The card link now opens the product with Red chosen.
  await card.locator('.product-card__link').click();
  await expect(page.getByRole('radio', { name: 'Red', exact: true })).toHaveAttribute('aria-checked', 'true');
});

test('greyed-out but operable swatches and card swatches pass axe-core', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}?attribute_color=red`);
  await expect(swatch(page, 'Logo', 'Yes')).toHaveClass(/swatch--disabled/);
  const product = await new AxeBuilder({ page }).analyze();
  expect(product.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);

  await page.goto(`${shop().url}/product-category/apparel/`);
  await expect(page.getByRole('radiogroup', { name: 'Color: Brushed Cotton Hoodie' })).toBeVisible();
  // Only the swatches: the archive's own heading order (h1 → h3 cards) is the catalog's, reported separately.
  const archive = await new AxeBuilder({ page }).include('.card-swatches').analyze();
  expect(archive.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});

test('the availability line of a sold-out pick neither scrolls the page nor takes the focus from the swatch', async ({
  page,
}) => {
  await page.goto(`${shop().url}${SNEAKER}?attribute_color=olive`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const soldOut = swatch(page, 'Shoe size', '44');
  await soldOut.focus();
  const scrolledBefore = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('Space');
  await expect(page.locator('.woocommerce-variation-availability')).toHaveText('Out of stock');
  // Past the 500 ms after which error and message notices take the focus.
  await page.waitForTimeout(1200);
  await expect(soldOut).toBeFocused();
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolledBefore);
});
