// Mirrors @wordpress/url's isPhoneNumber (present in v4.56). Beyond the spec's 6–15 digits it also
// accepts a "tel:" prefix and a single leading "+", because the oracle does and links carry them.
const SEPARATORS = /[-.() ]/g;
const PHONE_PATTERN = /^(tel:)?(\+)?\d{6,15}$/;

/** Whether `value` looks like a phone number once the usual visual separators are ignored. */
export function isPhoneNumber(value: string): boolean {
  return PHONE_PATTERN.test(value.replace(SEPARATORS, ''));
}
