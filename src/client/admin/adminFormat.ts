import { paymentMethodTitle } from '../../shared/orders/paymentMethods';

/** An ISO time as the owner reads it, in UTC (the server's clock; the same on every device). */
export function formatAdminDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)} UTC`;
}

/** The payment method's title, the one the shopper chose it by. */
export function paymentMethodLabel(id: string): string {
  return paymentMethodTitle(id);
}
