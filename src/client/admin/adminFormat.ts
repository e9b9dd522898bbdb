/** An ISO time as the owner reads it, in UTC (the server's clock; the same on every device). */
export function formatAdminDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 10)} ${date.toISOString().slice(11, 16)} UTC`;
}

const PAYMENT_METHODS: Record<string, string> = {
  cod: 'Cash on delivery',
  bacs: 'Direct bank transfer',
  cheque: 'Check payments',
};

export function paymentMethodLabel(id: string): string {
  return PAYMENT_METHODS[id] ?? id;
}
