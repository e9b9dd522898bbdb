import type { Page } from '@playwright/test';

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
