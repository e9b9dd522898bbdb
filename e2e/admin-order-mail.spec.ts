import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';
import { type ReadMail, readEml } from '../test-support/readEml';
import { shopperOrdersMugs } from './support/checkout';
import { shopPerSpecFile } from './support/startShop';

/*
 * The back office's promise about mail, end to end in Chromium against the built shop: a shopper's order appears in
 * the owner's list, the owner completes it with the Update button, the customer's "order completed" message is
 * written to DATA_DIR/mail/ (the default transport, one `.eml` per message), and the order's notes say it was sent.
 */

const PASSWORD = 'e2e order mail password';
const shop = shopPerSpecFile({ server: { ownerPasswordHash: hashOwnerPassword(PASSWORD) } });

/** Every message the shop has written so far, read. */
function sentMails(): ReadMail[] {
  const dir = join(shop().dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => readEml(readFileSync(join(dir, name), 'utf8')));
}

test('completing an order mails the customer, and the order page says so', async ({ browser, page }) => {
  // A shopper, in a browser of their own, orders a mug.
  const order = await shopperOrdersMugs(browser, shop().url, 1);

  // The owner finds it in the list and completes it.
  await page.goto(`${shop().url}/admin/`);
  await page.getByLabel('Password or token').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/admin\/orders\/$/);
  const row = page.getByRole('row', { name: new RegExp(`#${order}\\b`) });
  await expect(row).toContainText('Grace Hopper');
  await expect(row).toContainText('Processing');
  await row.getByRole('link', { name: `#${order}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order #${order}` })).toBeVisible();
  await page.getByLabel('Status').selectOption('completed');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.locator('.admin-notice')).toHaveText('Order status: Completed.');

  // The message is sent right after it is queued: wait for the file, not for a fixed time.
  const subject = `Your Storefront order #${order} is complete`;
  await expect
    .poll(() => sentMails().filter((mail) => mail.headers.get('subject') === subject).length, {
      message: `an .eml with the subject "${subject}" in DATA_DIR/mail/`,
      timeout: 15_000,
    })
    .toBe(1);
  const completed = sentMails().find((mail) => mail.headers.get('subject') === subject) as ReadMail;
  expect(completed.headers.get('to')).toContain('grace@example.com');
  expect(completed.text).toContain(`Hi Grace, we have finished processing your order #${order}.`);
  expect(completed.text).toContain(`Order #${order}`);
  expect(completed.text).toContain('Café au Lait Mug × 1: $18.00');
  // The default zone's cheapest method for an $18.00 cart is pickup, which costs nothing.
  expect(completed.text).toContain('Shipping: Local pickup (Free)');
  expect(completed.html).toContain(`Order #${order}`);

  // The page rendered after Update may predate the sending; the note is there once it is sent.
  const note = page.getByText(/^Order completed email sent to grace@example\.com on /);
  await expect(async () => {
    await page.reload();
    await expect(note).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
});
