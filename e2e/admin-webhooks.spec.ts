import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  startWebhookReceiver,
  verifyWooCommerceSignature,
  type WebhookReceiver,
} from '../test-support/webhookReceiver';
import { expectNoAxeViolations } from './support/axe';
import { shopperOrdersMugs } from './support/checkout';
import { shopPerSpecFile } from './support/startShop';

/*
 * The owner's webhooks in Chromium, by keyboard alone at phone width: adding one (the shop makes the secret and
 * pings the URL), a shopper's order delivered to a local receiver that checks the signature, and the delivery in
 * the webhook's log; every page axe-clean and without sideways scrolling at 390 px.
 */

const PASSWORD = 'e2e webhooks password';
const PHONE = { width: 390, height: 844 };
const run = promisify(execFile);
const shop = shopPerSpecFile();

let receiver: WebhookReceiver | undefined;
test.afterAll(async () => receiver?.close());

/** Presses Tab until `target` has the focus (one stop at a time, as a keyboard user moves). */
async function tabTo(page: Page, target: Locator, most = 40) {
  for (let n = 0; n < most && !(await target.evaluate((each) => each === document.activeElement)); n++)
    await page.keyboard.press('Tab');
  await expect(target).toBeFocused();
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test('the owner adds a webhook by keyboard and sees an order delivered in its log', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  await run(process.execPath, ['dist/server/owner.js', 'set-password'], {
    env: { ...process.env, ...shop().env, OWNER_PASSWORD: PASSWORD },
  });
  await page.setViewportSize(PHONE);
  await page.goto(`${shop().url}/admin/login?next=${encodeURIComponent('/admin/settings/webhooks/')}`);
  await page.getByLabel('Password or token').focus();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Webhooks' }),
  ).toHaveAttribute('aria-current', 'page');
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'webhooks list (empty)' });

  await tabTo(page, page.getByRole('link', { name: 'Add webhook' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Add webhook' })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'add webhook form' });

  // The receiver learns the secret from the page once the shop has made it, as an integration would be told.
  receiver = await startWebhookReceiver('', () => 200);

  await tabTo(page, page.getByLabel('Name'));
  await page.keyboard.type('Label printer');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Status')).toBeFocused(); // Active
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Topic')).toBeFocused(); // Order created
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Delivery URL')).toBeFocused();
  await page.keyboard.type('not an address');
  await tabTo(page, page.getByRole('button', { name: 'Save webhook' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toContainText('Nothing was saved: one field needs a change.');
  await expect(page.getByLabel('Delivery URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Enter a full address, like https://example.com/hooks/orders.')).toBeVisible();
  // What a screen reader reads with the field: the error first, then the hint.
  await expect(page.getByLabel('Delivery URL')).toHaveAccessibleDescription(
    'Enter a full address, like https://example.com/hooks/orders. Where the JSON is posted, http:// or https://.',
  );
  await expect(page.getByLabel('Secret')).not.toHaveAttribute('aria-invalid');
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'add webhook form with an error' });

  await tabTo(page, page.getByLabel('Delivery URL'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(receiver.url);
  await tabTo(page, page.getByRole('button', { name: 'Save webhook' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText('Webhook saved. The delivery URL answered the ping.');
  const secret = await page.getByLabel('Secret').inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await expect(page.getByText('Nothing delivered yet.')).toBeVisible();

  const order = await shopperOrdersMugs(browser, shop().url, 1);
  const [, delivery] = await receiver.waitFor(2); // the ping, then the order
  expect(delivery?.headers['x-wc-webhook-topic']).toBe('order.created');
  expect(delivery?.json).toMatchObject({ id: order });
  expect(
    verifyWooCommerceSignature(
      delivery?.rawBody ?? Buffer.alloc(0),
      String(delivery?.headers['x-wc-webhook-signature']),
      secret,
    ),
  ).toBe(true);

  // The delivering process writes the attempt to the log once the receiver has answered: a reload right after the
  // receiver got the order may come first (seen on PostgreSQL under CI load), so the owner reloads until it shows.
  const log = page.getByRole('region', { name: 'Deliveries table' });
  await expect(async () => {
    await page.reload();
    await expect(log.getByRole('row')).toHaveCount(2, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(log).toContainText('HTTP 200');
  await expect(log).toContainText(`order.created ${order}`);
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'webhook with its delivery log' });
  await tabTo(page, log); // the scrollable log is reachable by keyboard

  await page.goto(`${shop().url}/admin/settings/webhooks/`);
  await expect(page.getByRole('link', { name: 'Label printer' })).toBeVisible();
  expect(await noSidewaysScroll(page)).toBe(true);
  await expectNoAxeViolations(page, { what: 'webhooks list' });
});
