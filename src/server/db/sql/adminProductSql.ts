import type {
  AdminProduct,
  AdminProductChange,
  AdminProductListItem,
  AdminProductListQuery,
  AdminProductStatus,
  Backorders,
  ImportJob,
  ImportJobStatus,
} from '../../../shared/catalog/adminProducts';
import type { StockStatus } from '../../../shared/catalog/types';
import { ENQUEUE_WEBHOOK_EVENT, webhookEventParams } from './webhookSql';

/*
 * The owner's product reads and writes, written once for both engines: `@name` placeholders (SQLite's own, and
 * PostgreSQL's through queryNamed) and only SQL both engines run alike. Reads go through a `SqlRead`; a save is
 * planned from reads, then written by the adapter as one transaction of `AdminWriteStep`s.
 */

export type SqlRead = <T>(sql: string, params?: Record<string, unknown>) => Promise<T[]>;

/** Stands for the id of the product a plan inserts, once its INSERT has returned it. */
export const NEW_PRODUCT_ID = '@@new-product-id';

export type AdminWriteStep =
  /** Runs the statement; `returnsId` marks the INSERT whose returned id fills NEW_PRODUCT_ID after it. */
  | { kind: 'sql'; sql: string; params: Record<string, unknown>; returnsId?: boolean }
  /** Recomputes the listing price and stock of the product (the engine's refreshDerivedFields). */
  | { kind: 'refresh'; productId: number | typeof NEW_PRODUCT_ID };

interface AdminRow {
  id: number;
  type: string;
  name: string;
  sku: string | null;
  status: 'publish' | 'draft';
  is_private: number;
  stock_status: StockStatus;
  stock_quantity: number | null;
  price_min: number | null;
  price_max: number | null;
}

function statusOf(row: { status: string; is_private: number }): AdminProductStatus {
  if (Number(row.is_private) === 1) return 'private';
  return row.status === 'publish' ? 'publish' : 'draft';
}

/** How an owner's status is stored: a private product is also a draft, so shoppers' queries hide it. */
function storedStatus(status: AdminProductStatus): { status: 'publish' | 'draft'; isPrivate: number } {
  return { status: status === 'publish' ? 'publish' : 'draft', isPrivate: status === 'private' ? 1 : 0 };
}

const STATUS_WHERE: Record<AdminProductStatus, string> = {
  publish: "p.status = 'publish'",
  draft: "p.status = 'draft' AND p.is_private = 0",
  private: 'p.is_private = 1',
};

