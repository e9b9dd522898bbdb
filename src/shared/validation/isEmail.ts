// Same pattern as @wordpress/url's isEmail, so the shop accepts exactly what WordPress accepts.
// A leading "mailto:" is tolerated because editors paste email links straight from anchors.
const EMAIL_PATTERN = /^(mailto:)?[a-z0-9._%+-]+@[a-z0-9][a-z0-9.-]*\.[a-z]{2,63}$/i;

/** Whether `value` looks like an email address (a shape check, not deliverability). */
export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}
