import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { fillBilling } from './support/checkout';
import { shopPerSpecFile } from './support/startShop';

/*
 * axe-core on every page type at a desktop and a phone width: zero violations (CONTRACT.md "Accessibility
 * contract"). The pages and interface states are one table; features landing later add their rows and states
 * (search dropdown open, details panel, history view, mobile overlay, cart drawer, mobile menu) as `open`
 * steps, e.g. `{ name: 'cart drawer', path: '/shop/', open: (page) => page.getByRole('link', { name: /^Cart/ }).click() }`.
 */

const shop = shopPerSpecFile();

interface AuditedPage {
  name: string;
  path: string;
  withCart?: boolean;
  /** Puts the page into the state to audit (a panel open, an error shown). */
  open?: (page: Page) => Promise<void>;
}

const PAGES: AuditedPage[] = [
  { name: 'home', path: '/' },
  { name: 'shop', path: '/shop/' },
  { name: 'category', path: '/product-category/apparel/' },
  { name: 'tag', path: '/product-tag/linen/' },
  { name: 'search results', path: '/?s=linen&post_type=product' },
  { name: 'no search results', path: '/?s=zzzzzz&post_type=product' },
  { name: 'simple product', path: '/product/cafe-au-lait-mug/' },
  { name: 'variable product', path: '/product/washed-linen-shirt/' },
  {
    name: 'variable product, options chosen',
    path: '/product/washed-linen-shirt/',
    open: async (page) => {
      await page.getByLabel('Color').selectOption({ label: 'Sage' });
      await page.getByLabel('Size').selectOption({ label: 'M' });
    },
  },
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

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 390, height: 844 },
};

async function expectNoViolations(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  );
  expect.soft(summary, what).toEqual([]);
}

for (const [width, viewport] of Object.entries(VIEWPORTS)) {
  test(`no axe-core violation on any page type at ${width} width`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    for (const audited of PAGES.filter((each) => !each.withCart)) {
      await page.goto(`${shop().url}${audited.path}`);
      await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
      await audited.open?.(page);
      await expectNoViolations(page, `${audited.name} (${width})`);
    }
    const added = await page.request.post(`${shop().url}/?wc-ajax=add_to_cart`, {
      form: { product_id: '1021', quantity: '1' },
    });
    expect(added.status()).toBe(200);
    for (const audited of PAGES.filter((each) => each.withCart)) {
      await page.goto(`${shop().url}${audited.path}`);
      await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
      await audited.open?.(page);
      await expectNoViolations(page, `${audited.name} (${width})`);
    }
    // The order-received page, after a real order.
    await page.goto(`${shop().url}/checkout/`);
    await fillBilling(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Order received' })).toBeVisible();
    await expectNoViolations(page, `order received (${width})`);
  });
}