/** LIKE's own wildcards in the owner's text are literal characters. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export async function listAdminProducts(
  read: SqlRead,
  query: AdminProductListQuery,
): Promise<{ items: AdminProductListItem[]; total: number }> {
  const where = ["p.type <> 'variation'"];
  const params: Record<string, unknown> = {};
  if (query.status) where.push(STATUS_WHERE[query.status]);
  const search = query.search.trim();
  if (search !== '') {
    // By name or SKU, a variation's SKU finding its parent.
    where.push(`(lower(p.name) LIKE @pattern ESCAPE '\\' OR lower(p.sku) LIKE @pattern ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM products v WHERE v.parent_id = p.id AND lower(v.sku) LIKE @pattern ESCAPE '\\'))`);
    params.pattern = likePattern(search);
  }
  if (query.sku !== undefined) {
    where.push(
      `(p.sku = @sku OR EXISTS (SELECT 1 FROM products v WHERE v.parent_id = p.id AND v.sku = @sku))`,
    );
    params.sku = query.sku;
  }
  if (query.categoryId !== undefined) {
    where.push(
      'EXISTS (SELECT 1 FROM product_terms pt WHERE pt.product_id = p.id AND pt.term_id = @categoryId)',
    );
    params.categoryId = query.categoryId;
  }
  if (query.stockStatus !== undefined) {
    where.push('p.stock_status = @stockStatus');
    params.stockStatus = query.stockStatus;
  }
  if (query.type !== undefined) {
    where.push('p.type = @type');
    params.type = query.type;
  }
  if (query.trashed !== undefined)
    where.push(query.trashed ? 'p.trashed_at IS NOT NULL' : 'p.trashed_at IS NULL');
  const whereSql = where.join(' AND ');
  const [count] = await read<{ n: number }>(`SELECT COUNT(*) AS n FROM products p WHERE ${whereSql}`, params);
  const rows = await read<AdminRow>(
    `SELECT p.id, p.type, p.name, p.sku, p.status, p.is_private, p.stock_status, p.stock_quantity, p.price_min,
            p.price_max
       FROM products p WHERE ${whereSql} ORDER BY p.id DESC LIMIT @limit OFFSET @offset`,
    { ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage },
  );
  return {
    total: Number(count?.n ?? 0),
    items: rows.map((row) => ({
      id: Number(row.id),
      type: row.type,
      name: row.name,
      sku: row.sku,
      status: statusOf(row),
      stockStatus: row.stock_status,
      stockQuantity: row.stock_quantity === null ? null : Number(row.stock_quantity),
      priceMin: row.price_min === null ? null : Number(row.price_min),
      priceMax: row.price_max === null ? null : Number(row.price_max),
    })),
  };
}

interface EditRow {
  id: number;
  type: string;
  name: string;
  slug: string | null;
  description: string;
  short_description: string;
  regular_price: number | null;
  sale_price: number | null;
  sku: string | null;
  stock_quantity: number | null;
  stock_status: StockStatus;
  backorders: Backorders;
  status: 'publish' | 'draft';
  is_private: number;
}

const nullableNumber = (value: number | null) => (value === null ? null : Number(value));

export async function getAdminProduct(read: SqlRead, id: number): Promise<AdminProduct | null> {
  const [row] = await read<EditRow>(
    `SELECT id, type, name, slug, description, short_description, regular_price, sale_price, sku, stock_quantity,
            stock_status, backorders, status, is_private
       FROM products WHERE id = @id AND type <> 'variation'`,
    { id },
  );
  if (!row) return null;
  const [categories, images, variations, labels] = await Promise.all([
    read<{ term_id: number }>(
      `SELECT pt.term_id FROM product_terms pt JOIN terms t ON t.id = pt.term_id
        WHERE pt.product_id = @id AND t.taxonomy = 'product_cat' ORDER BY pt.term_id`,
      { id },
    ),
    read<{ source_url: string }>(
      'SELECT source_url FROM product_images WHERE product_id = @id ORDER BY position LIMIT 1',
      { id },
    ),
    read<EditRow>(
      `SELECT id, regular_price, sale_price, sku, stock_quantity FROM products
        WHERE parent_id = @id AND type = 'variation' ORDER BY menu_order, id`,
      { id },
    ),
    read<{ variation_id: number; name: string | null }>(
      `SELECT va.variation_id, at.name FROM variation_attributes va
         JOIN products v ON v.id = va.variation_id
         JOIN product_attributes pa ON pa.product_id = v.parent_id AND pa.attribute_id = va.attribute_id
         LEFT JOIN attribute_terms at ON at.id = va.term_id
        WHERE v.parent_id = @id ORDER BY va.variation_id, pa.position`,
      { id },
    ),
  ]);
  const labelOf = new Map<number, string[]>();
  for (const label of labels) {
    const parts = labelOf.get(Number(label.variation_id)) ?? [];
    parts.push(label.name ?? 'Any');
    labelOf.set(Number(label.variation_id), parts);
  }
  return {
    id: Number(row.id),
    type: row.type,
    name: row.name,
    slug: row.slug ?? '',
    description: row.description,
    shortDescription: row.short_description,
    regularPrice: nullableNumber(row.regular_price),
    salePrice: nullableNumber(row.sale_price),
    sku: row.sku,
    stockQuantity: nullableNumber(row.stock_quantity),
    stockStatus: row.stock_status,
    backorders: row.backorders,
    status: statusOf(row),
    categoryIds: categories.map((category) => Number(category.term_id)),
    imageUrl: images[0]?.source_url ?? null,
    variations: variations.map((variation) => ({
      id: Number(variation.id),
      label: (labelOf.get(Number(variation.id)) ?? []).join(', ') || `Variation ${variation.id}`,
      regularPrice: nullableNumber(variation.regular_price),
      salePrice: nullableNumber(variation.sale_price),
      sku: variation.sku,
      stockQuantity: nullableNumber(variation.stock_quantity),
    })),
  };
}

/** When a parent product was made and, if it is in the trash, when it went there (ISO text). */
export async function getProductLifecycle(
  read: SqlRead,
  id: number,
): Promise<{ createdAt: string | null; modifiedAt: string | null; trashedAt: string | null }> {
  const [row] = await read<{
    created_at: string | null;
    updated_at: string | null;
    trashed_at: number | null;
  }>("SELECT created_at, updated_at, trashed_at FROM products WHERE id = @id AND type <> 'variation'", {
    id,
  });
  return {
    createdAt: row?.created_at ?? null,
    modifiedAt: row?.updated_at ?? null,
    trashedAt: row?.trashed_at == null ? null : new Date(Number(row.trashed_at)).toISOString(),
  };
}

/**
 * WooCommerce's trash: the product is kept, stored as a draft (so every shopper query hides it, and its search
 * entry goes through the change log like any edit) and marked with when it went there. Saving it again leaves the
 * trash. @id is a parent product.
 */
