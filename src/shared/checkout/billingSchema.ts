import { z } from 'zod';
import { isEmail } from '../validation/isEmail';
import { isPhoneNumber } from '../validation/isPhoneNumber';

/*
 * The checkout's billing form, checked the same way in the browser (for instant messages) and on the server
 * (which alone decides). Messages are written for the shopper.
 */

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

const required = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is too long.`);

export const billingSchema = z.object({
  billing_first_name: required('First name', 100),
  billing_last_name: required('Last name', 100),
  billing_company: z.string().trim().max(200, 'Company is too long.').default(''),
  billing_country: z
    .string({ error: 'Please choose a country.' })
    .trim()
    .refine((code) => COUNTRIES.some(([known]) => known === code), 'Please choose a country.'),
  billing_address_1: required('Street address'),
  billing_address_2: z.string().trim().max(200, 'Address line 2 is too long.').default(''),
  billing_city: required('Town / City', 100),
  billing_postcode: required('Postcode / ZIP', 20),
  billing_phone: z
    .string({ error: 'Phone is required.' })
    .trim()
    .min(1, 'Phone is required.')
    .refine(isPhoneNumber, 'Please enter a valid phone number.'),
  billing_email: z
    .string({ error: 'Email address is required.' })
    .trim()
    .min(1, 'Email address is required.')
    // isEmail follows @wordpress/url, which accepts a mailto: prefix; an order needs a plain address.
    .refine((value) => isEmail(value) && !/^mailto:/i.test(value), 'Please enter a valid email address.'),
  order_comments: z.string().trim().max(2000, 'Order notes are too long.').default(''),
});

export type BillingForm = z.output<typeof billingSchema>;
export type BillingField = keyof BillingForm;

export const BILLING_FIELDS: {
  name: BillingField;
  label: string;
  type: string;
  autoComplete: string;
  required: boolean;
}[] = [
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
];

/** The cleaned values of a valid form, or the first message for each invalid field. */
export function checkBilling(
  input: Record<string, unknown>,
): { values: BillingForm } | { errors: Record<string, string> } {
  const result = billingSchema.safeParse(input);
  if (result.success) return { values: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return { errors };
}
