import type { CartView } from '../../shared/cart/cartTypes';
import { wantsDifferentShipping } from '../../shared/checkout/billingSchema';
import { type CheckoutQuote, quoteCheckout } from '../../shared/checkout/checkoutQuote';
import type { Destination } from '../../shared/checkout/shippingZones';
import { formatMoney } from '../../shared/money/formatMoney';
import type { PaymentMethodId } from '../../shared/orders/orderTypes';
import { PAYMENT_METHODS } from '../../shared/orders/paymentMethods';
import type { CheckoutSettings, ShopConfig } from '../../shared/settings/settingsSchema';

/*
 * The checkout's prices for a cart and the form as posted (or as first shown): the one place the checkout page,
 * `update_order_review` and the order's submit get their shipping choices and totals from, so what the shopper
 * saw and what the order stores are computed alike.
 */

/** Where the form says the order goes: the shipping fields when ticked, else the billing ones. */
export function destinationOf(values: Record<string, string>, settings: CheckoutSettings): Destination {
  const prefix = wantsDifferentShipping(values) ? 'shipping' : 'billing';
  return {
    country: (values[`${prefix}_country`] || settings.defaultCountry).trim().toUpperCase(),
    state: (values[`${prefix}_state`] ?? '').trim().toUpperCase(),
    postcode: (values[`${prefix}_postcode`] ?? '').trim(),
  };
}

export function priceCheckout(
  settings: CheckoutSettings,
  cart: CartView,
  values: Record<string, string>,
): CheckoutQuote {
  return quoteCheckout(settings, cart.lines, destinationOf(values, settings), values.shipping_method || null);
}

/** Why a submit's order cannot be placed as priced: the form is shown again with this status and message. */
export interface QuoteProblem {
  status: 400 | 409;
  notice?: string;
  errors?: Record<string, string>;
  /** Values the form is shown again with (the method now selected). */
  values?: Record<string, string>;
}

/**
 * Checks a submit against its quote: the address must have a shipping method, the chosen one must still be
 * offered, and the total the review showed (`shown_total`, when posted) must be the total computed now. A
 * difference is answered like a changed cart (409), with the form showing the new choices and totals.
 */
export function submittedQuoteProblem(
  quote: CheckoutQuote,
  body: Record<string, string>,
  currency: ShopConfig['shop']['currency'],
): QuoteProblem | null {
  if (!quote.chosen) {
    return {
      status: 400,
      errors: { shipping_method: 'There are no shipping options available for this address.' },
    };
  }
  if (quote.choiceRefused) {
    return {
      status: 409,
      values: { shipping_method: quote.chosen.id },
      notice:
        'The shipping method you chose is not available for this address. Please choose one of the methods shown and check your order.',
    };
  }
  const shown = body.shown_total;
  if (shown !== undefined && shown !== String(quote.totals.total)) {
    return {
      status: 409,
      notice: `The total for this address is ${formatMoney(quote.totals.total, currency)}, not the total shown before. Please review your order.`,
    };
  }
  return null;
}

export interface PaymentMethodOffer {
  id: PaymentMethodId;
  title: string;
  description: string;
}

/**
 * The payment methods on offer, with what each tells the shopper before ordering. Cash on delivery comes first
 * (and is preselected), as it was the shop's only method before bank transfer and check.
 */
export function paymentMethodsOf(settings: CheckoutSettings): PaymentMethodOffer[] {
  const enabled: Record<PaymentMethodId, boolean> = {
    cod: settings.payment.cod.enabled,
    bacs: settings.payment.bacs.enabled,
    cheque: settings.payment.cheque.enabled,
  };
  return PAYMENT_METHODS.filter((method) => enabled[method.id]);
}

/** A paid-on-delivery order is processed at once; a bank transfer or a check is awaited on-hold, as in WooCommerce. */
export function statusForPayment(method: string): 'processing' | 'on-hold' {
  return method === 'bacs' || method === 'cheque' ? 'on-hold' : 'processing';
}
