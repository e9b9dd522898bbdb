import { describe, expect, it } from 'vitest';
import { statesOf } from './addressRules';
import { checkBilling } from './billingSchema';

const US_ADDRESS = {
  billing_first_name: 'Ada',
  billing_last_name: 'Lovelace',
  billing_country: 'US',
  billing_address_1: '1 Market St',
  billing_city: 'San Francisco',
  billing_state: 'CA',
  billing_postcode: '94105',
  billing_phone: '+1 415 555 0100',
  billing_email: 'ada@example.com',
};
const RULES: { allowedCountries: string[]; paymentMethods: string[] } = {
  allowedCountries: [],
  paymentMethods: ['cod', 'bacs', 'cheque'],
};

function errorsFor(input: Record<string, string>, rules = RULES) {
  const result = checkBilling(input, rules);
  return 'errors' in result ? result.errors : {};
}

describe('postcodes per country', () => {
  it('accepts each country its own postcodes', () => {
    const cases: [country: string, state: string, postcode: string][] = [
      ['US', 'CA', '94105'],
      ['US', 'NY', '10001-1234'],
      ['CA', 'ON', 'K1A 0B1'],
      ['GB', '', 'SW1A 1AA'],
      ['GB', '', 'sw1a1aa'],
      ['AU', 'NSW', '2000'],
      ['IN', 'MH', '400001'],
      ['BR', 'SP', '01310-100'],
      ['DE', '', '10115'],
      ['NL', '', '1012 AB'],
      ['NZ', '', '6011'],
    ];
    for (const [country, state, postcode] of cases) {
      expect(
        errorsFor({
          ...US_ADDRESS,
          billing_country: country,
          billing_state: state,
          billing_postcode: postcode,
        }),
        `${country} ${postcode}`,
      ).toEqual({});
    }
  });

  it('refuses a UK postcode for a US address, and a ZIP for a UK one', () => {
    expect(errorsFor({ ...US_ADDRESS, billing_postcode: 'SW1A 1AA' })).toEqual({
      billing_postcode: 'Please enter a valid postcode / ZIP for United States (US).',
    });
    expect(
      errorsFor({ ...US_ADDRESS, billing_country: 'GB', billing_state: '', billing_postcode: '94105' }),
    ).toEqual({
      billing_postcode: 'Please enter a valid postcode / ZIP for United Kingdom (UK).',
    });
    expect(errorsFor({ ...US_ADDRESS, billing_postcode: '9410' })).toHaveProperty('billing_postcode');
    expect(
      errorsFor({ ...US_ADDRESS, billing_country: 'CA', billing_state: 'ON', billing_postcode: 'D1A 0B1' }),
    ).toHaveProperty('billing_postcode');
  });

  it('needs no postcode where the country has none, and any postcode where it has no known shape', () => {
    expect(
      errorsFor({ ...US_ADDRESS, billing_country: 'HK', billing_state: '', billing_postcode: '' }),
    ).toEqual({});
    expect(
      errorsFor({ ...US_ADDRESS, billing_country: 'AR', billing_state: '', billing_postcode: 'C1000' }),
    ).toEqual({});
    expect(errorsFor({ ...US_ADDRESS, billing_postcode: '' })).toEqual({
      billing_postcode: 'Postcode / ZIP is required.',
    });
  });

  it('stores the postcode in capitals with single spaces', () => {
    const result = checkBilling(
      { ...US_ADDRESS, billing_country: 'GB', billing_state: '', billing_postcode: ' sw1a   1aa ' },
      RULES,
    );
    expect('values' in result && result.values.billing.postcode).toBe('SW1A 1AA');
  });
});

describe('states', () => {
  it('has lists for the US, Canada, Australia, India and Brazil, and none for the UK or Germany', () => {
    expect(statesOf('US')?.states).toHaveLength(54);
    expect(statesOf('CA')?.label).toBe('Province');
    expect(statesOf('AU')?.states).toHaveLength(8);
    expect(statesOf('IN')?.states).toHaveLength(36);
    expect(statesOf('BR')?.states).toHaveLength(27);
    expect(statesOf('GB')).toBeNull();
    expect(statesOf('DE')).toBeNull();
  });

  it("requires a state of the country's list where it has one, and drops a state where it has none", () => {
    expect(errorsFor({ ...US_ADDRESS, billing_state: '' })).toEqual({ billing_state: 'State is required.' });
    expect(errorsFor({ ...US_ADDRESS, billing_state: 'ON' })).toEqual({
      billing_state: 'Please choose a state in the list.',
    });
    const gb = checkBilling(
      { ...US_ADDRESS, billing_country: 'GB', billing_state: 'CA', billing_postcode: 'SW1A 1AA' },
      RULES,
    );
    expect('values' in gb && gb.values.billing.state).toBe('');
  });
});

describe('countries, shipping address and payment', () => {
  it('offers every country unless the shop restricts them', () => {
    expect(
      errorsFor({ ...US_ADDRESS, billing_country: 'JP', billing_state: '', billing_postcode: '100-0001' }),
    ).toEqual({});
    expect(errorsFor(US_ADDRESS, { ...RULES, allowedCountries: ['GB', 'IE'] })).toEqual({
      billing_country: 'Please choose a country.',
    });
    expect(errorsFor({ ...US_ADDRESS, billing_country: 'XX' })).toHaveProperty('billing_country');
  });

  it('checks and keeps a different shipping address only when asked to ship there', () => {
    const shipping = {
      ship_to_different_address: '1',
      shipping_first_name: 'Charles',
      shipping_last_name: 'Babbage',
      shipping_country: 'CA',
      shipping_address_1: '24 Sussex Dr',
      shipping_city: 'Ottawa',
      shipping_state: 'ON',
      shipping_postcode: 'K1M 1M4',
    };
    const result = checkBilling({ ...US_ADDRESS, ...shipping }, RULES);
    expect('values' in result && result.values.shipping).toMatchObject({
      country: 'CA',
      state: 'ON',
      city: 'Ottawa',
    });
    expect(errorsFor({ ...US_ADDRESS, ...shipping, shipping_postcode: '94105' })).toEqual({
      shipping_postcode: 'Please enter a valid postcode / ZIP for Canada.',
    });
    // Unticked, the shipping fields are ignored and the order ships to the billing address.
    const billingOnly = checkBilling(
      { ...US_ADDRESS, ...shipping, ship_to_different_address: '', shipping_postcode: 'x' },
      RULES,
    );
    expect('values' in billingOnly && billingOnly.values.shipping).toMatchObject({
      country: 'US',
      city: 'San Francisco',
    });
  });

  it('takes one of the payment methods on offer, the first when none is posted', () => {
    const none = checkBilling(US_ADDRESS, RULES);
    expect('values' in none && none.values.paymentMethod).toBe('cod');
    const bacs = checkBilling({ ...US_ADDRESS, payment_method: 'bacs' }, RULES);
    expect('values' in bacs && bacs.values.paymentMethod).toBe('bacs');
    expect(errorsFor({ ...US_ADDRESS, payment_method: 'bitcoin' })).toEqual({
      payment_method: 'Please choose a payment method.',
    });
  });
});
