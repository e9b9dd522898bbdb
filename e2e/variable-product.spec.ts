import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { fillBilling } from './support/checkout';
import { readShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

const shop = shopPerSpecFile();

test('a variable product is bought through its attribute swatches', async ({ page }) => {
  await page.goto(`${shop().url}/product/washed-linen-shirt/`);
  const swatch = (group: string, name: string) =>
    page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true });

  // An impossible combination (the shirt has no Sage in L) cannot be chosen, and says why.
  await swatch('Color', 'Sage').click();
  await expect(swatch('Size', 'L')).toHaveAttribute('aria-disabled', 'true');
  await expect(swatch('Size', 'L')).toHaveAccessibleDescription('Not available with Color: Sage');

  // Rust in M is on sale: the chosen variation's price shows.
  await swatch('Color', 'Rust').click();
  await swatch('Size', 'M').click();
  await expect(page.locator('.single_variation .price ins')).toHaveText('$54.00');
  await expect(page.getByRole('button', { name: /Add to cart/ })).toHaveAttribute('aria-disabled', 'false');
  await page.getByRole('button', { name: /Add to cart/ }).click();

  // Added without a page load: the drawer opens, and its "View cart" goes to the cart page.
  await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
  await expect(page).toHaveURL(/\/cart\/$/);
  const line = page.locator('.cart_item');
  await expect(line).toContainText('Washed Linen Shirt');
  await expect(line).toContainText('Rust');
  await expect(line).toContainText('$54.00');

  await page.getByRole('link', { name: 'Proceed to checkout' }).click();
  await fillBilling(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Order received' })).toBeVisible();

  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
  const lines = readShopDatabase(shop().dataDir, (db) =>
    db
      .prepare('SELECT product_id, variation_id, unit_price, attributes FROM order_items WHERE order_id = ?')
      .all(orderId),
  );
  expect(lines).toEqual([
    {
      product_id: 1001,
      variation_id: 1006,
      unit_price: 5400,
      attributes: JSON.stringify({ Color: 'Rust', Size: 'M' }),
    },
  ]);
});

test('a variation that leaves an attribute as "any" keeps the size the shopper chose', async ({ page }) => {
  await page.goto(`${shop().url}/product/organic-cotton-t-shirt/`);
  await page.getByRole('radiogroup', { name: 'Color' }).getByRole('radio').first().click();
  await page.getByRole('radiogroup', { name: 'Size' }).getByRole('radio').last().click();
  await page.getByRole('button', { name: /Add to cart/ }).click();
  // Added without a page load: the drawer opens, and its "View cart" goes to the cart page.
  await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
  await expect(page).toHaveURL(/\/cart\/$/);
  const sizeName = await page.locator('.cart_item .variation').textContent();
  expect(sizeName).toMatch(/Size:\s*\S+/);
});

test('without JavaScript the server picks the variation from the posted values', async ({ page }) => {
  await page.context().route('**/static/**', (route) => route.abort());
  const choose = (group: string, name: string) =>
    page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true }).check();
  await page.goto(`${shop().url}/product/washed-linen-shirt/`);
  // The swatches are native radios here: chosen by click, or by keyboard as any radio group.
  await choose('Color', 'Oat');
  await page.getByRole('radiogroup', { name: 'Size' }).getByRole('radio').first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'M', exact: true })).toBeChecked();
  await expectNoAxeViolations(page, { what: 'the variable product without JavaScript' });
  await page.getByRole('button', { name: /Add to cart/ }).click();
  await expect(page).toHaveURL(/\/cart\/\?added=1001/);
  await expect(page.locator('.cart_item')).toContainText('Oat');

  // An out-of-stock variation is refused with the reason, on the product page.
  await page.goto(`${shop().url}/product/washed-linen-shirt/`);
  await choose('Color', 'Indigo');
  await choose('Size', 'L');
  await page.getByRole('button', { name: /Add to cart/ }).click();
  await expect(page.getByRole('alert')).toContainText('out of stock');
});
