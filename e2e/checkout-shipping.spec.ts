import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { readShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

/*
 * A checkout that ships: a US address with its state and ZIP, the shipping choices and the totals with tax
 * recomputed without a reload, and the order stored with those totals. The mug is $18.00; California's rate is
 * 7.25 % and taxes shipping; the default zone offers flat rate $5.00, free shipping from $50.00 and pickup.
 */

const shop = shopPerSpecFile({
  checkout: { taxRates: [{ country: 'US', state: 'CA', rate: 7.25, label: 'CA tax' }] },
});

async function checkoutWithMugs(page: Page, quantity: number) {
  await page.goto(`${shop().url}/product/cafe-au-lait-mug/`);
  await page.getByLabel('Quantity').fill(String(quantity));
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/checkout/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

async function fillCaliforniaAddress(page: Page) {
  const form = page.locator('form.checkout');
  await form.getByRole('combobox', { name: 'Country / Region' }).selectOption('US');
  await form.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await form.getByRole('textbox', { name: 'Last name' }).fill('Lovelace');
  await form.getByRole('textbox', { name: 'Street address' }).fill('1 Market St');
  await form.getByRole('textbox', { name: 'Town / City' }).fill('San Francisco');
  await form.getByRole('combobox', { name: 'State' }).selectOption('CA');
  await form.getByRole('textbox', { name: 'Postcode / ZIP' }).fill('94105');
  await form.getByRole('textbox', { name: 'Phone' }).fill('+1 415 555 0100');
  await form.getByRole('textbox', { name: 'Email address' }).fill('ada@example.com');
}

function review(page: Page): Locator {
  return page.getByRole('complementary', { name: 'Your order' });
}

test('a US address with state and ZIP gets its shipping options and taxed totals, and the order keeps them', async ({
  page,
}) => {
  await checkoutWithMugs(page, 2);
  await fillCaliforniaAddress(page);

  // $36.00 is under the free-shipping minimum: flat rate and pickup, the cheaper (pickup) preselected.
  const methods = page.getByRole('group', { name: 'Shipping method' });
  await expect(methods.getByRole('radio')).toHaveCount(2);
  await expect(methods.getByRole('radio', { name: 'Local pickup' })).toBeChecked();
  // 36.00 × 7.25 % = 2.61
  await expect(review(page).getByRole('row', { name: /CA tax/ })).toContainText('$2.61');
  await expect(review(page).getByRole('row', { name: /Total/ })).toContainText('$38.61');

  // Flat rate: 5.00 and its tax 0.3625 → 0.36; total 36.00 + 2.61 + 5.00 + 0.36.
  await methods.getByRole('radio', { name: 'Flat rate: $5.00' }).check();
  await expect(review(page).getByRole('row', { name: /Shipping/ })).toContainText('Flat rate: $5.00');
  await expect(review(page).getByRole('row', { name: /CA tax/ })).toContainText('$2.97');
  await expect(review(page).getByRole('row', { name: /Total/ })).toContainText('$43.97');

  await page.getByRole('radio', { name: 'Direct bank transfer' }).check();
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
  await expect(page.getByRole('heading', { name: 'Our bank details' })).toBeVisible();
  await expect(page.locator('.order_details').getByRole('row', { name: /Total/ }).last()).toContainText(
    '$43.97',
  );
  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
  const row = readShopDatabase(shop().dataDir, (db) =>
    db
      .prepare(
        'SELECT status, subtotal, shipping_method_id, shipping_total, shipping_tax, tax_total, total, shipping_address FROM orders WHERE id = ?',
      )
      .get(orderId),
  ) as Record<string, unknown>;
  expect(row).toMatchObject({
    status: 'on-hold',
    subtotal: 3600,
    shipping_method_id: 'flat_rate:1',
    shipping_total: 500,
    shipping_tax: 36,
    tax_total: 297,
    total: 4397,
  });
  expect(JSON.parse(String(row.shipping_address))).toMatchObject({ state: 'CA', postcode: '94105' });
});

test('a UK postcode is refused for a US address before anything is sent', async ({ page }) => {
  await checkoutWithMugs(page, 1);
  await fillCaliforniaAddress(page);
  await page.locator('form.checkout').getByRole('textbox', { name: 'Postcode / ZIP' }).fill('SW1A 1AA');
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/checkout/') posted += 1;
  });
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Please enter a valid postcode / ZIP for United States (US).',
  );
  await expect(page.locator('#billing_postcode')).toHaveAttribute('aria-invalid', 'true');
  expect(posted).toBe(0);
});

