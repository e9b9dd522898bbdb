import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

// Default swatch settings: no clear-on-reselect, no deselect-unavailable, sold-out values not clickable.
const shop = shopPerSpecFile();

const HOODIE = '/product/brushed-cotton-hoodie/'; // Color × Logo: only Red/No, Green/No, Blue/No, Blue/Yes
const SNEAKER = '/product/canvas-sneaker/'; // 37 variations (lazy); Clay stops at 42; Olive 44 sold out

const swatch = (page: Page, group: string, name: string) =>
  page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true });
const hiddenSelect = (page: Page, field: string) => page.locator(`select[name="attribute_${field}"]`);

async function focusedRadioName(page: Page) {
  return page.evaluate(() =>
    document.activeElement?.getAttribute('role') === 'radio' ? document.activeElement.textContent : null,
  );
}

test('a variation is chosen and bought with the keyboard alone', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}`);
  await expect(page.getByRole('radiogroup', { name: 'Color' })).toBeVisible();
  // The swatches' keys are the island's: tabbing before it committed once landed on the Logo group (CI, busy machine).
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();

  // Tab into the Color group: one tab stop, on its first swatch.
  for (let presses = 0; presses < 60 && (await focusedRadioName(page)) === null; presses++)
    await page.keyboard.press('Tab');
  expect(await focusedRadioName(page)).toBe('Red');
  await page.keyboard.press('Space');
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-checked', 'true');
  await expect(hiddenSelect(page, 'color')).toHaveValue('red');

  // Arrow keys move within the group and select, as a radio group does.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(swatch(page, 'Color', 'Blue')).toBeFocused();
  await expect(swatch(page, 'Color', 'Blue')).toHaveAttribute('aria-checked', 'true');
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-checked', 'false');
  await expect(hiddenSelect(page, 'color')).toHaveValue('blue');

  // Tab leaves the group for the Logo group; Enter activates too.
  await page.keyboard.press('Tab');
  await expect(swatch(page, 'Logo', 'Yes')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(swatch(page, 'Logo', 'Yes')).toHaveAttribute('aria-checked', 'true');
  await expect(hiddenSelect(page, 'logo')).toHaveValue('yes');
  await expect(page.locator('.single_variation .price')).toHaveText('$50.00');
  await expect(page).toHaveURL(/\?attribute_color=blue&attribute_logo=yes$/);

  // Logo Yes exists in Blue only: Red and Green are disabled, and say why.
  for (const color of ['Red', 'Green']) {
    await expect(swatch(page, 'Color', color)).toHaveAttribute('aria-disabled', 'true');
    await expect(swatch(page, 'Color', color)).toHaveAccessibleDescription('Not available with Logo: Yes');
  }
  await expect(swatch(page, 'Color', 'Blue')).toHaveAttribute('aria-disabled', 'false');

  const addToCart = page.getByRole('button', { name: /Add to cart/ });
  for (let presses = 0; presses < 10; presses++) {
    if (await addToCart.evaluate((button) => button === document.activeElement)) break;
    await page.keyboard.press('Tab');
  }
  await expect(addToCart).toBeFocused();
  await page.keyboard.press('Enter');
  // Added without a page load: the drawer opens, and its "View cart" goes to the cart page.
  await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
  await expect(page).toHaveURL(/\/cart\/$/);
  await expect(page.locator('.cart_item')).toContainText('Blue');
  await expect(page.locator('.cart_item')).toContainText('Yes');
  await expect(page.locator('.cart_item')).toContainText('$50.00');
});

test('a shared address preselects the variation, and Clear resets it', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}?attribute_color=red&attribute_logo=no`);
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-checked', 'true');
  await expect(swatch(page, 'Logo', 'No')).toHaveAttribute('aria-checked', 'true');
  await expect(hiddenSelect(page, 'color')).toHaveValue('red');
  await expect(page.locator('.single_variation .stock')).toHaveText('3 in stock');
  await expect(page.getByLabel('Quantity')).toHaveAttribute('max', '3');
  await expect(swatch(page, 'Logo', 'Yes')).toHaveAttribute('aria-disabled', 'true');

  await page.getByRole('link', { name: 'Clear' }).click();
  await expect(page.getByRole('radio', { checked: true })).toHaveCount(0);
  await expect(hiddenSelect(page, 'color')).toHaveValue('');
  await expect(hiddenSelect(page, 'logo')).toHaveValue('');
  await expect(page).toHaveURL(new RegExp(`${HOODIE}$`));
  await expect(page.getByRole('link', { name: 'Clear' })).toHaveCount(0);
});

