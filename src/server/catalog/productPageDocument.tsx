import { ProductPage } from '../../client/pages/ProductPage';
import type { ReviewsSectionProps } from '../../client/product/ReviewsSection';
import type { ProductDetail } from '../../shared/catalog/types';
import { productUrl } from '../../shared/catalog/urls';
import type { PageDocument } from '../render/renderPage';
import { toPlainText } from './sanitizeRichText';

/** A product page as a document: the catalog's GET and the review form's refused POST render the same page. */
export function productPageDocument(
  product: ProductDetail,
  query: Record<string, unknown>,
  reviews: ReviewsSectionProps | undefined,
): PageDocument {
  return {
    objectId: product.id,
    title: product.name,
    description: toPlainText(product.shortDescription).slice(0, 160),
    canonical: productUrl(product.slug),
    body: <ProductPage product={product} query={query} reviews={reviews} />,
  };
}
