import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';
import { FIGURE_DEFINITIONS } from '../src/shared/insights/figureDefinitions';
import { fillBilling } from './support/checkout';
import { readShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

/*
 * Every figure on /insights/ equals what a person counts by hand from a known, scripted set of visits (one with
 * a hash link, one with swatch clicks), searches and orders across sources; then `npm run report -- verify`
 * recounts the page from the raw tables and finds no difference; and the page fits a 390 px phone.
 */

const PASSWORD = 'e2e figures password';
const shop = shopPerSpecFile({ server: { ownerPasswordHash: hashOwnerPassword(PASSWORD) } });
const run = promisify(execFile);

const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

/** A shopper with a browser of their own (own user agent: their own visitor) whose statistics hits are counted. */
async function shopper(browser: Browser, userAgent: string, options: { blockStatistics?: boolean } = {}) {
  const context = await browser.newContext({ userAgent });
  if (options.blockStatistics) await context.route('**/wp-json/stats/v1/**', (route) => route.abort());
  const page = await context.newPage();
  const hits: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/wp-json/stats/v1/hit' && response.status() === 200)
      hits.push(response.url());
  });
  return { context, page, hits };
}

async function loaded(page: Page) {
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

/** Goes to a page and waits for the page to be ready and, when counted, its hit answered. */
async function open(
  page: Page,
  hits: string[],
  path: string,
  options: { referer?: string; counted?: boolean } = {},
) {
  const before = hits.length;
  await page.goto(`${shop().url}${path}`, options.referer ? { referer: options.referer } : {});
  await loaded(page);
  if (options.counted !== false) await expect.poll(() => hits.length).toBe(before + 1);
}

async function addToCartAndBuy(page: Page, hits: string[], counted = true): Promise<number> {
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await open(page, hits, '/checkout/', { counted });
  await fillBilling(page);
  const before = hits.length;
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
  await loaded(page);
  if (counted) await expect.poll(() => hits.length).toBe(before + 1);
  return Number(/order-received\/(\d+)\//.exec(page.url())?.[1]);
}

const orderTotal = (id: number) =>
  readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT total FROM orders WHERE id = ?').pluck().get(id),
  ) as number;
const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

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

async function logIn(page: Page) {
  await page.goto(`${shop().url}/insights/`);
  await page.getByLabel('Password or token').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Last 7 days' }).click();
  await loaded(page);
}

let contexts: BrowserContext[] = [];
test.afterAll(async () => {
  for (const context of contexts) await context.close();
  contexts = [];
});

test('each figure on the page equals the hand count of scripted visits, searches and orders', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  // A: from the newsletter, jumps with a hash link (no page view), buys a mug. Page views: product, checkout,
  // order received = 3.
  const a = await shopper(browser, `${DESKTOP} A`);
  contexts.push(a.context);
  await open(
    a.page,
    a.hits,
    '/product/cafe-au-lait-mug/?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
  );
  await a.page.locator('a.skip-link').focus();
  await a.page.keyboard.press('Enter');
  await expect(a.page).toHaveURL(/#main$/);
  const orderA = await addToCartAndBuy(a.page, a.hits);

  // B: a phone from a blog; searches "anorak" (nothing found), then "mug", adds the mug from its results and
  // buys it. Page views: shop, two result pages, the product, checkout, order received = 6.
  const b = await shopper(browser, PHONE);
  contexts.push(b.context);
  await open(b.page, b.hits, '/shop/', { referer: 'https://blog.example.org/posts/linen' });
  await open(b.page, b.hits, '/?s=anorak&post_type=product');
  await open(b.page, b.hits, '/?s=mug&post_type=product');
  const beforeProduct = b.hits.length;
  await b.page.locator('.product-card__title', { hasText: 'Café au Lait Mug' }).first().click();
  await loaded(b.page);
  await expect.poll(() => b.hits.length).toBe(beforeProduct + 1);
  const orderB = await addToCartAndBuy(b.page, b.hits);

  // C: direct, picks a colour and a logo on the hoodie (the address changes), jumps with a hash link: 1 page view.
  const c = await shopper(browser, `${DESKTOP} C`);
  contexts.push(c.context);
  await open(c.page, c.hits, '/product/brushed-cotton-hoodie/');
  const swatch = (group: string, name: string) =>
    c.page.getByRole('radiogroup', { name: group }).getByRole('radio', { name, exact: true });
  await swatch('Color', 'Blue').click();
  await swatch('Logo', 'Yes').click();
  await expect(c.page).toHaveURL(/attribute_color=blue/);
  await c.page.locator('a.skip-link').focus();
  await c.page.keyboard.press('Enter');
  await expect(c.page).toHaveURL(/#main$/);

  // D: direct, then follows the shop's own link (the shop as referrer is internal): 2 page views.
  const d = await shopper(browser, `${DESKTOP} D`);
  contexts.push(d.context);
  await open(d.page, d.hits, '/');
  const beforeShop = d.hits.length;
  await d.page.locator('a[href$="/shop/"]').first().click();
  await loaded(d.page);
  await expect.poll(() => d.hits.length).toBe(beforeShop + 1);

  // E: statistics blocked in the browser: buys a mug with no recorded visit (an unattributed order).
  const e = await shopper(browser, `${DESKTOP} E`, { blockStatistics: true });
  contexts.push(e.context);
  await open(e.page, e.hits, '/product/cafe-au-lait-mug/', { counted: false });
  const orderE = await addToCartAndBuy(e.page, e.hits, false);

  // No late hit from a swatch, a hash or anything else.
  await c.page.waitForTimeout(1000);
  expect([a.hits.length, b.hits.length, c.hits.length, d.hits.length, e.hits.length]).toEqual([
    3, 6, 1, 2, 0,
  ]);

  const [totalA, totalB, totalE] = [orderTotal(orderA), orderTotal(orderB), orderTotal(orderE)];
  await logIn(page);

  // Visitors: A, B, C, D (E was never recorded); 3 + 6 + 1 + 2 page views.
  await expect(figure(page, 'Visitors')).toHaveText('4');
  await expect(figure(page, 'Page views')).toHaveText('12');
  expect(await tableRows(page, 'Devices')).toEqual([
    ['Desktop', '3'],
    ['Mobile', '1'],
  ]);
  // The blog is the only referrer: D's click inside the shop is not one.
  expect(await tableRows(page, 'Top referrers')).toEqual([['blog.example.org', '1']]);
  const pages = await tableRows(page, 'Top pages');
  const pageCounts = Object.fromEntries(pages.map(([label, count]) => [label, Number(count)]));
  expect(pageCounts).toEqual({
    '/product/cafe-au-lait-mug/?utm_source=newsletter&utm_medium=email&utm_campaign=spring': 1,
    '/product/cafe-au-lait-mug/': 1,
    '/checkout/': 2,
    [`/checkout/order-received/${orderA}/`]: 1,
    [`/checkout/order-received/${orderB}/`]: 1,
    '/shop/': 2,
    '/?s=anorak&post_type=product': 1,
    '/?s=mug&post_type=product': 1,
    '/product/brushed-cotton-hoodie/': 1,
    '/': 1,
  });
  expect(JSON.stringify(pages)).not.toMatch(/key=|wc_order_|attribute_|#/);

  // Sources: A and B bought (one buyer each), C and D did not; E's order has no visit: unattributed.
  await expect(figure(page, 'Orders')).toHaveText('3');
  await expect(figure(page, 'Revenue')).toHaveText(money(totalA + totalB + totalE));
  await expect(figure(page, 'Conversion')).toHaveText('50.0%');
  await expect(figure(page, 'Unattributed orders')).toHaveText('1');
  const sources = await tableRows(page, 'Visitors, buyers, orders and revenue by source');
  expect(sources).toHaveLength(4);
  expect(sources).toContainEqual(['Campaign', 'newsletter', '1', '1', '1', money(totalA), '100.0%']);
  expect(sources).toContainEqual(['Referral', 'blog.example.org', '1', '1', '1', money(totalB), '100.0%']);
  expect(sources).toContainEqual(['Direct', 'Direct', '2', '0', '0', '$0.00', '0.0%']);
  expect(sources).toContainEqual(['Unattributed', 'Visit not recorded', '–', '–', '1', money(totalE), '–']);
  const total = page.locator('table tfoot tr').first();
  await expect(total).toHaveText(
    ['Total', '4', '2', '3', money(totalA + totalB + totalE), '50.0%'].join(''),
    { useInnerText: false },
  );
  // Words for the owner, the recorded value in a tooltip.
  await expect(page.locator('td span[title="utm"]').first()).toHaveText('Campaign');
  await expect(page.locator('td span[title="typein"]').first()).toHaveText('Direct');
  expect(await tableRows(page, 'Orders and revenue by campaign')).toContainEqual([
    'Campaign',
    'newsletter',
    'email',
    'spring',
    '1',
    money(totalA),
  ]);

  // Searches: B's "mug" led to the purchase; "anorak" found nothing and can't have.
  expect((await tableRows(page, 'Zero-result searches')).map((row) => row.slice(0, 2))).toEqual([
    ['anorak', '1'],
  ]);
  expect(await tableRows(page, 'Searches that led to a purchase')).toEqual([['mug', '1']]);

  // Each figure's "?" leads to its definition in the page.
  for (const [label, id] of [
    ['Visitors', 'visitor'],
    ['Page views', 'page-view'],
    ['Orders', 'orders'],
    ['Revenue', 'revenue'],
    ['Conversion', 'conversion'],
    ['Unattributed orders', 'unattributed'],
  ] as const) {
    const link = page.getByRole('link', { name: `What “${label}” means` });
    await expect(link).toHaveAttribute('href', `#define-${id}`);
    const definition = FIGURE_DEFINITIONS.find((each) => each.id === id);
    await expect(page.locator(`#define-${id} dd`)).toHaveText(definition?.text ?? '');
  }

  // The figures check recounts every figure from the raw tables and finds no difference.
  const day = new Date().toISOString().slice(0, 10);
  const verify = await run(
    process.execPath,
    ['dist/server/report.js', 'verify', '--from', day, '--to', day],
    {
      env: { ...process.env, ...shop().env },
    },
  );
  expect(verify.stdout).toContain('No difference');
});

test('the page fits a 390 px phone: no horizontal scroll, wide tables scroll in their own box', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: PHONE });
  const page = await context.newPage();
  await logIn(page);
  await expect(page.locator('.insights-chart[data-drawn="true"]').first()).toBeAttached();
  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.document).toBeLessThanOrEqual(widths.viewport);
  expect(widths.body).toBeLessThanOrEqual(widths.viewport);
  // Every panel's box is inside the viewport.
  const overflowing = await page
    .locator('.insights-panel, .insights-figures, .insights-range, .insights__head, .insights-chart')
    .evaluateAll((boxes) =>
      boxes
        .filter((box) => box.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((box) => box.className),
    );
  expect(overflowing).toEqual([]);
  // The picture in the docs, refreshed on demand only: a test run leaves the working tree as it found it.
  if (process.env.UPDATE_SCREENSHOTS)
    await page.screenshot({ path: 'docs/insights-phone.png', fullPage: true });
  await context.close();
});
