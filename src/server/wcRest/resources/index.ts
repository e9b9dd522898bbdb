/*
 * WooCommerce REST API v3 resources: the shapes (pure serializers) and the loaders that read what they need from
 * the repositories. The REST routes (../wcRestPlugin.ts) and anything else that sends WooCommerce JSON (webhook
 * bodies) use these, so a resource has one shape wherever it goes out.
 */
import type { Term } from '../../../shared/catalog/types';
import type { Repositories } from '../../db/ports';
import type { WcContext } from './wcFormat';
import { toWcOrder, type WcOrder } from './wcOrder';
import { toWcProduct, toWcVariation, type WcProduct, type WcVariation } from './wcProduct';

export * from './wcFormat';
export * from './wcOrder';
export * from './wcProduct';

/** The order in WooCommerce's shape, or null when there is no such order. */
export async function loadWcOrder(
  repositories: Pick<Repositories, 'orderAdmin'>,
  id: number,
  context: WcContext & { currencySymbol?: string },
): Promise<WcOrder | null> {
  const detail = await repositories.orderAdmin.getOrderDetail(id);
  return detail ? toWcOrder(detail, context) : null;
}

async function productSource(repositories: Pick<Repositories, 'catalog'>, id: number) {
  const product = await repositories.catalog.getAdminProduct(id);
  if (!product) return null;
  const [detail, terms, lifecycle] = await Promise.all([
    // The shopper's view exists only for a published product.
    product.status === 'publish' ? repositories.catalog.getProductById(id) : Promise.resolve(null),
    repositories.catalog.listTerms('product_cat'),
    repositories.catalog.getProductLifecycle(id),
  ]);
  const byId = new Map(terms.map((term) => [term.id, term]));
  const categories = product.categoryIds
    .map((categoryId) => byId.get(categoryId))
    .filter((term): term is Term => term !== undefined);
  return { product, detail, categories, ...lifecycle };
}

/** A parent product (any status, trashed too) in WooCommerce's shape, or null when there is none. */
export async function loadWcProduct(
  repositories: Pick<Repositories, 'catalog'>,
  id: number,
  context: WcContext,
): Promise<WcProduct | null> {
  const source = await productSource(repositories, id);
  return source ? toWcProduct(source, context) : null;
}

/** Every variation of a parent product in WooCommerce's shape; null when there is no such parent. */
export async function loadWcVariations(
  repositories: Pick<Repositories, 'catalog'>,
  productId: number,
  context: WcContext,
): Promise<WcVariation[] | null> {
  const source = await productSource(repositories, productId);
  if (!source) return null;
  const shopperVariations = new Map((source.detail?.variations ?? []).map((v) => [v.id, v]));
  return source.product.variations.map((variation) =>
    toWcVariation(
      {
        parent: source.product,
        variation,
        detail: shopperVariations.get(variation.id) ?? null,
        parentAttributes: source.detail?.attributes ?? [],
        trashedAt: source.trashedAt,
      },
      context,
    ),
  );
}
