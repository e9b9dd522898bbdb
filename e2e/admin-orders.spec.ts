import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopperOrdersMugs } from './support/checkout';
import { readShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

/*
 * The owner's day with orders in Chromium: becoming the owner with the command, logging in, a shopper's order in
 * the list, completing it (the note shows), cancelling it with two clicks at once (the stock comes back once), and
 * the back office by keyboard alone, axe-clean and without sideways scrolling at phone width.
 */

const PASSWORD = 'e2e back office password';
const MUG_ID = 1021;
const PHONE = { width: 390, height: 844 };
const run = promisify(execFile);
const shop = shopPerSpecFile();

test.describe.configure({ mode: 'serial' });

async function logIn(page: Page, from = '/admin/') {
  await page.goto(`${shop().url}${from}`);
  await expect(page.getByRole('heading', { name: 'Owner login' })).toBeVisible();
  await page.getByLabel('Password or token').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** A shopper, in a browser of their own, buys `quantity` mugs; answers the order's number. */
const shopperOrders = (browser: Browser, quantity: number) =>
  shopperOrdersMugs(browser, shop().url, quantity);

function mugStock(): number {
  return readShopDatabase(shop().dataDir, (db) =>
    Number(db.prepare('SELECT stock_quantity FROM products WHERE id = ?').pluck().get(MUG_ID)),
  );
}

function notesOf(order: number): string[] {
  return readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT body FROM order_notes WHERE order_id = ? ORDER BY id').pluck().all(order),
  ) as string[];
}

test('the owner is set up by the command, then logs in', async ({ page }) => {
  await page.goto(`${shop().url}/admin/login`);
  await expect(page.getByText('npm run owner -- set-password')).toBeVisible();
  const { stdout } = await run(
    process.execPath,
    ['dist/server/owner.js', 'set-password', '--email', 'owner@example.com'],
    { env: { ...process.env, ...shop().env, OWNER_PASSWORD: PASSWORD } },
  );
  expect(stdout).toContain('The owner password is set');
  await logIn(page);
  await expect(page).toHaveURL(/\/admin\/orders\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Orders' }),
  ).toHaveAttribute('aria-current', 'page');
});

test('a shopper’s order appears in the list; the owner completes it and the note shows', async ({
  browser,
  page,
}) => {
  const order = await shopperOrders(browser, 1);
  await logIn(page);
  const row = page.getByRole('row', { name: new RegExp(`#${order}\\b`) });
  await expect(row).toContainText('Grace Hopper');
  await expect(row).toContainText('grace@example.com');
  await expect(row).toContainText('Processing');
  await row.getByRole('link', { name: `#${order}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order #${order}` })).toBeVisible();
  await page.getByLabel('Status').selectOption('completed');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.locator('.admin-notice')).toHaveText('Order status: Completed.');
  await expect(page.getByText('Status changed from Processing to Completed.')).toBeVisible();
  await page.getByLabel('Add a private note').fill('Packed with extra paper.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Packed with extra paper.')).toBeVisible();
});

test('cancelling with two clicks at once puts the stock back once', async ({ browser, page }) => {
  const order = await shopperOrders(browser, 2);
  const stockAfterOrder = mugStock();
  await logIn(page, `/admin/orders/${order}/`);
  const second = await page.context().newPage();
  await second.goto(`${shop().url}/admin/orders/${order}/`);
  for (const tab of [page, second]) await tab.getByLabel('Status').selectOption('cancelled');
  await Promise.all([
    page.getByRole('button', { name: 'Update' }).click(),
    second.getByRole('button', { name: 'Update' }).click(),
  ]);
  for (const tab of [page, second]) await expect(tab.locator('.admin-notice')).toContainText('Cancelled');
  expect(mugStock()).toBe(stockAfterOrder + 2);
  expect(notesOf(order)).toEqual(['Status changed from Processing to Cancelled.']);
  await second.close();
});

test('by keyboard alone, axe-clean and without sideways scrolling at 390 px', async ({ browser, page }) => {
  // Three pages audited by axe and walked by Tab, one stop at a time: long, not waiting on anything.
  test.setTimeout(90_000);
  const order = await shopperOrders(browser, 1);
  await page.setViewportSize(PHONE);
  await page.goto(`${shop().url}/admin/login`);
  await expectNoAxeViolations(page, { what: 'owner login' });
  await page.getByLabel('Password or token').focus();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();

  const noSidewaysScroll = () =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  expect(await noSidewaysScroll()).toBe(true);
  await expectNoAxeViolations(page, { what: 'orders list' });

  // The skip link is among the first stops, and lands in the back office's content.
  const skip = page.getByRole('link', { name: 'Skip to Orders' });
  for (let n = 0; n < 10 && !(await skip.evaluate((link) => link === document.activeElement)); n++)
    await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#admin-main')).toBeFocused();

  const link = page.getByRole('link', { name: `#${order}`, exact: true });
  for (let n = 0; n < 30 && !(await link.evaluate((each) => each === document.activeElement)); n++)
    await page.keyboard.press('Tab');
  await expect(link).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: `Order #${order}` })).toBeVisible();
  expect(await noSidewaysScroll()).toBe(true);
  await expectNoAxeViolations(page, { what: 'order page' });

  const status = page.getByLabel('Status');
  for (let n = 0; n < 30 && !(await status.evaluate((each) => each === document.activeElement)); n++)
    await page.keyboard.press('Tab');
  await expect(status).toBeFocused();
  await page.keyboard.press('ArrowDown'); // Processing → On hold
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Update' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('.admin-notice')).toHaveText('Order status: On hold.');
  expect(await noSidewaysScroll()).toBe(true);
  await expectNoAxeViolations(page, { what: 'order page after an update' });
});
