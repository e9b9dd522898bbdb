import { z } from 'zod';
import { isEmail } from '../validation/isEmail';
import { isPhoneNumber } from '../validation/isPhoneNumber';
import { type BillingField, COUNTRIES } from './billingFields';

/*
 * The checkout's billing form, checked the same way in the browser (for instant messages) and on the server
 * (which alone decides). Messages are written for the shopper. The browser loads this module (and zod) only when
 * the shopper starts filling the form; the fields it renders are in billingFields.ts.
 */

const required = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is too long.`);

const billingSchema = z.object({
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
} satisfies Record<BillingField, z.ZodType>);

type BillingForm = z.output<typeof billingSchema>;

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
