import { type Browser, expect, type Page, test } from '@playwright/test';
import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';
import { expectNoAxeViolations } from './support/axe';
import { fillBilling } from './support/checkout';
import { readShopDatabase, writeShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

/*
 * The owner's insights in Chromium: the login, then each panel showing the figures that scripted
 * visits and an order in this same file produced, the date range changing them, and no axe-core violation.
 */

const PASSWORD = 'e2e insights password';
const shop = shopPerSpecFile({ server: { ownerPasswordHash: hashOwnerPassword(PASSWORD) } });

const PHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

async function loaded(page: Page) {
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

async function logIn(page: Page, password = PASSWORD) {
  await page.goto(`${shop().url}/insights/`);
  await page.getByLabel('Password or token').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** A table's rows as arrays of cell texts, found by its caption. */
async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) });
  return table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent?.trim() ?? '')),
    );
}

const figure = (page: Page, label: string) =>
  page
    .locator('.insights-figure', { has: page.locator('dt', { hasText: new RegExp(`^${label}\\b`) }) })
    .locator('dd');

test('the login refuses a wrong password, admits the right one and logs out', async ({ page }) => {
  await logIn(page, 'not the password');
  await expect(page.getByRole('alert')).toHaveText('That password or token is not right.');
  await expect(page.getByRole('heading', { name: 'Insights' })).toHaveCount(0);
  await logIn(page);
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'shop_owner');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Owner login' })).toBeVisible();
  const api = await page.request.get(`${shop().url}/insights/api/visitors`);
  expect(api.status()).toBe(401);
});

/** A shopper in a browser of their own (own user agent, so their own visitor hash). */
async function visit(browser: Browser, userAgent: string | undefined, path: string, referer?: string) {
  const context = await browser.newContext(userAgent ? { userAgent } : {});
  const page = await context.newPage();
  const hit = page.waitForResponse((each) => new URL(each.url()).pathname === '/wp-json/stats/v1/hit');
  await page.goto(`${shop().url}${path}`, referer ? { referer } : {});
  await hit;
  await loaded(page);
  return { context, page };
}

test('each panel shows the figures of scripted visits and an order; the date range changes them', async ({
  browser,
  page,
}) => {
  // A phone visitor from a blog, who buys nothing.
  const reader = await visit(browser, PHONE_UA, '/shop/', 'https://blog.example.org/posts/linen');
  await reader.context.close();
  // A desktop visitor from a newsletter, who buys a mug.
  const buyer = await visit(
    browser,
    undefined,
    '/product/cafe-au-lait-mug/?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
  );
  await buyer.page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(buyer.page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await buyer.page.goto(`${shop().url}/checkout/`);
  await loaded(buyer.page);
  await fillBilling(buyer.page);
  await buyer.page.getByRole('button', { name: 'Place order' }).click();
  await expect(buyer.page).toHaveURL(/\/checkout\/order-received\/\d+\//);
  await buyer.context.close();
  const orderTotal = readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT total FROM orders ORDER BY id DESC LIMIT 1').pluck().get(),
  ) as number;

  // A visit 20 days ago (written as the statistics would have): in the last 30 days, not the last 7.
  const old = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
  await writeShopDatabase(
    shop().dataDir,
    `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
       referrer_host, source_type, source, browser, os, device_type)
     VALUES (0, ?, 'old-visitor', '/journal/', 'page', 0, '', '', '', 'typein', '(direct)', 'Firefox', 'Linux', 'Desktop')`,
    [old],
  );
  await writeShopDatabase(
    shop().dataDir,
    `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type,
       source_type, source, entry_page)
     VALUES (?, 'old-visitor', 0, 0, 1, 'Firefox', 'Linux', 'Desktop', 'typein', '(direct)', '/journal/')`,
    [old],
  );

  await logIn(page);
  await page.getByRole('link', { name: 'Last 7 days' }).click();
  await expect(page).toHaveURL(/range=7/);
  await loaded(page);

  // Visitors: two shoppers today, one per device type; the blog is a referrer; pages they saw are listed.
  await expect(figure(page, 'Visitors')).toHaveText('2');
  const views = Number(await figure(page, 'Page views').textContent());
  expect(views).toBeGreaterThanOrEqual(3);
  expect(await tableRows(page, 'Top referrers')).toContainEqual(['blog.example.org', '1']);
  expect(await tableRows(page, 'Devices')).toEqual([
    ['Desktop', '1'],
    ['Mobile', '1'],
  ]);
  const pages = await tableRows(page, 'Top pages');
  expect(pages).toContainEqual(['/shop/', '1']);
  expect(pages.map((row) => row[0])).not.toContain('/journal/');
  await expect(page.locator('.insights-chart[data-drawn="true"]').first()).toBeAttached();

  // Sources and revenue: the newsletter brought the order; the blog a visitor and no order.
  const money = `$${(orderTotal / 100).toFixed(2)}`;
  await expect(figure(page, 'Orders')).toHaveText('1');
  await expect(figure(page, 'Revenue')).toHaveText(money);
  const sources = await tableRows(page, 'Visitors, buyers, orders and revenue by source');
  expect(sources).toContainEqual(['Campaign', 'newsletter', '1', '1', '1', money, '100.0%']);
  expect(sources).toContainEqual(['Referral', 'blog.example.org', '1', '0', '0', '$0.00', '0.0%']);
  expect(await tableRows(page, 'Orders and revenue by campaign')).toContainEqual([
    'Campaign',
    'newsletter',
    'email',
    'spring',
    '1',
    money,
  ]);
  // Sorting by a column keeps the range.
  await page.getByRole('link', { name: 'Visitors', exact: true }).click();
  await expect(page).toHaveURL(/range=7&sort=visitors&dir=desc/);

  await expectNoAxeViolations(page, { what: 'the insights page' });

  // The last 30 days take in the old visit; a custom range before today shows nothing of today's.
  await page.getByRole('link', { name: 'Last 30 days' }).click();
  await expect(figure(page, 'Visitors')).toHaveText('3');
  expect(await tableRows(page, 'Top pages')).toContainEqual(['/journal/', '1']);
  await page.getByLabel('From', { exact: true }).fill(old);
  await page.getByLabel('To', { exact: true }).fill(old);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`range=custom&from=${old}&to=${old}`));
  await expect(figure(page, 'Visitors')).toHaveText('1');
  await expect(figure(page, 'Orders')).toHaveText('0');

  // Every table exports as CSV, the range kept.
  const csv = await page.request.get(`${shop().url}/insights/export/sources.csv?range=7`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(`utm,newsletter,1,1,1,${(orderTotal / 100).toString()},1`);
});

