import type { CurrencyFormat } from '../../../shared/money/formatMoney';
import { formatMoney } from '../../../shared/money/formatMoney';

/** A listing price as the table shows it: one price, a range, or a dash for none. */
export function priceRange(min: number | null, max: number | null, currency: CurrencyFormat): string {
  if (min === null) return '—';
  if (max === null || max === min) return formatMoney(min, currency);
  return `${formatMoney(min, currency)} – ${formatMoney(max, currency)}`;
}
