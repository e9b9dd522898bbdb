/*
 * Tax with one standard class, in integer minor units. The rule (docs/checkout.md "Tax"): tax is computed on each
 * line (unit price × quantity) and on shipping, and rounded per line to the minor unit, half away from zero —
 * WooCommerce's default ("round tax at subtotal level" off). With prices entered including tax, a line's tax is
 * the part of its price the rate accounts for: price × rate / (100 + rate).
 */

export interface TaxRateSetting {
  /** ISO country code; `*` for any country. */
  country: string;
  /** State code within the country; empty for the whole country. */
  state: string;
  /** Percent, up to four decimals (7.25 for 7.25 %). */
  rate: number;
  /** What the totals call it: "Tax", "VAT", "Sales tax". */
  label: string;
  /** Whether shipping is taxed at this rate too. */
  shipping: boolean;
}

/** The most specific rate for a location: the state's, else the country's, else the `*` rate; none is no tax. */
export function taxRateFor(
  rates: readonly TaxRateSetting[],
  location: { country: string; state: string },
): TaxRateSetting | null {
  const country = location.country.toUpperCase();
  const state = location.state.toUpperCase();
  const score = (rate: TaxRateSetting): number => {
    const rateCountry = rate.country.toUpperCase();
    const rateState = rate.state.toUpperCase();
    if (rateCountry !== '*' && rateCountry !== country) return -1;
    if (rateState !== '' && rateState !== state) return -1;
    return (rateCountry === '*' ? 0 : 2) + (rateState === '' ? 0 : 1);
  };
  let best: TaxRateSetting | null = null;
  let bestScore = -1;
  for (const rate of rates) {
    const each = score(rate);
    if (each > bestScore) {
      best = rate;
      bestScore = each;
    }
  }
  return best;
}

/** The rate in millionths (7.25 % → 72 500), so the arithmetic stays in integers. */
function ratePpm(percent: number): bigint {
  return BigInt(Math.round(percent * 10_000));
}

/** numerator / denominator rounded to the nearest integer, halves away from zero (PHP's round). */
function divideRounded(numerator: bigint, denominator: bigint): number {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const rounded = (2n * n + d) / (2n * d);
  return Number(negative ? -rounded : rounded);
}

/** Tax on an amount that excludes it, rounded to the minor unit. */
export function taxOnTop(amount: number, percent: number): number {
  return divideRounded(BigInt(amount) * ratePpm(percent), 1_000_000n);
}

/** The tax an amount that includes it holds, rounded to the minor unit. */
export function taxIncluded(amount: number, percent: number): number {
  const ppm = ratePpm(percent);
  return divideRounded(BigInt(amount) * ppm, 1_000_000n + ppm);
}
