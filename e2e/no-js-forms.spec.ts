import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { shopPerSpecFile } from './support/startShop';

/*
 * Without JavaScript, the forms of a page answered from the render cache: the cached page carries no nonce (nothing
 * of a visitor is cached) and no script asks for one, so the first press is answered with the product page again,
 * for this visitor only, holding its own nonce, what was typed, and a sentence asking to press once more; the
 * second press goes through. Keyboard-only, axe-clean, no sideways scrolling at phone width.
 */

const CUPS = '/product/espresso-cup-pair/';
const PHONE = { width: 390, height: 844 };
const shop = shopPerSpecFile();

/**
 * axe and the layout check run scripts in the page, which a context without JavaScript does not: the page as the
 * no-JS visitor got it is checked in a second, scripted tab of the same origin.
 */
async function checkShownAgain(browser: Browser, noScript: Page, what: string) {
  const html = await noScript.content();
  const checker = await (await browser.newContext({ viewport: PHONE })).newPage();
  await checker.goto(`${shop().url}/healthz`);
  await checker.setContent(html, { waitUntil: 'load' });
  await expectNoAxeViolations(checker, { what });
  expect(
    await checker.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    ),
  ).toBe(true);
  await checker.context().close();
}

/** Opens the page until it comes from the render cache (a background write after start may drop it once). */
async function openCached(page: Page) {
  await expect
    .poll(async () => (await page.goto(`${shop().url}${CUPS}`))?.headers()['x-shop-cache'], {
      timeout: 10_000,
    })
    .toBe('hit');
}

test('back-in-stock and review forms of a cached page work without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const page = await context.newPage();
  await openCached(page);

  // Back in stock, by keyboard alone.
  const email = page.getByLabel('Email address');
  await email.focus();
  await page.keyboard.type('nojs@example.com');
  await page.keyboard.press('Enter');
  const again = page.getByRole('alert').filter({ hasText: 'please press “Notify me” once more' });
  await expect(again).toBeVisible();
  await expect(page.getByLabel('Email address')).toHaveValue('nojs@example.com');
  await checkShownAgain(browser, page, 'the back-in-stock form shown again');
  await page.getByRole('button', { name: 'Notify me' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?stock-alert=subscribed#back-in-stock$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'We will send you one email when it is back in stock' }),
  ).toBeVisible();

  // A review from a fresh visitor of the cached page.
  const reader = await (await browser.newContext({ javaScriptEnabled: false, viewport: PHONE })).newPage();
  await openCached(reader);
  const form = reader.getByRole('form', { name: /Add a review of/ });
  await form.getByRole('radio', { name: /^4 stars,/ }).check();
  await form.getByLabel('Your review').fill('Sent with scripts off.');
  await form.getByLabel('Name').fill('Plain Pat');
  await form.getByLabel('Email').fill('pat@example.com');
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(
    reader.getByRole('alert').filter({ hasText: 'please press “Submit review” once more' }),
  ).toBeVisible();
  await expect(form.getByLabel('Your review')).toHaveValue('Sent with scripts off.');
  await checkShownAgain(browser, reader, 'the review form shown again');
  await form.getByRole('button', { name: 'Submit review' }).click();
  await expect(reader).toHaveURL(/\?review=\w+#reviews$/);
  await expect(reader.getByRole('status').filter({ hasText: 'Thank you for your review' })).toBeVisible();
});
