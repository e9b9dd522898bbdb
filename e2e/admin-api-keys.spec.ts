import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

/*
 * The owner's REST API keys page in Chromium, by keyboard alone at phone width: making a key (its secret shown on
 * that page only), using it with the WooCommerce API, seeing its last access, revoking it. Axe-clean and without
 * sideways scrolling at each step.
 */

const PASSWORD = 'e2e api keys password';
const PHONE = { width: 390, height: 844 };
const run = promisify(execFile);
const shop = shopPerSpecFile();

test.describe.configure({ mode: 'serial' });

/** Tabs until `target` has the focus (at most `limit` stops), as a keyboard user moves through the page. */
async function tabTo(page: Page, target: Locator, limit = 40) {
  for (let n = 0; n < limit && !(await target.evaluate((each) => each === document.activeElement)); n++)
    await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test('makes, uses and revokes a key by keyboard at 390 px', async ({ page, request }) => {
  test.setTimeout(90_000);
  await run(process.execPath, ['dist/server/owner.js', 'set-password'], {
    env: { ...process.env, ...shop().env, OWNER_PASSWORD: PASSWORD },
  });
  await page.setViewportSize(PHONE);
  await page.goto(`${shop().url}/admin/login?next=${encodeURIComponent('/admin/settings/api/')}`);
  await page.getByLabel('Password or token').focus();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'REST API keys' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'API keys' }),
  ).toHaveAttribute('aria-current', 'page');
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'API keys page' });

  // The form, by keyboard: description, permissions (Read → Write → Read/Write), the button.
  await tabTo(page, page.getByLabel('Description'));
  await page.keyboard.type('Label printer');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Permissions')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('Permissions')).toHaveValue('read_write');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Generate API key' })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Key “Label printer” made' })).toBeVisible();
  await expect(page.getByText('it is shown only this once')).toBeVisible();
  const consumerKey = await page.getByLabel('Consumer key').inputValue();
  const consumerSecret = await page.getByLabel('Consumer secret').inputValue();
  expect(consumerKey).toMatch(/^ck_[0-9a-f]{40}$/);
  expect(consumerSecret).toMatch(/^cs_[0-9a-f]{40}$/);
  expect(page.url()).not.toContain(consumerSecret);
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'API keys page with a new key' });

  // The key opens the WooCommerce API (plain HTTP from this machine).
  const authorization = `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}`;
  const orders = await request.get(`${shop().url}/wp-json/wc/v3/orders`, { headers: { authorization } });
  expect(orders.status()).toBe(200);
  expect(orders.headers()['x-wp-total']).toBe('0');

  // Shown again, the page lists the key by its ending, with its last access, and never its secret.
  await page.goto(`${shop().url}/admin/settings/api/`);
  const row = page.getByRole('row', { name: /Label printer/ });
  await expect(row).toContainText(`…${consumerKey.slice(-7)}`);
  await expect(row).toContainText('Read/Write');
  await expect(row.getByRole('cell').nth(2)).toContainText('UTC');
  expect(await page.content()).not.toContain(consumerSecret);

  const revoke = page.getByRole('button', { name: 'Revoke key “Label printer”' });
  await tabTo(page, revoke);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('The key is revoked: it opens nothing now.');
  await expect(page.getByRole('row', { name: /Label printer/ })).toContainText('Revoked');
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'API keys page after revoking' });
  const refused = await request.get(`${shop().url}/wp-json/wc/v3/orders`, { headers: { authorization } });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).code).toBe('woocommerce_rest_authentication_error');
});
