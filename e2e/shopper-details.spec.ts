import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
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
    // The layout width: the drawer's opening transform may still scale its bounding box by a hair.
    expect(await thumbnail.evaluate((image: HTMLImageElement) => image.offsetWidth)).toBe(48);
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

test('an image named by a local path in the CSV is imported, resized and shown from its stored sizes', async ({
  page,
}) => {
  const folder = mkdtempSync(join(tmpdir(), 'catalog-'));
  try {
    mkdirSync(join(folder, 'photos'));
    await sharp({ create: { width: 1400, height: 1000, channels: 3, background: '#b5542f' } })
      .jpeg()
      .toFile(join(folder, 'photos', 'terracotta-jug.jpg'));
    writeFileSync(
      join(folder, 'products.csv'),
      'Type,SKU,Name,Published,Regular price,In stock?,Images\n' +
        'simple,PHOTO-JUG,Terracotta Jug,1,28.00,1,photos/terracotta-jug.jpg\n',
    );
    // The shop's own import command, on the running shop's data.
    const output = execFileSync(process.execPath, ['dist/server/import.js', join(folder, 'products.csv')], {
      env: { ...process.env, ...shop().env },
      encoding: 'utf8',
    });
    expect(output).toContain('1 images stored, 0 left to the placeholder');

    await page.setViewportSize({ width: 390, height: 844 });
    await open(page, '/product/terracotta-jug/');
    const image = page.locator('.product__gallery > img');
    await expect(image).toHaveAttribute('srcset', /-300\.webp 300w, .*-600\.webp 600w, .*-1200\.webp 1200w$/);
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
      .toBeGreaterThan(0);
    expect(await image.evaluate((element: HTMLImageElement) => element.currentSrc)).toMatch(
      /\/images\/catalog\/[a-f0-9]{32}-(600|1200)\.webp$/,
    );
    // A square frame whatever the photo's shape.
    const box = await image.boundingBox();
    expect(Math.round(box?.width ?? 0)).toBe(Math.round(box?.height ?? 1));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
