import { z } from 'zod';
import { isEmail } from '../validation/isEmail';
import { isPhoneNumber } from '../validation/isPhoneNumber';
import {
  isKnownState,
  isPostcodeRequired,
  isValidPostcode,
  normalizePostcode,
  statesOf,
} from './addressRules';
import { ALL_COUNTRIES } from './countries';

/*
 * The checkout's form, checked the same way in the browser (for instant messages) and on the server (which alone
 * decides). Messages are written for the shopper. The browser loads this module (and zod) only when the shopper
 * starts filling the form; the fields it renders are in billingFields.ts.
 */

const required = (label: string, max = 200) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} is too long.`);
const optional = (label: string, max = 200) =>
  z.string().trim().max(max, `${label} is too long.`).default('');

const addressShape = (prefix: 'billing' | 'shipping') => ({
  [`${prefix}_first_name`]: required('First name', 100),
  [`${prefix}_last_name`]: required('Last name', 100),
  [`${prefix}_company`]: optional('Company'),
  [`${prefix}_country`]: z.string({ error: 'Please choose a country.' }).trim(),
  [`${prefix}_address_1`]: required('Street address'),
  [`${prefix}_address_2`]: optional('Address line 2'),
  [`${prefix}_city`]: required('Town / City', 100),
  [`${prefix}_state`]: optional('State', 50),
  [`${prefix}_postcode`]: optional('Postcode / ZIP', 20),
});

const checkoutSchema = z.object({
  ...addressShape('billing'),
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

const shippingSchema = z.object(addressShape('shipping'));

export interface CheckoutAddress {
  firstName: string;
  lastName: string;
  company: string;
  country: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  postcode: string;
}

export interface CheckedCheckout {
  billing: CheckoutAddress & { email: string; phone: string };
  /** Where the order goes: the billing address unless "Ship to a different address?" was ticked. */
  shipping: CheckoutAddress;
  shipToDifferentAddress: boolean;
  paymentMethod: string;
  orderComments: string;
}

export interface CheckoutRules {
  /** Countries the shop sells to; empty: all. */
  allowedCountries: readonly string[];
  /** The payment methods on offer, in order; the first is used when none was posted. */
  paymentMethods: readonly string[];
}

const ALL_COUNTRY_CODES = new Set(ALL_COUNTRIES.map(([code]) => code));

/** The checks an address's fields need together: the country, its state and its postcode's shape. */
function checkAddress(
  values: Record<string, string>,
  prefix: 'billing' | 'shipping',
  rules: CheckoutRules,
  errors: Record<string, string>,
) {
  const country = values[`${prefix}_country`] ?? '';
  const postcode = values[`${prefix}_postcode`] ?? '';
  if (postcode === '' && isPostcodeRequired(country)) {
    errors[`${prefix}_postcode`] ??= 'Postcode / ZIP is required.';
  }
  const allowed =
    ALL_COUNTRY_CODES.has(country) &&
    (rules.allowedCountries.length === 0 || rules.allowedCountries.includes(country));
  if (!allowed) {
    errors[`${prefix}_country`] ??= 'Please choose a country.';
    return;
  }
  const states = statesOf(country);
  const state = values[`${prefix}_state`] ?? '';
  if (states && !isKnownState(country, state)) {
    errors[`${prefix}_state`] ??= state
      ? `Please choose a ${states.label.toLowerCase()} in the list.`
      : `${states.label} is required.`;
  }
  if (postcode !== '' && !isValidPostcode(country, postcode)) {
    const name = ALL_COUNTRIES.find(([code]) => code === country)?.[1] ?? country;
    errors[`${prefix}_postcode`] ??= `Please enter a valid postcode / ZIP for ${name}.`;
  }
}

function addressFrom(values: Record<string, string>, prefix: 'billing' | 'shipping'): CheckoutAddress {
  const country = values[`${prefix}_country`] ?? '';
  return {
    firstName: values[`${prefix}_first_name`] ?? '',
    lastName: values[`${prefix}_last_name`] ?? '',
    company: values[`${prefix}_company`] ?? '',
    country,
    address1: values[`${prefix}_address_1`] ?? '',
    address2: values[`${prefix}_address_2`] ?? '',
    city: values[`${prefix}_city`] ?? '',
    // A state only where the country has a list: a leftover from another country is dropped.
    state: statesOf(country) ? (values[`${prefix}_state`] ?? '') : '',
    postcode: normalizePostcode(values[`${prefix}_postcode`] ?? ''),
  };
}

function collect(issues: readonly z.core.$ZodIssue[], errors: Record<string, string>) {
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
}

/** Whether the form asks to ship elsewhere than the billing address (the checkbox posts `1`). */
export function wantsDifferentShipping(input: Record<string, unknown>): boolean {
  return input.ship_to_different_address === '1';
}

/** The cleaned order details of a valid form, or the first message for each invalid field. */
export function checkBilling(
  input: Record<string, unknown>,
  rules: CheckoutRules = { allowedCountries: [], paymentMethods: ['cod'] },
): { values: CheckedCheckout } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const billing = checkoutSchema.safeParse(input);
  if (!billing.success) collect(billing.error.issues, errors);
  const billingValues = (billing.success ? billing.data : {}) as Record<string, string>;
  if (billing.success) checkAddress(billingValues, 'billing', rules, errors);
  else if (!errors.billing_country) checkAddress(trimmedStrings(input), 'billing', rules, errors);

  const different = wantsDifferentShipping(input);
  let shippingValues: Record<string, string> = {};
  if (different) {
    const shipping = shippingSchema.safeParse(input);
    if (shipping.success) shippingValues = shipping.data as Record<string, string>;
    else collect(shipping.error.issues, errors);
    checkAddress(shipping.success ? shippingValues : trimmedStrings(input), 'shipping', rules, errors);
  }

  const posted = typeof input.payment_method === 'string' ? input.payment_method : '';
  const paymentMethod = posted || rules.paymentMethods[0] || '';
  if (!rules.paymentMethods.includes(paymentMethod))
    errors.payment_method = 'Please choose a payment method.';

  if (Object.keys(errors).length > 0 || !billing.success) return { errors };
  const billingAddress = addressFrom(billingValues, 'billing');
  return {
    values: {
      billing: {
        ...billingAddress,
        email: billingValues.billing_email ?? '',
        phone: billingValues.billing_phone ?? '',
      },
      shipping: different ? addressFrom(shippingValues, 'shipping') : billingAddress,
      shipToDifferentAddress: different,
      paymentMethod,
      orderComments: billingValues.order_comments ?? '',
    },
  };
}

function trimmedStrings(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value.trim()]] : [])),
  );
}
