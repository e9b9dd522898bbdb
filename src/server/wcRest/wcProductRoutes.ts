import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AdminProductStatus } from '../../shared/catalog/adminProducts';
import { ShopError } from '../../shared/errors/ShopError';
import type { Repositories } from '../db/ports';
import type { ApiKeyService } from './apiKeys/apiKeyService';
import { loadWcProduct, loadWcVariations, toWcCategory, type WcContext } from './resources';
import {
  productBody,
  productFormValues,
  readProductValues,
  refuseSave,
  variationBody,
  variationFormValues,
} from './wcProductWrites';
import { bodyOf, parseWcInput, sendWcPage, wcRoute } from './wcRoute';

/*
 * wc/v3 products, their variations and product categories. Reads and writes go through the catalog repository's
 * owner methods, the ones the back office's product pages use (see wcProductWrites.ts).
 *
 * WooCommerce's trash: DELETE without `force` moves the product there (hidden from shoppers, status `trash`,
 * listed with `status=trash`); DELETE with `force=true` deletes it and its variations for good. Saving a trashed
 * product (here or in the back office) takes it out of the trash.
 */

const id = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const idParams = z.object({ id });
const variationParams = z.object({ product_id: id, id });
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');
const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
};
const listQuery = z.object({
  ...paging,
  status: z.enum(['any', 'publish', 'draft', 'private', 'pending', 'future', 'trash']).default('any'),
  sku: z.string().max(100).optional(),
  search: z.string().max(100).default(''),
  category: id.optional(),
  stock_status: z.enum(['instock', 'outofstock', 'onbackorder']).optional(),
  type: z.enum(['simple', 'variable', 'grouped', 'external']).optional(),
});
const deleteQuery = z.object({ force: flag.default(false) });
const categoryListQuery = z.object({
  ...paging,
  search: z.string().max(100).default(''),
  parent: z.coerce.number().int().min(0).optional(),
  hide_empty: flag.default(false),
});

const productMissing = () => new ShopError('woocommerce_rest_product_invalid_id', 'Invalid ID.');

