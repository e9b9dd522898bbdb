import { type Browser, expect, type Page } from '@playwright/test';

export const VALID_BILLING = {
  'First name': 'Ada',
  'Last name': 'Lovelace',
  'Street address': '12 Analytical Row',
  'Town / City': 'London',
  'Postcode / ZIP': 'NW1 2AB',
  Phone: '+44 20 7946 0000',
  'Email address': 'ada@example.com',
};

/** Fills the checkout's billing form the way a shopper does, by the fields' labels. */
export async function fillBilling(
  page: Page,
  overrides: Partial<Record<keyof typeof VALID_BILLING, string>> = {},
) {
  // The first: the billing country (the shipping address, hidden until asked for, has its own).
  await page.getByLabel('Country / Region').first().selectOption('GB');
  for (const [label, value] of Object.entries({ ...VALID_BILLING, ...overrides })) {
    await page.getByLabel(label, { exact: false }).first().fill(value);
  }
}

/**
 * Grace, a shopper in a browser of her own, buys `quantity` Café au Lait Mugs at the shop at `shopUrl`; answers the
 * order's number.
 */
export async function shopperOrdersMugs(browser: Browser, shopUrl: string, quantity = 1): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${shopUrl}/product/cafe-au-lait-mug/`);
  await page.getByLabel('Quantity').fill(String(quantity));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shopUrl}/checkout/`);
  await fillBilling(page, {
    'First name': 'Grace',
    'Last name': 'Hopper',
    'Email address': 'grace@example.com',
  });
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\//);
  const number = Number(new URL(page.url()).pathname.split('/')[3]);
  await context.close();
  return number;
}
