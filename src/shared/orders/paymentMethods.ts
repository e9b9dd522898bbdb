import type { PaymentMethodId } from './orderTypes';

/** WooCommerce core's offline payment methods, with their titles and what each tells the shopper at checkout. */
export const PAYMENT_METHODS: readonly { id: PaymentMethodId; title: string; description: string }[] = [
  { id: 'cod', title: 'Cash on delivery', description: 'Pay with cash upon delivery.' },
  {
    id: 'bacs',
    title: 'Direct bank transfer',
    description:
      'Make your payment directly into our bank account. Please use your Order ID as the payment reference. Your order will not be shipped until the funds have cleared in our account.',
  },
  {
    id: 'cheque',
    title: 'Check payments',
    description: 'Please send a check to the shop. Your order will ship once it has cleared.',
  },
];

/** The title of an order's payment method, as pages and mails show it. */
export function paymentMethodTitle(id: string): string {
  return PAYMENT_METHODS.find((method) => method.id === id)?.title ?? id;
}
