/*
 * The checkout's billing fields as the form shows them, without the rules that check them (billingSchema.ts), so
 * the checkout page renders without loading zod.
 */

interface BillingFieldSpec {
  name: string;
  label: string;
  type: string;
  autoComplete: string;
  required: boolean;
}

export const COUNTRIES: [code: string, name: string][] = [
  ['US', 'United States (US)'],
  ['GB', 'United Kingdom (UK)'],
  ['CA', 'Canada'],
  ['AU', 'Australia'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['NL', 'Netherlands'],
  ['ES', 'Spain'],
  ['IT', 'Italy'],
  ['IE', 'Ireland'],
  ['NZ', 'New Zealand'],
];

export const BILLING_FIELDS = [
  {
    name: 'billing_first_name',
    label: 'First name',
    type: 'text',
    autoComplete: 'given-name',
    required: true,
  },
  {
    name: 'billing_last_name',
    label: 'Last name',
    type: 'text',
    autoComplete: 'family-name',
    required: true,
  },
  {
    name: 'billing_company',
    label: 'Company name (optional)',
    type: 'text',
    autoComplete: 'organization',
    required: false,
  },
  {
    name: 'billing_country',
    label: 'Country / Region',
    type: 'select',
    autoComplete: 'country',
    required: true,
  },
  {
    name: 'billing_address_1',
    label: 'Street address',
    type: 'text',
    autoComplete: 'address-line1',
    required: true,
  },
  {
    name: 'billing_address_2',
    label: 'Apartment, suite, unit, etc. (optional)',
    type: 'text',
    autoComplete: 'address-line2',
    required: false,
  },
  {
    name: 'billing_city',
    label: 'Town / City',
    type: 'text',
    autoComplete: 'address-level2',
    required: true,
  },
  {
    name: 'billing_postcode',
    label: 'Postcode / ZIP',
    type: 'text',
    autoComplete: 'postal-code',
    required: true,
  },
  { name: 'billing_phone', label: 'Phone', type: 'tel', autoComplete: 'tel', required: true },
  { name: 'billing_email', label: 'Email address', type: 'email', autoComplete: 'email', required: true },
] as const satisfies readonly BillingFieldSpec[];

/** Every field the checkout posts: the billing fields and the order notes. */
export type BillingField = (typeof BILLING_FIELDS)[number]['name'] | 'order_comments';
