import type { StockAlertOffer } from '../../client/product/StockAlertForm';
import { attributeFieldName, type ProductDetail } from '../../shared/catalog/types';

/**
 * What a product page offers to wait for: a simple product that is out of stock, or a variable product's
 * out-of-stock variations (named by their options). Null when there is nothing to wait for.
 */
export function stockAlertTargets(product: ProductDetail): StockAlertOffer['targets'] {
  if (product.type === 'simple') {
    return product.stockStatus === 'outofstock' ? [{ id: product.id, name: product.name }] : [];
  }
  if (product.type !== 'variable') return [];
  return product.variations
    .filter((variation) => !variation.is_in_stock)
    .map((variation) => ({ id: variation.id, name: variationName(product, variation.attributes) }));
}

function variationName(product: ProductDetail, values: Record<string, string>): string {
  const parts = product.attributes
    .filter((attribute) => attribute.forVariations)
    .map((attribute) => {
      const slug = values[attributeFieldName(attribute.slug)] ?? '';
      const option = attribute.options.find((candidate) => candidate.slug === slug);
      return `${attribute.name}: ${option?.name ?? (slug || 'any')}`;
    });
  return parts.length > 0 ? `${product.name} (${parts.join(', ')})` : product.name;
}

/** The notice the page shows after the form redirected back to it (`?stock-alert=…`). */
export function stockAlertNotice(query: Readonly<Record<string, unknown>>): StockAlertOffer['notice'] {
  const value = query['stock-alert'];
  return value === 'subscribed' || value === 'available' ? value : null;
}
