import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

/*
 * The shop's screens at a phone's width (390 px) and a desktop's (1280 px): no page scrolls sideways, the grid and
 * the forms use the room they have. With UPDATE_SCREENSHOTS=1 the product, cart and checkout are written to
 * docs/screenshots/ at both widths.
 */

const shop = shopPerSpecFile();

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const SIMPLE_PRODUCT = '/product/cafe-au-lait-mug/';
const VARIABLE_PRODUCT = '/product/washed-linen-shirt/';

async function open(page: Page, path: string) {
  await page.goto(`${shop().url}${path}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

async function addMugToCart(page: Page) {
  await open(page, SIMPLE_PRODUCT);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
}

/** How far the page scrolls sideways, and the widest elements when it does (to name the culprit on failure). */
async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const culprits = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((element) => element.getBoundingClientRect().right > viewport + 1 && element.offsetWidth > 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`);
    return { scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY, culprits };
  });
}

test.describe('at 390 px', () => {
  test.use({ viewport: PHONE });

  test('no page type scrolls sideways', async ({ page }) => {
    await addMugToCart(page);
    const pages: [string, string][] = [
      ['home', '/'],
      ['shop', '/shop/'],
      ['category', '/product-category/home/kitchen/'],
      ['simple product', SIMPLE_PRODUCT],
      ['variable product', VARIABLE_PRODUCT],
      ['search results', '/?s=linen&post_type=product'],
      ['cart', '/cart/'],
      ['checkout', '/checkout/'],
      ['content page', '/about/'],
      ['journal', '/journal/'],
      ['post', '/how-we-choose-our-linen/'],
      ['not found', '/no/such/page/'],
    ];
    for (const [name, path] of pages) {
      await open(page, path);
      const overflow = await horizontalOverflow(page);
      expect(
        overflow.scrollWidth,
        `${name} (${path}) is wider than 390 px: ${overflow.culprits}`,
      ).toBeLessThanOrEqual(390);
    }
  });

  test('products stand two to a row', async ({ page }) => {
    await open(page, '/shop/');
    const cards = page.locator('.products > li');
    const [first, second, third] = await Promise.all(
      [0, 1, 2].map((index) => cards.nth(index).boundingBox()),
    );
    expect(first?.y).toBe(second?.y);
    expect(third?.y).toBeGreaterThan(first?.y ?? 0);
    expect(third?.x).toBe(first?.x);
  });

  test('the cart lists each line as labelled rows', async ({ page }) => {
    await addMugToCart(page);
    await open(page, '/cart/');
    const line = page.locator('.cart_item').first();
    await expect(line.getByRole('link', { name: 'Café au Lait Mug' })).toBeVisible();
    await expect(line.locator('td[data-title="Subtotal"]')).toBeVisible();
    expect(
      await line
        .locator('td[data-title="Subtotal"]')
        .evaluate((cell) => getComputedStyle(cell, '::before').content),
    ).toBe('"Subtotal"');
  });
});

/** Where the variable product's choices and button sit inside its form. */
const variationFormLayout = (page: Page) =>
  page.evaluate(() => {
    const form = document.querySelector('.variations_form')?.getBoundingClientRect();
    const button = document.querySelector('.single_add_to_cart_button')?.getBoundingClientRect();
    const choices = document.querySelector('table.variations')?.getBoundingClientRect();
    return {
      buttonTop: (button?.top ?? 0) - (form?.top ?? 0),
      choicesLeft: (choices?.left ?? 0) - (form?.left ?? 0),
      choicesTop: (choices?.top ?? 0) - (form?.top ?? 0),
    };
  });

/**
 * The variable product's form as a shopper meets it once hydrated. The page is marked hydrated before this island
 * has swapped its native radios for ARIA ones, so wait for those, then for the page's own layout to settle (its
 * other islands mount after hydration): measure it once it holds still.
 */
