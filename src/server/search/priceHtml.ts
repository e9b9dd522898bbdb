import type { PriceRange } from '../../shared/catalog/types';
import { type CurrencyFormat, formatMoney } from '../../shared/money/formatMoney';

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string,
  );
}

function amount(minorUnits: number, currency: CurrencyFormat): string {
  return `<span class="woocommerce-Price-amount amount">${escapeHtml(formatMoney(minorUnits, currency))}</span>`;
}

/**
 * WooCommerce's price markup for a suggestion or a details panel: one amount, a range, or the regular price
 * struck through beside the sale price. Empty when the product has no price. Every text is escaped.
 */
export function priceHtml(price: PriceRange, currency: CurrencyFormat): string {
  if (price.min === null) return '';
  if (price.max !== null && price.max !== price.min) {
    return `${amount(price.min, currency)} – ${amount(price.max, currency)}`;
  }
  if (price.onSale && price.regular !== null) {
    return `<del aria-hidden="true">${amount(price.regular, currency)}</del> <ins>${amount(price.min, currency)}</ins>`;
  }
  return amount(price.min, currency);
}

/** A variation's price (a single amount, or regular struck through on sale). */
export function variationPriceHtml(
  variation: { price: number | null; regularPrice: number | null; salePrice: number | null },
  currency: CurrencyFormat,
): string {
  if (variation.price === null) return '';
  const onSale =
    variation.salePrice !== null &&
    variation.regularPrice !== null &&
    variation.salePrice < variation.regularPrice;
  return priceHtml(
    { min: variation.price, max: variation.price, regular: onSale ? variation.regularPrice : null, onSale },
    currency,
  );
}
