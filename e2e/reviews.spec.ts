import { expect, type Page, test } from '@playwright/test';
import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';
import { expectNoAxeViolations } from './support/axe';
import { fillBilling } from './support/checkout';
import { shopPerSpecFile } from './support/startShop';

/*
 * Reviews in Chromium: a shopper who bought the mug reviews it, the review waits for the owner, the owner approves
 * it at /admin/reviews/, and the stars, count and distribution change on the product page and in the search box's
 * suggestions; a non-buyer's review has no badge and its markup shows as text; the form by keyboard alone,
 * axe-clean and without sideways scrolling at phone width.
 */

const PASSWORD = 'e2e reviews password';
const PHONE = { width: 390, height: 844 };
const MUG = '/product/cafe-au-lait-mug/';
const shop = shopPerSpecFile({ server: { ownerPasswordHash: hashOwnerPassword(PASSWORD) } });

test.describe.configure({ mode: 'serial' });

async function buyMug(page: Page, email: string) {
  await page.goto(`${shop().url}${MUG}`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/checkout/`);
  await fillBilling(page, { 'First name': 'Grace', 'Last name': 'Hopper', 'Email address': email });
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\//);
}

async function writeReview(page: Page, review: { stars: number; text: string; name: string; email: string }) {
  await page.goto(`${shop().url}${MUG}`);
  const form = page.getByRole('form', { name: /Add a review of/ });
  await form.getByRole('radio', { name: new RegExp(`^${review.stars} stars?,`) }).check();
  await form.getByLabel('Your review').fill(review.text);
  await form.getByLabel('Name').fill(review.name);
  await form.getByLabel('Email').fill(review.email);
  await form.getByRole('button', { name: 'Submit review' }).click();
}

async function ownerApproves(page: Page, reviewer: string) {
  await page.goto(`${shop().url}/admin/reviews/`);
  if (await page.getByLabel('Password or token').isVisible()) {
    await page.getByLabel('Password or token').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Reviews' }),
  ).toHaveAttribute('aria-current', 'page');
  const review = page.getByRole('listitem').filter({ hasText: reviewer });
  await review.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Review approved' })).toBeVisible();
}

async function suggestionFor(page: Page, query: string) {
  await page.goto(`${shop().url}/shop/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await page.getByRole('combobox', { name: 'Search products' }).fill(query);
  const listbox = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(listbox).toBeVisible();
  return listbox.getByRole('option', { name: /Café au Lait Mug/ }).first();
}

test('a buyer’s review waits for the owner, then its stars, count and distribution show on the page and in suggestions', async ({
  browser,
}) => {
  const shopper = await (await browser.newContext()).newPage();
  await buyMug(shopper, 'grace@example.com');
  await shopper.goto(`${shop().url}${MUG}`);
  // The imported rating is the starting average.
  await expect(shopper.getByRole('heading', { name: 'Reviews (0)' })).toBeVisible();
  await expect(shopper.getByText('4.8 out of 5 from 44 earlier ratings')).toBeVisible();

  await writeReview(shopper, {
    stars: 4,
    text: 'Just the right size.',
    name: 'Grace Hopper',
    email: 'grace@example.com',
  });
  await expect(shopper.getByText('It will appear once the shop has approved it.')).toBeVisible();
  await expect(shopper.getByRole('heading', { name: 'Reviews (0)' })).toBeVisible();
  await expect(shopper.getByText('Just the right size.')).toHaveCount(0);

  const owner = await (await browser.newContext()).newPage();
  await ownerApproves(owner, 'Grace Hopper');

  await shopper.goto(`${shop().url}${MUG}`);
  await expect(shopper.getByRole('heading', { name: 'Reviews (1)' })).toBeVisible();
  await expect(shopper.getByRole('img', { name: 'Rated 4.0 out of 5 from 1 review' }).first()).toBeVisible();
  const byStars = shopper.getByRole('table', { name: 'Reviews by stars' });
  await expect(byStars.getByRole('row', { name: /^4 stars/ })).toContainText('1 review (100%)');
  await expect(byStars.getByRole('row', { name: /^5 stars/ })).toContainText('0 reviews (0%)');
  const grace = shopper.getByRole('article', { name: 'Grace Hopper' });
  await expect(grace).toContainText('Just the right size.');
  await expect(grace.getByText('Verified owner')).toBeVisible();
  await expect(grace.getByRole('img', { name: 'Rated 4 out of 5' })).toBeVisible();

  const suggestion = await suggestionFor(shopper, 'mug');
  await expect(suggestion).toHaveAccessibleName(/rated 4\.0 out of 5 from 1 review/);
});

test('a non-buyer’s review has no badge, and its markup shows as text', async ({ browser }) => {
  const shopper = await (await browser.newContext()).newPage();
  await writeReview(shopper, {
    stars: 2,
    text: '<b>Too small</b> <img src=x onerror=alert(1)>',
    name: 'Nina <i>N</i>',
    email: 'nina@example.com',
  });
  await expect(shopper.getByText('It will appear once the shop has approved it.')).toBeVisible();
  const owner = await (await browser.newContext()).newPage();
  await ownerApproves(owner, 'Nina <i>N</i>');

  await shopper.goto(`${shop().url}${MUG}`);
  await expect(shopper.getByRole('heading', { name: 'Reviews (2)' })).toBeVisible();
  const nina = shopper.getByRole('article', { name: 'Nina <i>N</i>' });
  await expect(nina).toContainText('<b>Too small</b> <img src=x onerror=alert(1)>');
  await expect(nina.locator('b, img, i')).toHaveCount(0);
  await expect(nina.getByText('Verified owner')).toHaveCount(0);
  // (4 + 2) / 2 = 3.0 from 2.
  await expect(shopper.getByRole('img', { name: 'Rated 3.0 out of 5 from 2 reviews' }).first()).toBeVisible();
  const suggestion = await suggestionFor(shopper, 'mug');
  await expect(suggestion).toHaveAccessibleName(/rated 3\.0 out of 5 from 2 reviews/);
});

test('the review form by keyboard alone on a phone: errors in words beside the fields, nothing lost; axe-clean, no sideways scroll', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto(`${shop().url}${MUG}`);
  await expectNoAxeViolations(page, { what: 'the product page with reviews' });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

  const focused = (selector: string) => () =>
    page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector);
  const tabTo = async (matches: () => Promise<boolean>, what: string) => {
    for (let presses = 0; presses < 120; presses++) {
      if (await matches()) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${what}`);
  };
  // Into the rating group (its first star), then the arrow keys choose.
  await tabTo(focused('input[name="rating"]'), 'the rating');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: /^3 stars,/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /^3 stars,/ })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Your review')).toBeFocused();
  await page.keyboard.type('Typed on a phone.');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Kim');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.keyboard.type('kim-at-example');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Submit review' })).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('alert')).toContainText('Your review was not sent yet');
  const email = page.getByLabel('Email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/Enter a valid email address, like name@example\.com\./);
  await expect(email).toHaveValue('kim-at-example');
  await expect(page.getByLabel('Your review')).toHaveValue('Typed on a phone.');
  await expect(page.getByRole('radio', { name: /^3 stars,/ })).toBeChecked();
  await expectNoAxeViolations(page, { what: 'the review form with an error' });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

  await email.fill('kim@example.com');
  await email.press('Enter');
  await expect(page.getByText('It will appear once the shop has approved it.')).toBeVisible();
});

test('the moderation page is axe-clean and fits a phone', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(`${shop().url}/admin/login?next=/admin/reviews/`);
  await page.getByLabel('Password or token').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  for (const tab of ['pending', 'approved', 'spam']) {
    await page.goto(`${shop().url}/admin/reviews/?status=${tab}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
    await expectNoAxeViolations(page, { soft: true, what: `/admin/reviews/ ${tab}` });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect.soft(overflow, `sideways scroll on the ${tab} tab`).toBeLessThanOrEqual(0);
  }
  await page.goto(`${shop().url}/admin/reviews/?status=approved`);
  await expect(page.getByRole('article', { name: /for Café au Lait Mug/ })).toHaveCount(2);
});
