import { expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { fillBilling } from './support/checkout';
import { shopPerSpecFile } from './support/startShop';

/*
 * axe-core on every page type at a desktop and a phone width: zero violations (docs/contract.md "Accessibility
 * contract"). The pages and interface states are one table; a new page type or state is one row, a state reached
 * by an `open` step. The search box's own states (dropdown, details panel, history view, phone overlay) are
 * audited in e2e/search-box.spec.ts, where their answers are pinned.
 */

// The banners and the off-canvas menu on, so they are audited too.
const shop = shopPerSpecFile({
  theme: {
    mobileMenu: 'offcanvas',
    storeNotice: { enabled: true, text: 'Free delivery on orders over £60' },
    comingSoon: { enabled: true },
  },
});

interface AuditedPage {
  name: string;
  path: string;
  withCart?: boolean;
  /** Only at this width (a state that exists at one width only). */
  only?: keyof typeof VIEWPORTS;
  /** Puts the page into the state to audit (a panel open, an error shown). */
  open?: (page: Page) => Promise<void>;
}

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
};

const swatch = (page: Page, group: string, name: string) =>
  page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true });

const PAGES: AuditedPage[] = [
  { name: 'home', path: '/' },
  { name: 'shop', path: '/shop/' },
  { name: 'category', path: '/product-category/apparel/' },
  { name: 'tag', path: '/product-tag/linen/' },
  { name: 'brand', path: '/brand/fern-and-flax/' },
  { name: 'vendor', path: '/vendor/tidewater-mill/' },
  { name: 'search results', path: '/?s=linen&post_type=product' },
  { name: 'no search results', path: '/?s=zzzzzz&post_type=product' },
  { name: 'search results for a corrected query', path: '/?s=hodiee&post_type=product' },
  { name: 'simple product', path: '/product/cafe-au-lait-mug/' },
  { name: 'variable product', path: '/product/washed-linen-shirt/' },
  {
    name: 'variable product, options chosen',
    path: '/product/washed-linen-shirt/',
    open: async (page) => {
      await swatch(page, 'Color', 'Sage').click();
      await swatch(page, 'Size', 'M').click();
    },
  },
  {
    name: 'mobile menu open',
    path: '/shop/',
    only: 'mobile',
    open: async (page) => {
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await page
        .getByRole('dialog', { name: 'Menu' })
        .getByRole('button', { name: 'Apparel submenu' })
        .click();
    },
  },
  {
    name: 'header search open',
    path: '/shop/',
    only: 'mobile',
    open: async (page) => {
      await page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).first().click();
      await expect(page.getByRole('combobox', { name: 'Search products' })).toBeVisible();
    },
  },
  {
    name: 'cart drawer open',
    path: '/product/cafe-au-lait-mug/',
    open: async (page) => {
      await page.getByRole('button', { name: 'Add to cart' }).click();
      await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
    },
  },
  {
    name: 'review form with errors',
    path: '/product/cafe-au-lait-mug/',
    open: async (page) => {
      await page.getByRole('button', { name: 'Submit review' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'Your review was not sent yet' })).toBeVisible();
    },
  },
  { name: 'product with colour and label swatches', path: '/product/brushed-cotton-hoodie/' },
  { name: 'product with lazily loaded variations', path: '/product/canvas-sneaker/' },
  { name: 'grouped product', path: '/product/slow-breakfast-set/' },
  { name: 'empty cart', path: '/cart/' },
  { name: 'cart', path: '/cart/', withCart: true },
  { name: 'checkout', path: '/checkout/', withCart: true },
  {
    name: 'checkout with errors',
    path: '/checkout/',
    withCart: true,
    open: async (page) => {
      await page.getByRole('button', { name: 'Place order' }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
    },
  },
  { name: 'content page', path: '/about/' },
  { name: 'password-protected page', path: '/trade-prices/' },
  { name: 'journal', path: '/journal/' },
  { name: 'not found', path: '/no-such-page/' },
];

for (const [width, viewport] of Object.entries(VIEWPORTS) as [
  keyof typeof VIEWPORTS,
  typeof VIEWPORTS.desktop,
][]) {
  test(`no axe-core violation on any page type at ${width} width`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    for (const audited of PAGES.filter((each) => !each.withCart && (each.only ?? width) === width)) {
      await page.goto(`${shop().url}${audited.path}`);
      await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
      await audited.open?.(page);
      await expectNoAxeViolations(page, { soft: true, what: `${audited.name} (${width})` });
    }
    const added = await page.request.post(`${shop().url}/?wc-ajax=add_to_cart`, {
      form: { product_id: '1021', quantity: '1' },
    });
    expect(added.status()).toBe(200);
    for (const audited of PAGES.filter((each) => each.withCart && (each.only ?? width) === width)) {
      await page.goto(`${shop().url}${audited.path}`);
      await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
      await audited.open?.(page);
      await expectNoAxeViolations(page, { soft: true, what: `${audited.name} (${width})` });
    }
    // The order-received page, after a real order.
    await page.goto(`${shop().url}/checkout/`);
    await fillBilling(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Order received' })).toBeVisible();
    await expectNoAxeViolations(page, { soft: true, what: `order received (${width})` });
  });
}
