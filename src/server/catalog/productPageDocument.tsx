import type { FastifyInstance, FastifyRequest } from 'fastify';
import { JsonLd } from '../../client/catalog/JsonLd';
import { ProductPage } from '../../client/pages/ProductPage';
import type { ReviewsSectionProps } from '../../client/product/ReviewsSection';
import type { StockAlertOffer } from '../../client/product/StockAlertForm';
import type { ProductDetail } from '../../shared/catalog/types';
import { productUrl, termUrl } from '../../shared/catalog/urls';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { breadcrumbJsonLd, productJsonLd } from '../../shared/structuredData/jsonLd';
import type { Repositories } from '../db/ports';
import { productPageLists, type RelatedProductsIndex } from '../merchandising/productLists';
import { pageTag } from '../render/pageCache/pageTags';
import { dependsOn, rendersFromIndex } from '../render/pagesPlugin';
import type { PageDocument } from '../render/renderPage';
import { stockAlertNotice, stockAlertTargets } from '../stockAlerts/stockAlertOffer';
import { STOCK_ALERT_NONCE_ACTION } from '../stockAlerts/stockAlertsPlugin';
import { toPlainText } from './sanitizeRichText';

/** What a product page needs beyond the product: the lists under it, the nonces, the shop's address. */
export interface ProductPageContext {
  app: FastifyInstance;
  repositories: Repositories;
  config: ShopConfig;
  /** Ranks the related products from memory (the facet index); without it the database does. */
  related?: RelatedProductsIndex;
}

/**
 * The shop's address for structured data: the configured public origin (`server.mail.shopUrl`), else the one the
 * page was asked at (pages are private and uncached, so it only ever goes back to who asked).
 */
export function siteOrigin(config: ShopConfig, request: FastifyRequest): string {
  return config.server.mail.shopUrl?.replace(/\/$/, '') ?? `${request.protocol}://${request.host}`;
}

/**
 * A product page as a document: the catalog's GET and the review form's refused POST render the same page, with
 * its upsells and related products, its back-in-stock form, and its schema.org Product and BreadcrumbList.
 */
export async function productPageDocument(
  { app, repositories, config, related }: ProductPageContext,
  request: FastifyRequest,
  product: ProductDetail,
  query: Record<string, unknown>,
  reviews: ReviewsSectionProps | undefined,
  /** The back-in-stock form sent but refused, shown again with what was typed. */
  stockAlertRefused: StockAlertOffer['refused'] = null,
): Promise<PageDocument> {
  const { relatedIndexedThrough, ...lists } = await productPageLists(repositories, product.id, related);
  // The render cache drops the page at any change of the product, and at a listing change of a card it shows; a
  // page whose related products a lagging index ranked is kept only until the index caught up.
  if (relatedIndexedThrough !== null) rendersFromIndex(request, relatedIndexedThrough);
  dependsOn(request, [
    pageTag.product(product.id),
    ...[...lists.upsells, ...lists.alsoBought, ...lists.related].map((card) => pageTag.listed(card.id)),
  ]);
  const targets = stockAlertTargets(product);
  const stockAlert =
    targets.length > 0
      ? {
          targets,
          choose: product.type === 'variable',
          nonce: app.nonces.create(STOCK_ALERT_NONCE_ACTION, request.visitor),
          notice: stockAlertNotice(query),
          pageProductId: product.id,
          refused: stockAlertRefused,
        }
      : null;
  const origin = siteOrigin(config, request);
  const url = productUrl(product.slug);
  const category = product.categories[0];
  const crumbs = [
    { name: 'Home', url: '/' },
    { name: 'Shop', url: '/shop/' },
    ...(category ? [{ name: category.name, url: termUrl(category) }] : []),
    { name: product.name, url },
  ];
  // The reviews the page shows are the ones a search engine may quote.
  const jsonLdReviews = reviews?.reviews.map((review) => ({
    author: review.reviewer,
    datePublished: review.createdAt,
    reviewBody: review.content,
    ratingValue: review.rating,
  }));
  const description = toPlainText(product.shortDescription || product.description).slice(0, 160);
  return {
    objectId: product.id,
    title: product.name,
    description: toPlainText(product.shortDescription).slice(0, 160),
    canonical: url,
    body: (
      <>
        <JsonLd
          data={productJsonLd({
            product,
            url,
            origin,
            currency: config.shop.currency,
            description,
            reviews: jsonLdReviews,
          })}
        />
        <JsonLd data={breadcrumbJsonLd(crumbs, origin)} />
        <ProductPage
          product={product}
          query={query}
          reviews={reviews}
          lists={lists}
          stockAlert={stockAlert}
        />
      </>
    ),
  };
}
