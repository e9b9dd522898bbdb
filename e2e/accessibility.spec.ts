import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

// Banners on, so they are checked too.
const shop = shopPerSpecFile({
  theme: {
    mobileMenu: 'offcanvas',
    storeNotice: { enabled: true, text: 'Free delivery on orders over £60' },
    comingSoon: { enabled: true },
  },
});

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 760 },
} as const;

async function open(page: Page, path: string) {
  await page.goto(`${shop().url}${path}`);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

for (const [name, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`no axe-core violation (${name})`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(viewport);
    });

    for (const [label, path] of [
      ['home', '/'],
      ['shop', '/shop/'],
      ['product', '/product/washed-linen-shirt/'],
    ] as const) {
      test(label, async ({ page }) => {
        await open(page, path);
        await expectNoAxeViolations(page);
      });
    }

    test('cart and checkout, with its error state', async ({ page }) => {
      await open(page, '/product/cafe-au-lait-mug/');
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
      await expect(page).toHaveURL(/\/cart\//);
      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
      await expectNoAxeViolations(page);
      await open(page, '/checkout/');
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      await expectNoAxeViolations(page);
    });
  });
}

test('no axe-core violation with the mobile menu and the search dropdown open', async ({ page }) => {
  await page.setViewportSize(VIEWPORTS.mobile);
  await open(page, '/shop/');
  await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).first().click();
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Apparel submenu' }).click();
  await expectNoAxeViolations(page);
});