const titles = (page: Page) => page.locator('.product-card__title').allTextContents();

test('the searches panel: top, zero-result and purchasing queries; a synonym from the inbox makes the query find products', async ({
  browser,
  page,
}) => {
  // A shopper with a cart (so a session) searches twice, one search finding nothing, then orders.
  const shopper = await visit(browser, undefined, '/product/cafe-au-lait-mug/');
  await shopper.page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(shopper.page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await shopper.page.goto(`${shop().url}/?s=mug&post_type=product`);
  expect(await titles(shopper.page)).toContain('Café au Lait Mug');
  await shopper.page.goto(`${shop().url}/?s=anorak&post_type=product`);
  expect(await titles(shopper.page)).toEqual([]);
  await shopper.page.goto(`${shop().url}/checkout/`);
  await loaded(shopper.page);
  await fillBilling(shopper.page);
  await shopper.page.getByRole('button', { name: 'Place order' }).click();
  await expect(shopper.page).toHaveURL(/\/checkout\/order-received\/\d+\//);

  await logIn(page);
  await page.getByRole('link', { name: 'Last 7 days' }).click();
  await loaded(page);
  const inbox = await tableRows(page, 'Zero-result searches');
  expect(inbox.map((row) => row.slice(0, 2))).toEqual([['anorak', '1']]);
  const top = await tableRows(page, 'Top searches');
  expect(top).toContainEqual(['anorak', '1', '0']);
  expect(top.find((row) => row[0] === 'mug')?.[1]).toBe('1');
  // The mug went into the cart before either search: neither search led to the purchase.
  expect(await tableRows(page, 'Searches that led to a purchase')).toEqual([['Nothing in this range.']]);
  await expectNoAxeViolations(page, { what: 'the insights page with searches' });

  // One click from the inbox: "anorak" now means "hoodie".
  await page.getByLabel('A word that finds products, for “anorak”').fill('hoodie');
  await page.getByRole('button', { name: 'Add synonym for “anorak”' }).click();
  await expect(page).toHaveURL(/\/insights\/\?range=7#searches$/);
  await shopper.page.goto(`${shop().url}/?s=anorak&post_type=product`);
  const found = await titles(shopper.page);
  expect(found.length).toBeGreaterThan(0);
  expect(found.every((title) => /hoodie|sweatshirt/i.test(title))).toBe(true);
  await shopper.context.close();
});