test('a mini-cart change on the checkout page updates the order summary (update_checkout), and the order is for it', async ({
  page,
}) => {
  await checkoutWithMugs(page, 2);
  await fillCaliforniaAddress(page);
  await expect(review(page).getByRole('row', { name: /Total/ })).toContainText('$38.61');

  await page.getByRole('link', { name: /^Cart 2 items/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  await expect(drawer).toBeVisible();
  await drawer.getByLabel(/Quantity/).fill('3');
  // Three mugs, $54.00: free shipping is offered now; the method in use (pickup) is kept while offered.
  // Tax 54.00 × 7.25 % = 3.915 → 3.92.
  await expect(review(page)).toContainText('× 3');
  await expect(review(page).getByRole('row', { name: /CA tax/ })).toContainText('$3.92');
  await expect(review(page).getByRole('row', { name: /Total/ })).toContainText('$57.92');
  await expect(page.getByRole('radio', { name: 'Free shipping' })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'Local pickup' })).toBeChecked();
  await drawer.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
  const stored = readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT total, shipping_method_id FROM orders WHERE id = ?').get(orderId),
  );
  expect(stored).toEqual({ total: 5792, shipping_method_id: 'local_pickup:3' });
});

/** Presses Tab until `target` has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator, maxPresses = 150) {
  for (let press = 0; press < maxPresses; press++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

test('the address, the shipping address and the methods work with the keyboard alone, and axe finds nothing', async ({
  page,
}) => {
  await checkoutWithMugs(page, 2);
  await expectNoAxeViolations(page, { what: 'the checkout' });
  const form = page.locator('form.checkout');
  const typeInto = async (target: Locator, text: string) => {
    await tabTo(page, target);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(text);
  };
  await page.locator('#main').focus();
  await tabTo(page, form.getByRole('combobox', { name: 'Country / Region' }));
  await page.keyboard.type('Canada');
  await expect(form.getByRole('combobox', { name: 'Country / Region' })).toHaveValue('CA');
  // Canada's states are provinces.
  await tabTo(page, form.getByRole('combobox', { name: 'Province' }));
  await page.keyboard.type('Ontario');
  await expect(form.getByRole('combobox', { name: 'Province' })).toHaveValue('ON');
  await typeInto(form.getByRole('textbox', { name: 'Postcode / ZIP' }), 'K1A 0B1');

  // Shipping elsewhere: Space ticks the box and its fields appear.
  await tabTo(page, form.getByRole('checkbox', { name: 'Ship to a different address?' }));
  await page.keyboard.press('Space');
  const shippingFields = form.locator('.shipping_address');
  await expect(shippingFields.getByRole('combobox', { name: 'Country / Region' })).toBeVisible();

  // The methods are a radio group: arrows move the choice, and the totals follow.
  await tabTo(page, form.getByRole('radio', { name: 'Local pickup' }));
  await page.keyboard.press('ArrowUp');
  await expect(form.getByRole('radio', { name: 'Flat rate: $5.00' })).toBeChecked();
  await expect(review(page).getByRole('row', { name: /Total/ })).toContainText('$41.00');
  await tabTo(page, form.getByRole('radio', { name: 'Cash on delivery' }));
  await page.keyboard.press('ArrowDown');
  await expect(form.getByRole('radio', { name: 'Direct bank transfer' })).toBeChecked();

  await expectNoAxeViolations(page, { what: 'the checkout with a shipping address and its methods' });

  // Each radio sits beside its label, on the label's first line (it once stood alone on a line above it).
  for (const radio of await form.getByRole('radio').all()) {
    const id = await radio.getAttribute('id');
    const [radioBox, labelBox] = await Promise.all([
      radio.boundingBox(),
      form.locator(`label[for="${id}"]`).boundingBox(),
    ]);
    if (!radioBox || !labelBox) throw new Error(`radio ${id} or its label is not shown`);
    const radioMiddle = radioBox.y + radioBox.height / 2;
    expect(radioBox.x + radioBox.width, `${id} left of its label`).toBeLessThanOrEqual(labelBox.x);
    expect(radioMiddle, `${id} on its label's first line`).toBeGreaterThanOrEqual(labelBox.y);
    expect(radioMiddle, `${id} on its label's first line`).toBeLessThanOrEqual(labelBox.y + 24);
  }
});
