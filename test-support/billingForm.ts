/** A valid billing form as the checkout posts it, for in-process (`inject`) checkout tests. */
export const BILLING_FORM = {
  billing_first_name: 'Ada',
  billing_last_name: 'Lovelace',
  billing_country: 'US',
  billing_address_1: '12 Analytical Row',
  billing_city: 'Springfield',
  billing_state: 'IL',
  billing_postcode: '62701',
  billing_phone: '+1 555 123 4567',
  billing_email: 'ada@example.com',
};
