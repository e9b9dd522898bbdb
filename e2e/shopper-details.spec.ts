import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

/* Details a shopper meets on the way: ratings, suggestion badges, the mini-cart's thumbnails and quantity limits. */

const shop = shopPerSpecFile();

async function open(page: Page, path: string) {
  await page.goto(`${shop().url}${path}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

test('ratings are drawn as stars and read as "Rated x out of 5"', async ({ page }) => {
  await open(page, '/shop/');
  const rating = page.getByRole('img', { name: /^Rated \d\.\d out of 5/ }).first();
  await expect(rating).toBeVisible();
  const mask = await rating.evaluate((element) => getComputedStyle(element).maskImage);
  expect(mask).toContain('data:image/svg+xml');
  expect(mask).not.toContain('repeating-linear-gradient');
});

test('suggestion badges are words of their own in the option’s name', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await open(page, '/');
  await page.getByRole('banner').getByRole('combobox', { name: 'Search products' }).fill('linen');
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(listbox.getByRole('option', { name: /^Washed Linen Shirt, sale, featured / })).toBeVisible();
  await expect(listbox.getByRole('option', { name: /^Linen Tea Towel, sale / })).toBeVisible();
  for (const name of await listbox
    .getByRole('option')
    .evaluateAll((options) => options.map((option) => option.textContent ?? ''))) {
    expect(name).not.toMatch(/[a-z](FEATURED|SALE)/);
  }
  await expect(listbox.getByRole('option', { name: /[a-z](featured|sale)/i })).toHaveCount(0);
});

test.describe('the mini-cart', () => {
  test.beforeEach(async ({ page }) => {
    await open(page, '/product/cafe-au-lait-mug/');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  });

  test('shows a thumbnail beside each line', async ({ page }) => {
    const line = page.getByRole('dialog', { name: 'Cart' }).locator('.mini_cart_item').first();
    const thumbnail = line.locator('img.mini_cart_item__thumbnail');
    await expect(thumbnail).toBeVisible();
    expect(
      await thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0),
    ).toBe(true);
    const box = await thumbnail.boundingBox();
    expect(box?.width).toBe(48);
  });

  test('a quantity over the maximum says why it changed', async ({ page }) => {
    const drawer = page.getByRole('dialog', { name: 'Cart' });
    const quantity = drawer.getByLabel(/Quantity/);
    await quantity.fill('99999');
    await expect(drawer.getByRole('status')).toHaveText('Please enter a quantity between 0 and 9999.');
    await expect(quantity).toHaveValue('1');
    // The mug has 24 in stock: the cart takes 24 and says so.
    await drawer.getByLabel(/Quantity/).fill('30');
    await expect(drawer.getByRole('status')).toHaveText(
      'You can buy at most 24 of this item, so the quantity was set to 24.',
    );
    await expect(drawer.getByLabel(/Quantity/)).toHaveValue('24');
  });
});
