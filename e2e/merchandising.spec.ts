import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';
import { type ReadMail, readEml } from '../test-support/readEml';
import { expectNoAxeViolations } from './support/axe';
import { fillBilling } from './support/checkout';
import { shopPerSpecFile } from './support/startShop';

/*
 * Related products, customers also bought, upsells and cross-sells, the back-in-stock alert and the JSON-LD, in
 * Chromium against the built shop: shoppers and the owner each in a browser of their own.
 */

const PASSWORD = 'e2e merchandising password';
// The shop's public address for links in mail; the test opens the link's path on the running shop.
const PUBLIC_URL = 'https://shop.example';
const shop = shopPerSpecFile({
  server: { ownerPasswordHash: hashOwnerPassword(PASSWORD), mail: { shopUrl: PUBLIC_URL } },
});

async function ownerPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${shop().url}/admin/login?next=/admin/products/`);
  await page.getByLabel('Password or token').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  return page;
}

async function setStock(owner: Page, search: string, name: string, quantity: number) {
  await owner.goto(`${shop().url}/admin/products/?q=${encodeURIComponent(search)}`);
  await owner.getByRole('link', { name, exact: true }).click();
  await owner.getByLabel('Manage stock (count what is left)').check();
  await owner.getByLabel('Stock quantity').fill(String(quantity));
  await owner.getByRole('button', { name: 'Save changes' }).click();
  await expect(owner.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
}

async function addToCart(page: Page, slug: string) {
  await page.goto(`${shop().url}/product/${slug}/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
}

/** The product names of the cards in the section with this heading. */
function cardsIn(page: Page, heading: string) {
  return page.getByRole('region', { name: heading }).locator('.product-card__title');
}

function sentMails(): ReadMail[] {
  const dir = join(shop().dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => readEml(readFileSync(join(dir, name), 'utf8')));
}

test('customers also bought follows real orders and stock; related products never show the product or a sold-out one', async ({
  browser,
  page,
}) => {
  await page.goto(`${shop().url}/product/cafe-au-lait-mug/`);
  await expect(cardsIn(page, 'Related products')).toHaveCount(4);
  await expect(cardsIn(page, 'Related products')).not.toContainText(['Café au Lait Mug']);
  await expect(cardsIn(page, 'Related products')).not.toContainText(['Espresso Cup Pair']);
  // No orders yet: too few to say what customers also bought.
  await expect(page.getByRole('region', { name: 'Customers also bought' })).toHaveCount(0);

  // A shopper buys the mug with a bowl and a candle.
  const shopper = await (await browser.newContext()).newPage();
  await addToCart(shopper, 'speckled-stoneware-bowl');
  await addToCart(shopper, 'creme-fig-soy-candle');
  await addToCart(shopper, 'cafe-au-lait-mug');
  await shopper.goto(`${shop().url}/checkout/`);
  await fillBilling(shopper);
  await shopper.getByRole('button', { name: 'Place order' }).click();
  await expect(shopper.getByRole('heading', { name: 'Order received' })).toBeVisible();

  await page.reload();
  await expect(cardsIn(page, 'Customers also bought')).toHaveText([
    'Speckled Stoneware Bowl',
    'Crème Fig Soy Candle',
  ]);
  await expect(cardsIn(page, 'Related products')).not.toContainText(['Speckled Stoneware Bowl']);

  // The candle sells out in the back office: it leaves the list, and one product is too few for the section.
  const owner = await ownerPage(browser);
  await setStock(owner, 'fig', 'Crème Fig Soy Candle', 0);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Customers also bought' })).toHaveCount(0);
  await expect(cardsIn(page, 'Related products')).toHaveCount(4);
  await expect(cardsIn(page, 'Related products')).not.toContainText(['Crème Fig Soy Candle']);
});

