// A valid billing form as the checkout posts it (field names of docs/contract.md), for shoppers scripted without a
// browser: the load benchmark and the crash-safety test.
export const BILLING_FORM = {
  billing_first_name: 'Ada',
  billing_last_name: 'Lovelace',
  billing_country: 'GB',
  billing_address_1: '12 Analytical Row',
  billing_city: 'London',
  billing_postcode: 'NW1 2AB',
  billing_phone: '+44 20 7946 0000',
  billing_email: 'ada@example.com',
  payment_method: 'cod',
};
