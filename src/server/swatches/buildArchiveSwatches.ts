import {
  type ArchiveSwatches,
  attributeFieldName,
  type ProductDetail,
  type ProductSummary,
} from '../../shared/catalog/types';
import type { CatalogRepository } from '../db/ports';

/**
 * The card swatches of a variable product: its first colour or image attribute (else its first attribute it varies
 * by), and for each value the image and price range of the variations that have it, so choosing a swatch on the
 * card can show them without a request. Null when the product has nothing to show.
 */
export function buildArchiveSwatches(product: ProductDetail): ArchiveSwatches | null {
  const attributes = product.attributes.filter((attribute) => attribute.forVariations);
  const visual = attributes.find((attribute) =>
    attribute.options.some((option) =>
      (option.swatchType ?? attribute.swatchType) === 'image' ? option.image : option.color,
    ),
  );
  const attribute = visual ?? attributes[0];
  if (!attribute || product.variations.length === 0) return null;
  const field = attributeFieldName(attribute.slug);
  return {
    attribute,
    values: attribute.options.map((option) => {
      const matching = product.variations.filter((variation) => {
        const value = variation.attributes[field] ?? '';
        return value === '' || value === option.slug;
      });
      const inStock = matching.filter((variation) => variation.is_in_stock);
      const prices = matching.flatMap((variation) => (variation.price === null ? [] : [variation.price]));
      return {
        slug: option.slug,
        image: (inStock[0] ?? matching[0])?.image ?? null,
        price: prices.length > 0 ? { min: Math.min(...prices), max: Math.max(...prices) } : null,
        inStock: inStock.length > 0,
      };
    }),
  };
}

/** The archive's products with the card swatches of the variable ones (`swatches.showOnArchive`). */
export async function withArchiveSwatches(
  catalog: CatalogRepository,
  products: ProductSummary[],
): Promise<ProductSummary[]> {
  return Promise.all(
    products.map(async (product) => {
      if (product.type !== 'variable') return product;
      const detail = await catalog.getProductById(product.id);
      const archiveSwatches = detail ? buildArchiveSwatches(detail) : null;
      return archiveSwatches ? { ...product, archiveSwatches } : product;
    }),
  );
}
