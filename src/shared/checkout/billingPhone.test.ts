import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_FORM } from '../../server/testing/billingForm';
import { createTestApp, type TestApp } from '../../server/testing/createTestApp';
import { checkBilling } from './billingSchema';

/*
 * The checkout's phone check: 6 to 15 digits once dashes, dots, brackets and spaces are ignored (a leading + and
 * tel: allowed), with the message the shopper reads; the same rule in the browser and on the server.
 */
const phoneError = (billing_phone: string) => {
  const result = checkBilling({ ...BILLING_FORM, billing_phone });
  return 'errors' in result ? (result.errors.billing_phone ?? null) : null;
};

describe('the billing phone check', () => {
  it('accepts 6 to 15 digits with the usual separators', () => {
    expect(phoneError('123456')).toBeNull();
    expect(phoneError('123456789012345')).toBeNull();
    expect(phoneError('+44 (20) 7946-0000')).toBeNull();
    expect(phoneError('020.7946.0000')).toBeNull();
    expect(phoneError('  +1 555 123 4567  ')).toBeNull();
  });

  it('refuses too few or too many digits, letters and other characters, with a readable message', () => {
    for (const bad of ['12345', '1234567890123456', '555-CALL-NOW', '12345/6789', '++441234567', '#123456']) {
      expect(phoneError(bad), bad).toBe('Please enter a valid phone number.');
    }
    expect(phoneError('')).toBe('Phone is required.');
    expect(phoneError('   ')).toBe('Phone is required.');
  });
});

describe('the checkout page with a bad phone number', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(() => shop.close());

  it('answers the form with the message next to the field, and makes no order', async () => {
    const headers = { host: 'shop.test' };
    const added = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=add_to_cart',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'product_id=1021&quantity=1',
    });
    const cookie = added.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
    const page = await shop.app.inject({ method: 'GET', url: '/checkout/', headers: { ...headers, cookie } });
    const hidden = (name: string) =>
      new RegExp(`<input type="hidden" name="${name}" value="([^"]*)"`).exec(page.body)?.[1] ?? '';
    const ordersBefore = await shop.query('SELECT id FROM orders');
    const response = await shop.app.inject({
      method: 'POST',
      url: '/checkout/',
      headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...BILLING_FORM,
        billing_phone: '12345',
        _wpnonce: hidden('_wpnonce'),
        cart_hash: hidden('cart_hash'),
        checkout_key: hidden('checkout_key'),
      }).toString(),
    });
    expect(response.statusCode).toBe(400); // the form again, with its messages
    expect(response.body).toMatch(
      /<span id="billing_phone-error" class="field-error">Please enter a valid phone number\.<\/span>/,
    );
    expect(response.body).toMatch(/<input[^>]*id="billing_phone"[^>]*aria-invalid="true"/);
    expect(await shop.query('SELECT id FROM orders')).toEqual(ordersBefore);
  });
});