export function registerWcProductRoutes(
  app: FastifyInstance,
  keys: ApiKeyService,
  repositories: Repositories,
  contextOf: (request: FastifyRequest) => WcContext,
) {
  const catalog = repositories.catalog;
  const decimals = (request: FastifyRequest) => contextOf(request).decimals;

  async function productJson(request: FastifyRequest, productId: number) {
    const product = await loadWcProduct(repositories, productId, contextOf(request));
    if (!product) throw productMissing();
    return product;
  }

  async function storedProduct(productId: number) {
    const stored = await catalog.getAdminProduct(productId);
    if (!stored) throw productMissing();
    return stored;
  }

  wcRoute(app, keys, '/products', {
    async GET(request, reply) {
      const query = parseWcInput(listQuery, request.query);
      // Pending and scheduled products do not exist in the shop: their lists are empty.
      const none = query.status === 'pending' || query.status === 'future';
      const status: AdminProductStatus | null =
        query.status === 'publish' || query.status === 'draft' || query.status === 'private'
          ? query.status
          : null;
      const { items, total } = none
        ? { items: [], total: 0 }
        : await catalog.listAdminProducts({
            search: query.search,
            status,
            page: query.page,
            perPage: query.per_page,
            sku: query.sku,
            categoryId: query.category,
            stockStatus: query.stock_status,
            type: query.type,
            trashed: query.status === 'trash',
          });
      const products = await Promise.all(items.map((item) => productJson(request, item.id)));
      return sendWcPage(request, reply, contextOf(request).origin, {
        items: products,
        total,
        page: query.page,
        perPage: query.per_page,
      });
    },
    async POST(request, reply) {
      const body = parseWcInput(productBody, bodyOf(request));
      const change = readProductValues(productFormValues(null, body, decimals(request)), decimals(request));
      const saved = await catalog.saveAdminProduct(null, change);
      if (!saved.ok) refuseSave(saved.fieldErrors);
      return reply.status(201).send(await productJson(request, saved.id));
    },
  });

  // Static segments before `:id`: Fastify matches them first whatever the order, this keeps the file readable.
  wcRoute(app, keys, '/products/categories', {
    async GET(request, reply) {
      const query = parseWcInput(categoryListQuery, request.query);
      const search = query.search.trim().toLowerCase();
      const terms = (await catalog.listTerms('product_cat'))
        .filter((term) => query.parent === undefined || (term.parentId ?? 0) === query.parent)
        .filter((term) => search === '' || term.name.toLowerCase().includes(search))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
      const counted = await Promise.all(
        terms.map(async (term) => toWcCategory(term, await categoryCount(term.id))),
      );
      const shown = query.hide_empty ? counted.filter((category) => category.count > 0) : counted;
      const start = (query.page - 1) * query.per_page;
      return sendWcPage(request, reply, contextOf(request).origin, {
        items: shown.slice(start, start + query.per_page),
        total: shown.length,
        page: query.page,
        perPage: query.per_page,
      });
    },
  });
  wcRoute(app, keys, '/products/categories/:id', {
    async GET(request) {
      const { id: termId } = parseWcInput(idParams, request.params);
      const term = (await catalog.listTerms('product_cat')).find((candidate) => candidate.id === termId);
      if (!term) throw new ShopError('woocommerce_rest_term_invalid', 'Resource does not exist.');
      return toWcCategory(term, await categoryCount(term.id));
    },
  });

  /** Published products in the category itself, as WooCommerce's term count reads. */
  async function categoryCount(categoryId: number) {
    const { total } = await catalog.listAdminProducts({
      search: '',
      status: 'publish',
      page: 1,
      perPage: 1,
      categoryId,
      trashed: false,
    });
    return total;
  }

  async function updateProduct(request: FastifyRequest) {
    const { id: productId } = parseWcInput(idParams, request.params);
    const body = parseWcInput(productBody, bodyOf(request));
    const stored = await storedProduct(productId);
    const values = productFormValues(stored, body, decimals(request));
    const saved = await catalog.saveAdminProduct(productId, readProductValues(values, decimals(request)));
    if (!saved.ok) refuseSave(saved.fieldErrors);
    return productJson(request, productId);
  }

  wcRoute(app, keys, '/products/:id', {
    async GET(request) {
      const { id: productId } = parseWcInput(idParams, request.params);
      return productJson(request, productId);
    },
    PUT: updateProduct,
    PATCH: updateProduct,
    POST: updateProduct,
    async DELETE(request: FastifyRequest, reply: FastifyReply) {
      const { id: productId } = parseWcInput(idParams, request.params);
      const { force } = parseWcInput(deleteQuery, { ...bodyOf(request), ...(request.query as object) });
      const before = await productJson(request, productId);
      if (force) {
        if (!(await catalog.deleteProduct(productId))) throw productMissing();
        return reply.send(before);
      }
      if (before.status === 'trash')
        throw new ShopError('woocommerce_rest_already_trashed', 'The product has already been deleted.');
      if (!(await catalog.trashProduct(productId))) throw productMissing();
      return reply.send(await productJson(request, productId));
    },
  });

  wcRoute(app, keys, '/products/:product_id/variations', {
    async GET(request, reply) {
      const { product_id } = parseWcInput(z.object({ product_id: id }), request.params);
      const query = parseWcInput(z.object(paging), request.query);
      const variations = await loadWcVariations(repositories, product_id, contextOf(request));
      if (!variations) throw productMissing();
      const start = (query.page - 1) * query.per_page;
      return sendWcPage(request, reply, contextOf(request).origin, {
        items: variations.slice(start, start + query.per_page),
        total: variations.length,
        page: query.page,
        perPage: query.per_page,
      });
    },
  });

  async function variationJson(request: FastifyRequest, productId: number, variationId: number) {
    const variations = await loadWcVariations(repositories, productId, contextOf(request));
    if (!variations) throw productMissing();
    const variation = variations.find((candidate) => candidate.id === variationId);
    if (!variation) throw new ShopError('woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
    return variation;
  }

  async function updateVariation(request: FastifyRequest) {
    const params = parseWcInput(variationParams, request.params);
    const body = parseWcInput(variationBody, bodyOf(request));
    const parent = await storedProduct(params.product_id);
    const values = variationFormValues(parent, params.id, body, decimals(request));
    const saved = await catalog.saveAdminProduct(parent.id, readProductValues(values, decimals(request)));
    if (!saved.ok) refuseSave(saved.fieldErrors);
    return variationJson(request, params.product_id, params.id);
  }

  wcRoute(app, keys, '/products/:product_id/variations/:id', {
    async GET(request) {
      const params = parseWcInput(variationParams, request.params);
      return variationJson(request, params.product_id, params.id);
    },
    PUT: updateVariation,
    PATCH: updateVariation,
    POST: updateVariation,
  });
}
