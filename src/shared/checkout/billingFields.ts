/*
 * The checkout's billing fields as the form shows them, without the rules that check them (billingSchema.ts), so
 * the checkout page renders without loading zod.
 */

export interface BillingFieldSpec {
  name: string;
  label: string;
  type: string;
  autoComplete: string;
  required: boolean;
}

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
    name: 'billing_state',
    label: 'State / County',
    type: 'state',
    autoComplete: 'address-level1',
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

/** The address fields of "Ship to a different address?": the billing ones without phone and email. */
export const SHIPPING_FIELDS = BILLING_FIELDS.filter(
  (field) => field.name !== 'billing_phone' && field.name !== 'billing_email',
).map((field) => ({
  ...field,
  name: field.name.replace('billing_', 'shipping_') as ShippingField,
  autoComplete: `shipping ${field.autoComplete}`,
}));

type BillingAddressField = Exclude<
  (typeof BILLING_FIELDS)[number]['name'],
  'billing_phone' | 'billing_email'
>;
export type ShippingField = BillingAddressField extends `billing_${infer Rest}` ? `shipping_${Rest}` : never;

/** Every field the checkout posts: the billing fields and the order notes. */
export type BillingField = (typeof BILLING_FIELDS)[number]['name'] | 'order_comments';
