import { expect, type Page, test } from '@playwright/test';
import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';
import { shopPerSpecFile } from './support/startShop';

/*
 * Media uploads are the owner's alone (docs/security.md). In Chromium: the owner logs in at the insights login
 * page and uploads through the REST media endpoint from the page, with the session cookie and the page's nonce;
 * a shopper's browser, which holds a nonce of its own, is refused the same upload.
 */

const PASSWORD = 'e2e owner media password';
const shop = shopPerSpecFile({ server: { ownerPasswordHash: hashOwnerPassword(PASSWORD) } });

/** Uploads a PNG drawn in the page through fetch, as a back-office script would, with the page's REST nonce. */
function uploadFromPage(page: Page) {
  return page.evaluate(async () => {
    const settings = JSON.parse(document.getElementById('shop-settings')?.textContent ?? '{}');
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const context = canvas.getContext('2d');
    if (context) {
      context.fillStyle = '#c8844a';
      context.fillRect(0, 0, 64, 48);
    }
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    const form = new FormData();
    form.append('file', blob as Blob, 'Owner swatch.png');
    const response = await fetch('/wp-json/wp/v2/media', {
      method: 'POST',
      headers: { 'X-WP-Nonce': settings.rest.nonce },
      body: form,
      credentials: 'same-origin',
    });
    return { status: response.status, body: await response.json() };
  });
}

test("the owner's own upload from the page works; a shopper's is refused", async ({ page, browser }) => {
  await page.goto(`${shop().url}/insights/`);
  await page.getByLabel('Password or token').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Insights', level: 1 })).toBeVisible();
  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'shop_owner');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

  // From a shop page of the owner's browser: the cookie goes along, the nonce is the page's.
  await page.goto(`${shop().url}/shop/`);
  const owned = await uploadFromPage(page);
  expect(owned.status).toBe(201);
  expect(owned.body).toMatchObject({ mime_type: 'image/png', media_details: { width: 64, height: 48 } });
  const served = await page.request.get(owned.body.source_url);
  expect(served.status()).toBe(200);

  const shopper = await browser.newContext();
  const shopperPage = await shopper.newPage();
  await shopperPage.goto(`${shop().url}/shop/`);
  const refused = await uploadFromPage(shopperPage);
  expect(refused.status).toBe(401);
  expect(refused.body).toMatchObject({ code: 'unauthorized' });
  await shopper.close();
});
