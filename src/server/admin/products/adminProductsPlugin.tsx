import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { ProductEditPage } from '../../../client/admin/products/ProductEditPage';
import { ImportJobPage, ProductImportPage } from '../../../client/admin/products/ProductImportPage';
import { AdminLogoutNonce } from '../../../client/admin/products/ProductsFrame';
import { ProductsListPage } from '../../../client/admin/products/ProductsListPage';
import {
  ADMIN_PAGE_SIZE,
  ADMIN_PRODUCT_STATUSES,
  type AdminProduct,
  type AdminProductChange,
} from '../../../shared/catalog/adminProducts';
import { productUrl } from '../../../shared/catalog/urls';
import { ShopError } from '../../../shared/errors/ShopError';
import type { ShopConfig } from '../../../shared/settings/settingsSchema';
import { storeCatalogImage } from '../../catalog/images/storeCatalogImages';
import { startImportJob } from '../../catalog/import/importJob';
import { writeWooCsv } from '../../catalog/import/writeWooCsv';
import type { Repositories } from '../../db/ports';
import { parseInput } from '../../http/parseInput';
import { MediaLibrary } from '../../rest/media/MediaLibrary';
import { UPLOADS_URL } from '../../rest/media/mediaRoutes';
import { ADMIN_NONCES } from '../adminGuards';
import {
  type FieldErrors,
  formValuesOf,
  type ProductFormValues,
  parseProductForm,
  readFormValues,
} from './productForm';

/*
 * The owner's products in the back office (/admin/products/): the table, the edit and add forms, the CSV import
 * as a job and the CSV export. Every route needs the owner (the hook below) and every POST this session's nonce
 * for its form. Writes go through the catalog repository, whose triggers feed the search change log, so shoppers'
 * searches and pages show a change on their next request, in every process.
 */

interface AdminProductsPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  /** DATA_DIR: uploaded product images go to its uploads folder, as the REST API's media do. */
  dataDir: string;
}

const EDIT_NONCE = 'admin_product_edit';
const IMPORT_NONCE = 'admin_product_import';
const IMAGE_NONCE = 'admin_product_image';
/** The largest CSV the import takes: WooCommerce's sample is 30 kB; 10,000 products with descriptions fit. */
export const IMPORT_MAX_BYTES = 16 * 1024 * 1024;

const listQuery = z.object({
  q: z.string().max(100).default(''),
  status: z.enum(ADMIN_PRODUCT_STATUSES).or(z.literal('')).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  saved: z.string().optional(),
});
const productParams = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });
const savedQuery = z.object({ saved: z.string().optional() });
const jobParams = z.object({ job: z.uuid() });