export const TRASH_PRODUCT = `UPDATE products SET status = 'draft', is_private = 0, trashed_at = @now,
  updated_at = @nowIso WHERE id = @id AND type <> 'variation' RETURNING id`;

/** Deleting for good: its variations, images and terms go with it (ON DELETE CASCADE). */
export const DELETE_PRODUCT = `DELETE FROM products WHERE id = @id AND type <> 'variation' RETURNING id`;

/**
 * Checks what only the database knows (another product's SKU or slug, categories that exist, variations that are
 * this product's) and returns the writes, or the field errors in words. A unique-key failure at write time (a
 * race with another owner's save) is still caught by the adapter and reported the same way.
 */
export async function planAdminProductSave(
  read: SqlRead,
  id: number | null,
  change: AdminProductChange,
): Promise<{ fieldErrors: Record<string, string> } | { steps: AdminWriteStep[] }> {
  const { fields } = change;
  const fieldErrors: Record<string, string> = {};
  const self = id ?? -1;
  if (id !== null) {
    const [existing] = await read<{ id: number }>(
      "SELECT id FROM products WHERE id = @id AND type <> 'variation'",
      { id },
    );
    if (!existing) return { fieldErrors: { '': 'This product no longer exists.' } };
  }
  const [slugOwner] = await read<{ name: string }>(
    'SELECT name FROM products WHERE slug = @slug AND id <> @self',
    { slug: fields.slug, self },
  );
  if (slugOwner) fieldErrors.slug = `“${slugOwner.name}” already has this slug; choose another.`;
  const variationIds = change.variations.map((variation) => variation.id);
  const skus = [
    { key: 'sku', sku: fields.sku },
    // The form names a variation's field `v<ID>_<field>`.
    ...change.variations.map((variation) => ({ key: `v${variation.id}_sku`, sku: variation.sku })),
  ];
  const seen = new Map<string, string>();
  for (const { key, sku } of skus) {
    if (sku === null) continue;
    if (seen.has(sku)) {
      fieldErrors[key] = `SKU ${sku} is used twice in this form.`;
      continue;
    }
    seen.set(sku, key);
    const [owner] = await read<{ id: number; name: string; parent_id: number | null }>(
      'SELECT id, name, parent_id FROM products WHERE sku = @sku',
      { sku },
    );
    const ours = owner && (Number(owner.id) === self || variationIds.includes(Number(owner.id)));
    if (owner && !ours) fieldErrors[key] = `“${owner.name}” already has SKU ${sku}.`;
  }
  if (fields.categoryIds.length > 0) {
    const known = await read<{ id: number }>(
      `SELECT id FROM terms WHERE taxonomy = 'product_cat' AND id IN (${fields.categoryIds.map((_, index) => `@c${index}`).join(', ')})`,
      Object.fromEntries(fields.categoryIds.map((categoryId, index) => [`c${index}`, categoryId])),
    );
    if (known.length !== new Set(fields.categoryIds).size)
      fieldErrors.categoryIds = 'One of the chosen categories no longer exists.';
  }
  if (id !== null && variationIds.length > 0) {
    const owned = await read<{ id: number }>(
      `SELECT id FROM products WHERE parent_id = @id AND type = 'variation'`,
      { id },
    );
    const ownedIds = new Set(owned.map((row) => Number(row.id)));
    if (variationIds.some((variationId) => !ownedIds.has(variationId)))
      fieldErrors.variations = 'A variation in this form is not one of this product’s.';
  }
  if (Object.keys(fieldErrors).length > 0) return { fieldErrors };

  const stored = storedStatus(fields.status);
  const columns = {
    name: fields.name,
    slug: fields.slug,
    description: fields.description,
    shortDescription: fields.shortDescription,
    regularPrice: fields.regularPrice,
    salePrice: fields.salePrice,
    sku: fields.sku,
    stockQuantity: fields.stockQuantity,
    stockStatus: fields.stockStatus,
    backorders: fields.backorders,
    status: stored.status,
    isPrivate: stored.isPrivate,
    now: new Date().toISOString(),
  };
  const productId = id ?? NEW_PRODUCT_ID;
  const steps: AdminWriteStep[] = [];
  if (id === null) {
    steps.push({
      kind: 'sql',
      returnsId: true,
      sql: `INSERT INTO products (type, name, slug, description, short_description, regular_price, sale_price, sku,
              stock_quantity, stock_status, backorders, status, is_private, created_at, updated_at)
            VALUES ('simple', @name, @slug, @description, @shortDescription, @regularPrice, @salePrice, @sku,
              @stockQuantity, @stockStatus, @backorders, @status, @isPrivate, @now, @now)
            RETURNING id`,
      params: columns,
    });
  } else {
    steps.push({
      kind: 'sql',
      sql: `UPDATE products SET name = @name, slug = @slug, description = @description,
              short_description = @shortDescription, regular_price = @regularPrice, sale_price = @salePrice,
              sku = @sku, stock_quantity = @stockQuantity, stock_status = @stockStatus, backorders = @backorders,
              status = @status, is_private = @isPrivate, trashed_at = NULL, updated_at = @now
            WHERE id = @id`,
      params: { ...columns, id },
    });
    // A variable product's variations follow their parent's status, as WooCommerce hides them with it.
    for (const variation of change.variations) {
      steps.push({
        kind: 'sql',
        sql: `UPDATE products SET regular_price = @regularPrice, sale_price = @salePrice, sku = @sku,
                stock_quantity = @stockQuantity,
                stock_status = CASE WHEN CAST(@stockQuantity AS BIGINT) IS NULL THEN stock_status
                  WHEN CAST(@stockQuantity AS BIGINT) > 0 THEN 'instock' ELSE 'outofstock' END,
                updated_at = @now
              WHERE id = @variationId AND parent_id = @id`,
        params: {
          regularPrice: variation.regularPrice,
          salePrice: variation.salePrice,
          sku: variation.sku,
          stockQuantity: variation.stockQuantity,
          now: columns.now,
          variationId: variation.id,
          id,
        },
      });
    }
    steps.push({
      kind: 'sql',
      sql: `DELETE FROM product_terms WHERE product_id = @id
              AND term_id IN (SELECT id FROM terms WHERE taxonomy = 'product_cat')`,
      params: { id },
    });
  }
  for (const categoryId of new Set(fields.categoryIds)) {
    steps.push({
      kind: 'sql',
      sql: 'INSERT INTO product_terms (product_id, term_id) VALUES (@productId, @termId)',
      params: { productId, termId: categoryId },
    });
  }
  if (change.image) {
    steps.push({
      kind: 'sql',
      sql: `DELETE FROM product_images WHERE product_id = @productId AND position = 0`,
      params: { productId },
    });
    steps.push({
      kind: 'sql',
      sql: `INSERT INTO product_images (product_id, position, source_url, alt, color, stored_key)
            VALUES (@productId, 0, @url, @alt, @color, @storedKey)`,
      params: {
        productId,
        url: change.image.url,
        alt: change.image.alt,
        color: '#d8d8d8',
        storedKey: change.image.storedKey,
      },
    });
  }
  steps.push({ kind: 'refresh', productId });
  // The owner's edit of an existing product is a product.updated event, queued by the same transaction.
  if (id !== null)
    steps.push({
      kind: 'sql',
      sql: ENQUEUE_WEBHOOK_EVENT,
      params: webhookEventParams('product.updated', id),
    });
  return { steps };
}