async function settledVariationForm(page: Page) {
  // Hydrated: the swatches are ARIA radios and the hidden selects carry the choices.
  await expect(page.locator('table.variations select[hidden]').first()).toBeAttached();
  await expect(page.locator('.swatch[role="radio"]').first()).toBeVisible();
  let before = await variationFormLayout(page);
  await expect
    .poll(
      async () => {
        const now = await variationFormLayout(page);
        const same = JSON.stringify(now) === JSON.stringify(before);
        before = now;
        return same;
      },
      { intervals: [100] },
    )
    .toBe(true);
  return before;
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`choosing a variation at ${viewport.width} px does not move the form`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await open(page, VARIABLE_PRODUCT);
    const before = await settledVariationForm(page);
    await page.getByRole('radiogroup', { name: /Color/ }).getByRole('radio').first().click();
    await page.getByRole('radiogroup', { name: /Size/ }).getByRole('radio').first().click();
    await expect(page.locator('.single_variation .price')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Clear' })).toBeVisible();
    expect(await variationFormLayout(page)).toEqual(before);
  });

  // The shirt, and the sneaker whose ten sizes take two rows of swatches at a phone's width.
  for (const product of [VARIABLE_PRODUCT, '/product/canvas-sneaker/']) {
    test(`at ${viewport.width} px hydrating ${product} moves nothing in its variation form`, async ({
      page,
      browser,
    }) => {
      // Without JavaScript: the form's layout as the server drew it (swatches around native radios).
      const plain = await browser.newContext({ javaScriptEnabled: false, viewport });
      const noScript = await plain.newPage();
      await noScript.goto(`${shop().url}${product}`);
      await expect(noScript.getByRole('radiogroup').first()).toBeVisible();
      const served = await variationFormLayout(noScript);
      await plain.close();

      await page.setViewportSize(viewport);
      await open(page, product);
      expect(await settledVariationForm(page)).toEqual(served);
    });
  }
}

test.describe('at 1280 px', () => {
  test.use({ viewport: DESKTOP });

  test('the header search suggestions take the room beside the field', async ({ page }) => {
    await open(page, '/');
    const field = page.getByRole('banner').getByRole('combobox', { name: 'Search products' });
    await field.fill('linen');
    const dropdown = page.locator('header .shop-search__dropdown');
    await expect(dropdown.getByRole('option').first()).toBeVisible();
    const box = await dropdown.boundingBox();
    const fieldBox = await field.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(440);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(DESKTOP.width);
    expect(box?.x).toBeCloseTo(fieldBox?.x ?? 0, 0);
  });
});

test('robots.txt, sitemap.xml and favicon.ico answer a browser', async ({ page }) => {
  await page.goto(`${shop().url}/robots.txt`);
  await expect(page.locator('body')).toContainText('Disallow: /checkout/');
  await expect(page.locator('body')).toContainText(`Sitemap: ${shop().url}/sitemap.xml`);
  const sitemap = await page.request.get(`${shop().url}/sitemap.xml`);
  expect(sitemap.status()).toBe(200);
  expect(await sitemap.text()).toContain(`<loc>${shop().url}${SIMPLE_PRODUCT}</loc>`);
  const icon = await page.request.get(`${shop().url}/favicon.ico`);
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toBe('image/x-icon');
});

test('screenshots of product, cart and checkout at 390 and 1280 px', async ({ page }) => {
  test.skip(!process.env.UPDATE_SCREENSHOTS, 'set UPDATE_SCREENSHOTS=1 to write docs/screenshots/');
  mkdirSync('docs/screenshots', { recursive: true });
  await addMugToCart(page);
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    const shots: [string, string][] = [
      ['product', VARIABLE_PRODUCT],
      ['cart', '/cart/'],
      ['checkout', '/checkout/'],
    ];
    for (const [name, path] of shots) {
      await open(page, path);
      await page.screenshot({ path: `docs/screenshots/${name}-${viewport.width}.png`, fullPage: true });
    }
  }
});