export async function adminProductsPlugin(
  app: FastifyInstance,
  { repositories, config, dataDir }: AdminProductsPluginOptions,
) {
  const catalog = repositories.catalog;
  const decimals = config.shop.currency.decimals;
  // The owner's media library: the same type sniffing, pixel limit and sub-sizes as uploads through the REST API.
  const library = new MediaLibrary({ uploadsDir: join(dataDir, 'uploads'), media: repositories.media });

  // Pages send a stranger to the login (and back here after it); forms and the export answer 401.
  app.addHook('onRequest', async function ownerOnly(request, reply) {
    if (request.method === 'GET' && !request.url.startsWith('/admin/products/export.csv')) {
      if (await app.owner.authenticate(request, reply)) return;
      if (!reply.sent) return reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 303);
      return reply;
    }
    return app.owner.requireOwner(request, reply);
  });
  app.addHook('onSend', async function privateBackOffice(_request, reply) {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex, nofollow');
  });
  // The REST API's parser when it is registered at the root; its own otherwise.
  if (!app.hasContentTypeParser('multipart/form-data')) await app.register(multipart);

  /** Every product page's body, with the log-out forms' nonce for the back office's layout. */
  const framed = (request: FastifyRequest, body: ReactNode) => (
    <AdminLogoutNonce.Provider value={app.nonces.create(ADMIN_NONCES.logout, request.visitor)}>
      {body}
    </AdminLogoutNonce.Provider>
  );

  function requireNonce(nonce: unknown, action: string, request: FastifyRequest) {
    if (!app.nonces.verify(nonce, action, request.visitor))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
  }

  async function categoryChoices() {
    const terms = await catalog.listTerms('product_cat');
    const byId = new Map(terms.map((term) => [term.id, term]));
    const label = (id: number | null): string[] => {
      const names: string[] = [];
      for (let term = id === null ? undefined : byId.get(id); term && names.length < 20; ) {
        names.unshift(term.name);
        term = term.parentId === null ? undefined : byId.get(term.parentId);
      }
      return names;
    };
    return terms
      .map((term) => ({ id: term.id, label: label(term.id).join(' › ') }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }

  async function sendEdit(
    request: FastifyRequest,
    reply: FastifyReply,
    product: AdminProduct | null,
    values: ProductFormValues,
    errors: FieldErrors,
    status = 200,
    imageError: string | null = null,
  ) {
    const notice = parseInput(savedQuery, request.query).saved ? 'Saved. Shoppers see the change now.' : null;
    return reply.sendPage(
      {
        title: product ? `Edit ${product.name}` : 'Add product',
        noindex: true,
        body: framed(
          request,
          <ProductEditPage
            productId={product?.id ?? null}
            type={product?.type ?? 'simple'}
            values={values}
            errors={errors}
            categories={await categoryChoices()}
            shopUrl={product && product.status === 'publish' ? productUrl(product.slug) : null}
            nonce={app.nonces.create(EDIT_NONCE, request.visitor)}
            imageNonce={app.nonces.create(IMAGE_NONCE, request.visitor)}
            imageUrl={product?.imageUrl ?? null}
            imageError={imageError}
            maxImageMegabytes={Math.floor(config.rest.maxUploadBytes / (1024 * 1024))}
            notice={status === 200 ? notice : null}
          />,
        ),
      },
      { status },
    );
  }

  async function loadProduct(id: number) {
    const product = await catalog.getAdminProduct(id);
    if (!product) throw new ShopError('not_found', 'There is no product with this number.');
    return product;
  }

  async function save(
    request: FastifyRequest,
    reply: FastifyReply,
    stored: AdminProduct | null,
  ): Promise<FastifyReply> {
    const body = (request.body ?? {}) as Record<string, unknown>;
    requireNonce(body._wpnonce, EDIT_NONCE, request);
    const values = readFormValues(body, stored);
    const parsed = parseProductForm(values, decimals);
    if (!parsed.ok) return sendEdit(request, reply, stored, values, parsed.errors, 422);
    const change: AdminProductChange = parsed.change;
    const saved = await catalog.saveAdminProduct(stored?.id ?? null, change);
    if (!saved.ok) return sendEdit(request, reply, stored, values, saved.fieldErrors, 422);
    return reply.redirect(`/admin/products/${saved.id}/?saved=1`, 303);
  }

  app.get('/admin/products/', async function productsList(request, reply) {
    const query = parseInput(listQuery, request.query);
    const status = query.status === '' ? null : query.status;
    const { items, total } = await catalog.listAdminProducts({
      search: query.q,
      status,
      page: query.page,
      perPage: ADMIN_PAGE_SIZE,
    });
    return reply.sendPage({
      title: 'Products',
      noindex: true,
      body: framed(
        request,
        <ProductsListPage
          items={items}
          total={total}
          page={query.page}
          pages={Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE))}
          search={query.q}
          status={status}
          currency={config.shop.currency}
          notice={null}
        />,
      ),
    });
  });

  app.get('/admin/products/new', async function newProductForm(request, reply) {
    return sendEdit(request, reply, null, formValuesOf(null, decimals), {});
  });

  app.post('/admin/products/new', async function addProduct(request, reply) {
    return save(request, reply, null);
  });

  app.get('/admin/products/:id/', async function editProductForm(request, reply) {
    const { id } = parseInput(productParams, request.params);
    const product = await loadProduct(id);
    return sendEdit(request, reply, product, formValuesOf(product, decimals), {});
  });

  app.post('/admin/products/:id/', async function saveProduct(request, reply) {
    const { id } = parseInput(productParams, request.params);
    return save(request, reply, await loadProduct(id));
  });

  app.post('/admin/products/:id/image', async function uploadImage(request, reply) {
    const { id } = parseInput(productParams, request.params);
    const product = await loadProduct(id);
    const refuse = (message: string, status: number) =>
      sendEdit(request, reply, product, formValuesOf(product, decimals), {}, status, message);
    if (!request.isMultipart()) {
      requireNonce((request.body as { _wpnonce?: unknown } | undefined)?._wpnonce, IMAGE_NONCE, request);
      return refuse('Choose an image to upload.', 400);
    }
    const maxBytes = config.rest.maxUploadBytes;
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 5 } });
    const nonceField = part?.fields._wpnonce;
    requireNonce(
      nonceField && !Array.isArray(nonceField) && nonceField.type === 'field' ? nonceField.value : undefined,
      IMAGE_NONCE,
      request,
    );
    if (!part || part.filename === '') return refuse('Choose an image to upload.', 400);
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      return refuse(
        `The image is too large: uploads are limited to ${Math.floor(maxBytes / (1024 * 1024))} MB.`,
        413,
      );
    }
    let file: string;
    try {
      file = (await library.upload(bytes, part.filename)).file;
    } catch (error) {
      if (!(error instanceof ShopError) || error.code === 'rest_upload_image_error') throw error;
      return refuse(error.message, error.code === 'rest_upload_file_too_big' ? 413 : 400);
    }
    // Resized for the shop's pages as the import does; the media library has already decoded it, so this holds.
    const storedKey = await storeCatalogImage(library.pathOf(file), { dataDir, baseDir: dataDir });
    const saved = await catalog.saveAdminProduct(id, {
      fields: product,
      variations: [],
      image: { url: `${UPLOADS_URL}${file}`, alt: product.name, storedKey },
    });
    if (!saved.ok) return refuse(Object.values(saved.fieldErrors).join(' '), 422);
    return reply.redirect(`/admin/products/${id}/?saved=1`, 303);
  });

  function sendImportForm(request: FastifyRequest, reply: FastifyReply, error: string | null, status = 200) {
    return reply.sendPage(
      {
        title: 'Import products',
        noindex: true,
        body: framed(
          request,
          <ProductImportPage
            nonce={app.nonces.create(IMPORT_NONCE, request.visitor)}
            maxMegabytes={IMPORT_MAX_BYTES / (1024 * 1024)}
            error={error}
          />,
        ),
      },
      { status },
    );
  }

  app.get('/admin/products/import', async function importForm(request, reply) {
    return sendImportForm(request, reply, null);
  });

  app.post('/admin/products/import', async function uploadImport(request, reply) {
    if (!request.isMultipart()) {
      requireNonce((request.body as { _wpnonce?: unknown } | undefined)?._wpnonce, IMPORT_NONCE, request);
      return sendImportForm(request, reply, 'Choose a CSV file to import.', 400);
    }
    const part = await request.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5 } });
    const nonceField = part?.fields._wpnonce;
    requireNonce(
      nonceField && !Array.isArray(nonceField) && nonceField.type === 'field' ? nonceField.value : undefined,
      IMPORT_NONCE,
      request,
    );
    if (!part || part.filename === '')
      return sendImportForm(request, reply, 'Choose a CSV file to import.', 400);
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      return sendImportForm(
        request,
        reply,
        `The file is too large: imports are limited to ${IMPORT_MAX_BYTES / (1024 * 1024)} MB.`,
        413,
      );
    }
    if (bytes.length === 0) return sendImportForm(request, reply, 'The file is empty.', 400);
    const { id, finished } = await startImportJob(catalog, {
      fileName: part.filename.slice(0, 200),
      csv: bytes.toString('utf8'),
    });
    finished.catch((error) => request.log.error({ err: error }, 'product import job'));
    return reply.redirect(`/admin/products/import/${id}`, 303);
  });

  app.get('/admin/products/import/:job', async function importProgress(request, reply) {
    const { job: jobId } = parseInput(jobParams, request.params);
    const job = await catalog.getImportJob(jobId);
    if (!job) throw new ShopError('not_found', 'There is no such import.');
    // Without scripts too: the browser reloads the page until the job is over.
    if (job.status === 'queued' || job.status === 'running') reply.header('refresh', '1');
    return reply.sendPage({
      title: `Import of ${job.fileName}`,
      noindex: true,
      body: framed(request, <ImportJobPage job={job} />),
    });
  });

  app.get('/admin/products/export.csv', async function exportCsv(_request, reply) {
    const csv = writeWooCsv(await catalog.readCatalogForExport());
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="products-${day}.csv"`)
      .send(csv);
  });
}
