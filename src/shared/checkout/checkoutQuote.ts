import {
  cheapestRate,
  type Destination,
  type ShippingRate,
  type ShippingZoneSetting,
  shippingRatesFor,
} from './shippingZones';
import { type TaxRateSetting, taxIncluded, taxOnTop, taxRateFor } from './tax';

/*
 * What an order costs delivered to an address: the shipping choices, the one in use, and the totals. The server
 * computes it for the review, for `update_order_review` and again when the order is placed (it never takes the
 * posted totals); everything is in minor units.
 */

export interface QuoteSettings {
  pricesIncludeTax: boolean;
  taxRates: readonly TaxRateSetting[];
  shippingZones: readonly ShippingZoneSetting[];
}

export interface QuotedLine {
  key: string;
  /** Unit price × quantity, as prices are entered. */
  lineTotal: number;
  /** The tax in (or on top of) lineTotal. */
  lineTax: number;
}

export interface CheckoutTotals {
  /** The items as prices are entered (with tax when prices include it). */
  subtotal: number;
  /** Shipping without its tax. */
  shippingTotal: number;
  shippingTax: number;
  /** The items' tax (included in subtotal when prices include tax). */
  itemsTax: number;
  /** Items' tax and shipping tax. */
  taxTotal: number;
  total: number;
}

export interface CheckoutQuote {
  rates: ShippingRate[];
  /** The rate the order uses: the shopper's choice when still offered, else the cheapest; null with no rates. */
  chosen: ShippingRate | null;
  /** True when the shopper chose a rate the address no longer offers (the cheapest is used instead). */
  choiceRefused: boolean;
  taxLabel: string;
  lines: QuotedLine[];
  totals: CheckoutTotals;
}

export function quoteCheckout(
  settings: QuoteSettings,
  lines: readonly { key: string; lineTotal: number }[],
  destination: Destination,
  chosenRateId: string | null,
): CheckoutQuote {
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  const rates = shippingRatesFor(settings.shippingZones, destination, subtotal);
  const asked = chosenRateId ? (rates.find((rate) => rate.id === chosenRateId) ?? null) : null;
  const chosen = asked ?? cheapestRate(rates);
  const taxRate = taxRateFor(settings.taxRates, destination);
  const percent = taxRate?.rate ?? 0;
  const lineTax = (amount: number) =>
    settings.pricesIncludeTax ? taxIncluded(amount, percent) : taxOnTop(amount, percent);
  const quoted = lines.map((line) => ({
    key: line.key,
    lineTotal: line.lineTotal,
    lineTax: lineTax(line.lineTotal),
  }));
  const itemsTax = quoted.reduce((sum, line) => sum + line.lineTax, 0);
  const shippingTotal = chosen?.cost ?? 0;
  // Shipping costs are entered without tax, whichever way product prices are.
  const shippingTax = taxRate?.shipping ? taxOnTop(shippingTotal, percent) : 0;
  const itemsWithTax = settings.pricesIncludeTax ? subtotal : subtotal + itemsTax;
  return {
    rates,
    chosen,
    choiceRefused: chosenRateId !== null && chosenRateId !== '' && asked === null,
    taxLabel: taxRate?.label ?? 'Tax',
    lines: quoted,
    totals: {
      subtotal,
      shippingTotal,
      shippingTax,
      itemsTax,
      taxTotal: itemsTax + shippingTax,
      total: itemsWithTax + shippingTotal + shippingTax,
    },
  };
}
