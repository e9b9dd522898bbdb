import { expect, type Locator, type Page, test } from '@playwright/test';
import { VALID_BILLING } from './support/checkout';
import { readShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

/*
 * The whole purchase with the keyboard alone (docs/contract.md "Accessibility contract": every flow works with the
 * keyboard alone): focus moves only by Tab / Shift+Tab, and only Enter, Space and typing act. No click, no
 * fill(), no goto() after the first page.
 */

const shop = shopPerSpecFile();

/** Presses Tab until `target` has the focus, as a keyboard user would, and checks the focus is shown. */
async function tabTo(page: Page, target: Locator, maxPresses = 120) {
  for (let press = 0; press < maxPresses; press++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) {
      expect(await target.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

async function typeInto(page: Page, target: Locator, text: string) {
  await tabTo(page, target);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

test('home → search → swatches → cart → checkout → order received with the keyboard only', async ({
  page,
}) => {
  await page.goto(`${shop().url}/`);

  // The skip link is the first stop and takes the focus to the content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();

  // Search: type into the header's combobox, move to the shirt's suggestion with ArrowDown, open it with Enter.
  await page.keyboard.press('Shift+Tab');
  await typeInto(page, page.getByRole('combobox', { name: 'Search products' }), 'linen shirt');
  const shirt = page.getByRole('option', { name: /Washed Linen Shirt/ }).first();
  await expect(shirt).toBeVisible();
  for (let presses = 0; presses < 12 && (await shirt.getAttribute('aria-selected')) !== 'true'; presses++)
    await page.keyboard.press('ArrowDown');
  await expect(shirt).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Washed Linen Shirt' })).toBeVisible();
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();

  // Swatches: one tab stop per group; arrow keys move and select as in any radio group, Space selects.
  const swatch = (group: string, name: string) =>
    page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true });
  await tabTo(page, swatch('Color', 'Sage'));
  await page.keyboard.press('ArrowRight'); // Oat
  await page.keyboard.press('ArrowLeft'); // back to Sage
  await expect(swatch('Color', 'Sage')).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Tab');
  await expect(swatch('Size', 'S')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(swatch('Size', 'S')).toHaveAttribute('aria-checked', 'true');
  await typeInto(page, page.getByLabel('Quantity'), '2');
  await tabTo(page, page.getByRole('button', { name: /Add to cart/ }));
  await page.keyboard.press('Enter');

  // Added without a page load: the cart drawer opens with the focus inside it; its "View cart" leads on.
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  await expect(drawer).toBeVisible();
  await expect(drawer).toContainText('Washed Linen Shirt');
  await tabTo(page, drawer.getByRole('link', { name: 'View cart' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/cart\/$/);
  await expect(page.getByLabel(/^Quantity/).first()).toHaveValue('2');

  await tabTo(page, page.getByRole('link', { name: 'Proceed to checkout' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();

  // A select is changed by typing the start of an option while it has the focus.
  await tabTo(page, page.getByLabel('Country / Region').first());
  await page.keyboard.type('United Kingdom');
  await expect(page.getByLabel('Country / Region').first()).toHaveValue('GB');
  for (const [label, value] of Object.entries(VALID_BILLING)) {
    await typeInto(page, page.getByLabel(label, { exact: false }).first(), value);
  }
  await tabTo(page, page.getByRole('button', { name: 'Place order' }));
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Order received' })).toBeVisible();
  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
  const lines = readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT name, variation_id, quantity FROM order_items WHERE order_id = ?').all(orderId),
  );
  expect(lines).toEqual([{ name: 'Washed Linen Shirt', variation_id: 1002, quantity: 2 }]);
});