test('upsells show on the product page and cross-sells on the cart, from a CSV the owner imports', async ({
  browser,
  page,
}) => {
  const owner = await ownerPage(browser);
  await owner.goto(`${shop().url}/admin/products/import`);
  const csv = [
    'Type,SKU,Name,Published,Regular price,In stock?,Categories,Upsells,Cross-sells',
    'simple,E2E-KETTLE,Enamel Kettle,1,40,1,Home > Kitchen,DEMO-CAFE-MUG,"DEMO-LINEN-TEA-TOWEL, DEMO-SHIBORI-NAPKINS, DEMO-WAXED-TOTE"',
  ].join('\n');
  await owner
    .getByLabel(/CSV file/)
    .setInputFiles({ name: 'kettle.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await owner.getByRole('button', { name: 'Import' }).click();
  await expect(owner.getByRole('heading', { name: 'Summary' })).toBeVisible({ timeout: 20_000 });
  await expect(owner.getByText('1 created')).toBeVisible();

  await page.goto(`${shop().url}/product/enamel-kettle/`);
  await expect(cardsIn(page, 'You may also like…')).toHaveText(['Café au Lait Mug']);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/cart/`);
  await expect(cardsIn(page, 'You may be interested in…')).toHaveText([
    'Linen Tea Towel',
    'Waxed Canvas Tote',
  ]);
  await expectNoAxeViolations(page, { what: 'the cart page with cross-sells' });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
});

test('back in stock: a shopper subscribes by keyboard, the owner restocks, one mail arrives with a working unsubscribe link', async ({
  browser,
  page,
}) => {
  // Two browsers, a back-office edit, a mail to wait for and three axe audits: more than the default 30 s.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${shop().url}/product/espresso-cup-pair/`);
  const form = page.getByRole('region', { name: 'Notify me when available' });
  await expect(form).toBeVisible();
  await expectNoAxeViolations(page, { what: 'an out-of-stock product page with the notify-me form' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);

  // Keyboard only: Tab to the field, type, Enter.
  const email = page.getByLabel('Email address');
  for (let n = 0; n < 120 && !(await email.evaluate((field) => field === document.activeElement)); n++) {
    await page.keyboard.press('Tab');
  }
  await expect(email).toBeFocused();
  await page.keyboard.type('lin@example.com');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/product\/espresso-cup-pair\/\?stock-alert=subscribed#back-in-stock$/);
  await expect(form.getByRole('status')).toHaveText(
    'Thank you. We will send you one email when it is back in stock.',
  );
  await expectNoAxeViolations(page, { what: 'the notify-me form after subscribing' });

  const subject = 'Espresso Cup Pair is back in stock at Storefront';
  const alerts = () => sentMails().filter((mail) => mail.headers.get('subject') === subject);
  expect(alerts()).toHaveLength(0);

  const owner = await ownerPage(browser);
  await setStock(owner, 'espresso', 'Espresso Cup Pair', 5);
  await expect
    .poll(() => alerts().length, { message: `an .eml "${subject}" in DATA_DIR/mail/`, timeout: 15_000 })
    .toBe(1);
  // A second save (stock already there) sends nothing more.
  await setStock(owner, 'espresso', 'Espresso Cup Pair', 6);
  const [mail] = alerts();
  expect(alerts()).toHaveLength(1);
  expect(mail?.headers.get('to')).toContain('lin@example.com');
  expect(mail?.text).toContain(`${PUBLIC_URL}/product/espresso-cup-pair/`);
  const link = /(https:\/\/shop\.example\/back-in-stock\/unsubscribe\/\?token=\S+)/.exec(
    mail?.text ?? '',
  )?.[1];
  expect(link).toBeDefined();
  expect(link).not.toContain('lin');

  // The link's page (opening it changes nothing) passes axe; then, without JavaScript, its button stops the mail.
  const { pathname, search } = new URL(link as string);
  await page.goto(`${shop().url}${pathname}${search}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Back-in-stock emails' })).toBeVisible();
  await expectNoAxeViolations(page, { what: 'the unsubscribe page' });
  const reader = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await reader.goto(`${shop().url}${pathname}${search}`);
  await reader.getByRole('button', { name: 'Stop these emails' }).click();
  await expect(
    reader.getByRole('status').filter({ hasText: 'This address will get no back-in-stock email' }),
  ).toBeVisible();
});

test('product and category pages carry valid JSON-LD', async ({ page }) => {
  const structured = async () =>
    (await page.locator('script[type="application/ld+json"]').allTextContents()).map(
      (text) => JSON.parse(text) as Record<string, unknown>,
    );
  await page.goto(`${shop().url}/product/washed-linen-shirt/`);
  const [product, trail] = await structured();
  expect(product).toMatchObject({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Washed Linen Shirt',
    sku: 'DEMO-LINEN-SHIRT',
    brand: { '@type': 'Brand', name: 'Fern & Flax' },
    offers: { '@type': 'AggregateOffer', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    aggregateRating: { '@type': 'AggregateRating', ratingCount: 31 },
  });
  expect(trail).toMatchObject({ '@type': 'BreadcrumbList' });

  await page.goto(`${shop().url}/product-category/apparel/shirts/`);
  const [list, categoryTrail] = await structured();
  expect(list).toMatchObject({ '@type': 'ItemList' });
  expect((list?.itemListElement as unknown[] | undefined)?.length).toBeGreaterThan(0);
  expect(categoryTrail).toMatchObject({ '@type': 'BreadcrumbList' });
});
