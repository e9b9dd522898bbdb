export const BILLING_FORM: Record<string, string>;