/** The field a unique-key failure is about, for a save that lost a race with another owner's. */
export function uniqueViolationField(error: unknown): 'sku' | 'slug' | null {
  const text = `${(error as { message?: string }).message ?? ''} ${(error as { constraint?: string }).constraint ?? ''}`;
  if (!/unique|duplicate/i.test(text)) return null;
  if (/sku/i.test(text)) return 'sku';
  if (/slug/i.test(text)) return 'slug';
  return null;
}

export function resolveStepParams(
  params: Record<string, unknown>,
  newId: number | null,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [key, value === NEW_PRODUCT_ID ? newId : value]),
  );
}

interface JobRow {
  id: string;
  status: ImportJobStatus;
  file_name: string;
  done: number;
  total: number;
  summary: string | null;
  error: string | null;
}

export async function getImportJob(read: SqlRead, id: string): Promise<ImportJob | null> {
  const [row] = await read<JobRow>(
    'SELECT id, status, file_name, done, total, summary, error FROM product_import_jobs WHERE id = @id',
    { id },
  );
  if (!row) return null;
  return {
    id: row.id,
    status: row.status,
    fileName: row.file_name,
    done: Number(row.done),
    total: Number(row.total),
    summary: row.summary === null ? null : JSON.parse(row.summary),
    error: row.error,
  };
}

export const INSERT_IMPORT_JOB = `INSERT INTO product_import_jobs (id, status, file_name, csv, created_at, updated_at)
  VALUES (@id, 'queued', @fileName, @csv, @now, @now)`;

/** Progress and outcome; the CSV text is dropped once the job has finished with it. */
export const UPDATE_IMPORT_JOB = `UPDATE product_import_jobs SET status = @status, done = @done, total = @total,
    summary = @summary, error = @error, updated_at = @now,
    csv = CASE WHEN @status IN ('done', 'failed') THEN '' ELSE csv END
  WHERE id = @id`;