test('a selected swatch stays selected, and a disabled one does nothing, with the options off', async ({
  page,
}) => {
  await page.goto(`${shop().url}${HOODIE}`);
  await swatch(page, 'Color', 'Red').click();
  await swatch(page, 'Color', 'Red').click();
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-checked', 'true');
  await expect(hiddenSelect(page, 'color')).toHaveValue('red');

  // Forced past Playwright's own aria-disabled check: the page itself must ignore the click.
  await swatch(page, 'Logo', 'Yes').click({ force: true });
  await expect(swatch(page, 'Logo', 'Yes')).toHaveAttribute('aria-checked', 'false');
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-checked', 'true');
  await expect(hiddenSelect(page, 'logo')).toHaveValue('');
});

test('a product above the lazy threshold fetches its variations and stays exact', async ({ page }) => {
  const response = await page.request.get(`${shop().url}${SNEAKER}`);
  expect(await response.text()).not.toContain('DEMO-CANVAS-SNEAKER-CLAY-38');

  await page.goto(`${shop().url}${SNEAKER}`);
  const fetched = page.waitForResponse((each) => each.url().includes('wc-ajax=get_variations'));
  await swatch(page, 'Color', 'Clay').click();
  expect((await fetched).status()).toBe(200);
  await expect(hiddenSelect(page, 'color')).toHaveValue('clay');
  for (const size of ['43', '44', '45']) {
    await expect(swatch(page, 'Shoe size', size)).toHaveAttribute('aria-disabled', 'true');
    await expect(swatch(page, 'Shoe size', size)).toHaveAccessibleDescription(
      'Not available with Color: Clay',
    );
  }
  await expect(swatch(page, 'Shoe size', '42')).toHaveAttribute('aria-disabled', 'false');

  // A sold-out variation: disabled, described as out of stock, not the no-stock (clickable) style.
  await swatch(page, 'Color', 'Olive').click();
  await expect(swatch(page, 'Shoe size', '44')).toHaveAttribute('aria-disabled', 'true');
  await expect(swatch(page, 'Shoe size', '44')).toHaveAccessibleDescription('Out of stock with Color: Olive');
  await expect(swatch(page, 'Shoe size', '44')).not.toHaveClass(/swatch--no-stock/);
  await swatch(page, 'Shoe size', '42').click();
  await expect(hiddenSelect(page, 'shoe-size')).toHaveValue('42');
  await expect(page.locator('.single_variation .price')).toHaveText('$85.00');
});

test('a variable product page has no axe-core violation', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}`);
  await swatch(page, 'Logo', 'Yes').click();
  await expect(swatch(page, 'Color', 'Red')).toHaveAttribute('aria-disabled', 'true');
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});

test('the chosen variation shows its image and SKU in the product summary', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}`);
  const image = page.locator('.product__gallery > img');
  const before = await image.getAttribute('src');
  await swatch(page, 'Color', 'Green').click();
  await swatch(page, 'Logo', 'No').click();
  await expect(page.locator('.product_meta .sku')).toHaveText('DEMO-HOODIE-GREEN-PLAIN');
  await expect(image).not.toHaveAttribute('src', before ?? '');
  await page.getByRole('link', { name: 'Clear' }).click();
  await expect(page.locator('.product_meta .sku')).toHaveText('DEMO-HOODIE');
  await expect(image).toHaveAttribute('src', before ?? '');
});

test('radio-style swatches show a radio mark, filled only on the selected one', async ({ page }) => {
  await page.goto(`${shop().url}${HOODIE}`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const mark = (name: string) => swatch(page, 'Logo', name).locator('.swatch__radio');
  const fill = (name: string) => mark(name).evaluate((element) => getComputedStyle(element).backgroundImage);
  for (const name of ['Yes', 'No']) {
    await expect(mark(name)).toBeVisible();
    await expect(mark(name)).toHaveCSS('border-radius', '50%');
    expect(await fill(name)).toBe('none');
  }
  await swatch(page, 'Logo', 'No').click();
  await expect(swatch(page, 'Logo', 'No')).toHaveAttribute('aria-checked', 'true');
  await expect(swatch(page, 'Logo', 'No')).toHaveClass(/swatch--selected/);
  expect(await fill('No')).toContain('radial-gradient');
  expect(await fill('Yes')).toBe('none');
});
