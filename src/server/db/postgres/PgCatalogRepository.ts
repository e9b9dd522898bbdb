import type {
  AdminProductChange,
  AdminProductListQuery,
  AdminSaveResult,
  ImportJobStatus,
  ImportJobSummary,
} from '../../../shared/catalog/adminProducts';
import type {
  Download,
  Post,
  ProductAttribute,
  ProductDetail,
  ProductSummary,
  SwatchType,
  Taxonomy,
  Term,
  Variation,
  Vendor,
} from '../../../shared/catalog/types';
import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import { placeholderColor } from '../../catalog/placeholderColor';
import {
  type AttributeTermRow,
  type ImageRow,
  type PostRow,
  type ProductRow,
  PUBLISHED_IMAGE_OWNER,
  protectedParts,
  SITEMAP_PRODUCTS_WHERE,
  type TermRow,
  toAttributeOption,
  toImage,
  toPost,
  toSummary,
  toVariation,
  toVendor,
  type VendorRow,
} from '../catalogRows';
import type {
  CatalogRepository,
  ImagePlaceholder,
  ProductList,
  ProductListQuery,
  SitemapProduct,
} from '../ports';
import {
  DELETE_PRODUCT,
  getAdminProduct,
  getImportJob,
  getProductLifecycle,
  INSERT_IMPORT_JOB,
  listAdminProducts,
  planAdminProductSave,
  resolveStepParams,
  type SqlRead,
  TRASH_PRODUCT,
  UPDATE_IMPORT_JOB,
  uniqueViolationField,
} from '../sql/adminProductSql';
import { readCatalogForExport } from '../sql/catalogExportSql';
import { productListSql } from '../sql/productListSql';
import { importCatalogPg } from './importCatalogPg';
import { queryNamed } from './namedQuery';
import { inTransaction, type PgPool } from './openPostgres';
import { refreshDerivedFieldsPg } from './refreshDerivedFields';

/** The PostgreSQL catalog: the same queries and row mapping as SqliteCatalogRepository. */
export class PgCatalogRepository implements CatalogRepository {
  #pool: PgPool;
  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  async #rows<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.#pool.query(sql, params)).rows as T[];
  }

  async #row<T>(sql: string, params: unknown[] = []): Promise<T | undefined> {
    return (await this.#rows<T>(sql, params))[0];
  }

  async countProducts(): Promise<number> {
    return (await this.#row<{ n: number }>("SELECT COUNT(*) AS n FROM products WHERE type <> 'variation'"))
      ?.n as number;
  }

  async listProducts(query: ProductListQuery): Promise<ProductList> {
    const { where: whereSql, orderBy, params } = productListSql(query, 'postgres');
    // The count and the page in parallel: two round trips at once rather than one after the other.
    const [[count], rows] = await Promise.all([
      queryNamed<{ n: number }>(this.#pool, `SELECT COUNT(*) AS n FROM products p WHERE ${whereSql}`, params),
      queryNamed<ProductRow>(
        this.#pool,
        `SELECT p.* FROM products p WHERE ${whereSql} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`,
        { ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage },
      ),
    ]);
    return { items: await this.#toSummaries(rows), total: count?.n ?? 0 };
  }

  async getProductBySlug(slug: string): Promise<ProductDetail | null> {
    return this.#detail('slug', slug);
  }

  async getProductById(id: number): Promise<ProductDetail | null> {
    return this.#detail('id', id);
  }

  async getTermByPath(taxonomy: Taxonomy, path: readonly string[]): Promise<Term | null> {
    let parentId: number | null = null;
    let row: TermPathRow | undefined;
    // Each segment must be a child of the one before, so /product-category/a/b/ cannot reach an unrelated b.
    for (const [index, slug] of path.entries()) {
      row =
        index === 0 && path.length === 1
          ? await this.#row<TermPathRow>(
              `SELECT t.*, ${TERM_PATH} FROM terms t WHERE t.taxonomy = $1 AND t.slug = $2`,
              [taxonomy, slug],
            )
          : await this.#row<TermPathRow>(
              `SELECT t.*, ${TERM_PATH} FROM terms t
               WHERE t.taxonomy = $1 AND t.slug = $2 AND t.parent_id IS NOT DISTINCT FROM $3::bigint`,
              [taxonomy, slug, parentId],
            );
      if (!row) return null;
      parentId = row.id;
    }
    return row ? toTerm(row) : null;
  }

  async listTerms(taxonomy: Taxonomy): Promise<Term[]> {
    const rows = await this.#rows<TermPathRow>(
      `SELECT t.*, ${TERM_PATH} FROM terms t WHERE t.taxonomy = $1 ORDER BY lower(t.name), t.id`,
      [taxonomy],
    );
    return rows.map(toTerm);
  }

  async getVendorBySlug(slug: string): Promise<Vendor | null> {
    const row = await this.#row<VendorRow>('SELECT * FROM vendors WHERE slug = $1', [slug]);
    return row ? toVendor(row) : null;
  }

  async listVendors(): Promise<Vendor[]> {
    return (await this.#rows<VendorRow>('SELECT * FROM vendors ORDER BY name')).map(toVendor);
  }

  async getPostBySlug(slug: string) {
    const row = await this.#row<PostRow>('SELECT * FROM posts WHERE slug = $1', [slug]);
    return row ? { ...toPost(row), ...protectedParts(row) } : null;
  }

  async listPosts(type: Post['type'], limit: number): Promise<Post[]> {
    const rows = await this.#rows<PostRow>(
      'SELECT * FROM posts WHERE type = $1 ORDER BY published_at DESC LIMIT $2',
      [type, limit],
    );
    return rows.map(toPost);
  }

  async listSitemapProducts(limit: number): Promise<SitemapProduct[]> {
    return this.#rows<SitemapProduct>(
      `SELECT slug, updated_at AS "updatedAt" FROM products ${SITEMAP_PRODUCTS_WHERE} LIMIT $1`,
      [limit],
    );
  }

  async getImagePlaceholder(imageId: number): Promise<ImagePlaceholder | null> {
    const row = await this.#row<ImagePlaceholder>(
      `SELECT COALESCE(parent.name, p.name) AS label, i.color FROM product_images i
       JOIN products p ON p.id = i.product_id LEFT JOIN products parent ON parent.id = p.parent_id
       WHERE i.id = $1 AND ${PUBLISHED_IMAGE_OWNER}`,
      [imageId],
    );
    return row ?? null;
  }

  async getSwatchImagePlaceholder(termId: number): Promise<ImagePlaceholder | null> {
    const row = await this.#row<{ name: string; image: string }>(
      'SELECT name, image FROM attribute_terms WHERE id = $1 AND image IS NOT NULL',
      [termId],
    );
    return row ? { label: row.name, color: placeholderColor(row.image, row.name) } : null;
  }

  #read: SqlRead = <T>(sql: string, params: Record<string, unknown> = {}) =>
    queryNamed(this.#pool, sql, params) as Promise<T[]>;

  async listAdminProducts(query: AdminProductListQuery) {
    return listAdminProducts(this.#read, query);
  }

  async getAdminProduct(id: number) {
    return getAdminProduct(this.#read, id);
  }

  async getProductLifecycle(id: number) {
    return getProductLifecycle(this.#read, id);
  }

  async trashProduct(id: number) {
    const now = Date.now();
    return (await this.#read(TRASH_PRODUCT, { id, now, nowIso: new Date(now).toISOString() })).length > 0;
  }

  async deleteProduct(id: number) {
    return (await this.#read(DELETE_PRODUCT, { id })).length > 0;
  }

  async saveAdminProduct(id: number | null, change: AdminProductChange): Promise<AdminSaveResult> {
    const plan = await planAdminProductSave(this.#read, id, change);
    if ('fieldErrors' in plan) return { ok: false, fieldErrors: plan.fieldErrors };
    try {
      const savedId = await inTransaction(this.#pool, async (client) => {
        let newId: number | null = null;
        for (const step of plan.steps) {
          if (step.kind === 'refresh') {
            await refreshDerivedFieldsPg(client, step.productId === id ? (id as number) : (newId ?? -1));
            continue;
          }
          const rows: { id: number }[] = await queryNamed<{ id: number }>(
            client,
            step.sql,
            resolveStepParams(step.params, newId),
          );
          if (step.returnsId) newId = Number(rows[0]?.id);
        }
        return id ?? (newId as number);
      });
      return { ok: true, id: savedId };
    } catch (error) {
      const field = uniqueViolationField(error);
      if (!field) throw error;
      return {
        ok: false,
        fieldErrors: { [field]: `Another product already has this ${field.toUpperCase()}.` },
      };
    }
  }

  async readCatalogForExport() {
    return readCatalogForExport(this.#read);
  }

  async createImportJob(job: { id: string; fileName: string; csv: string; now: number }) {
    await queryNamed(this.#pool, INSERT_IMPORT_JOB, job);
  }

  async updateImportJob(job: {
    id: string;
    status: ImportJobStatus;
    done: number;
    total: number;
    summary: ImportJobSummary | null;
    error: string | null;
    now: number;
  }) {
    await queryNamed(this.#pool, UPDATE_IMPORT_JOB, {
      ...job,
      summary: job.summary === null ? null : JSON.stringify(job.summary),
    });
  }

  async getImportJob(id: string) {
    return getImportJob(this.#read, id);
  }

  async importCatalog(
    catalog: CatalogImport,
    onProgress: (done: number, total: number) => void = () => {},
  ): Promise<ImportSummary> {
    return importCatalogPg(this.#pool, catalog, onProgress);
  }

  /*
   * Batched reads: on PostgreSQL every query is a round trip, so the rows a page needs are read
   * per set of products/terms (`= ANY($1)`) instead of once per row as the SQLite adapter does. The results are
   * the same (pgRepositories.test.ts compares them with SQLite's).
   */

  /** The first image of each product (by position), keyed by product id. */
  async #firstImages(productIds: readonly number[]): Promise<Map<number, ImageRow>> {
    if (productIds.length === 0) return new Map();
    const rows = await this.#rows<ImageRow & { product_id: number }>(
      `SELECT DISTINCT ON (product_id) product_id, id, alt, stored_key FROM product_images
       WHERE product_id = ANY($1::bigint[]) ORDER BY product_id, position, id`,
      [productIds],
    );
    return new Map(
      rows.map((row) => [row.product_id, { id: row.id, alt: row.alt, stored_key: row.stored_key }]),
    );
  }

  /** The variable products among `productIds` with a published variation on sale. */
  async #variableOnSale(productIds: readonly number[]): Promise<Set<number>> {
    if (productIds.length === 0) return new Set();
    const rows = await this.#rows<{ parent_id: number }>(
      `SELECT DISTINCT parent_id FROM products WHERE parent_id = ANY($1::bigint[]) AND status = 'publish'
       AND sale_price IS NOT NULL AND sale_price < regular_price`,
      [productIds],
    );
    return new Set(rows.map((row) => row.parent_id));
  }

  /** Summaries of many products in two queries (first images, sale flags of variable products). */
  async #toSummaries(rows: readonly ProductRow[]): Promise<ProductSummary[]> {
    const variable = rows.filter((row) => row.type === 'variable').map((row) => row.id);
    const [images, onSaleVariable] = await Promise.all([
      this.#firstImages(rows.map((row) => row.id)),
      this.#variableOnSale(variable),
    ]);
    return rows.map((row) => toSummary(row, images.get(row.id), () => onSaleVariable.has(row.id)));
  }

  /**
   * A product page's product in one statement: the row and, as JSON, its images, terms with their paths, vendor,
   * attributes with options, downloads, variations with their values and first images, and grouped children
   * (whose summaries take one more round trip, for grouped products only).
   */
  async #detail(by: 'slug' | 'id', key: string | number): Promise<ProductDetail | null> {
    // A named (prepared) statement: each connection plans this long statement once, not on every page.
    const { rows } = await this.#pool.query({
      name: `catalog-product-by-${by}`,
      text: `SELECT to_jsonb(p) AS row,
         (SELECT COALESCE(json_agg(json_build_object('id', i.id, 'alt', i.alt, 'stored_key', i.stored_key) ORDER BY i.position, i.id), '[]')
          FROM product_images i WHERE i.product_id = p.id) AS images,
         (SELECT COALESCE(json_agg(to_jsonb(t) || jsonb_build_object('path', ${TERM_PATH_EXPRESSION})
            ORDER BY lower(t.name), t.id), '[]')
          FROM terms t JOIN product_terms pt ON pt.term_id = t.id WHERE pt.product_id = p.id) AS terms,
         (SELECT to_jsonb(v) FROM vendors v WHERE v.id = p.vendor_id) AS vendor,
         (SELECT COALESCE(json_agg(json_build_object('id', a.id, 'slug', a.slug, 'name', a.name,
            'swatch_type', a.swatch_type, 'visible', pa.visible, 'for_variations', pa.for_variations,
            'options', (SELECT COALESCE(json_agg(json_build_object('id', t.id, 'slug', t.slug, 'name', t.name,
                'color', t.color, 'image', t.image, 'swatch_type', t.swatch_type) ORDER BY pat.position), '[]')
              FROM product_attribute_terms pat JOIN attribute_terms t ON t.id = pat.term_id
              WHERE pat.product_id = p.id AND pat.attribute_id = a.id)) ORDER BY pa.position), '[]')
          FROM product_attributes pa JOIN attributes a ON a.id = pa.attribute_id WHERE pa.product_id = p.id)
           AS attributes,
         (SELECT COALESCE(json_agg(json_build_object('name', d.name, 'url', d.url) ORDER BY d.position), '[]')
          FROM product_downloads d WHERE d.product_id = p.id) AS downloads,
         (SELECT COALESCE(json_agg(json_build_object('row', to_jsonb(v),
            'values', (SELECT COALESCE(json_agg(json_build_object('attribute', a.slug, 'value', t.slug)), '[]')
              FROM variation_attributes va JOIN attributes a ON a.id = va.attribute_id
              LEFT JOIN attribute_terms t ON t.id = va.term_id WHERE va.variation_id = v.id),
            'image', (SELECT json_build_object('id', i.id, 'alt', i.alt, 'stored_key', i.stored_key) FROM product_images i
              WHERE i.product_id = v.id ORDER BY i.position, i.id LIMIT 1)) ORDER BY v.menu_order, v.id), '[]')
          FROM products v WHERE v.parent_id = p.id AND v.type = 'variation' AND v.status = 'publish')
           AS variations,
         EXISTS (SELECT 1 FROM products s WHERE s.parent_id = p.id AND s.status = 'publish'
           AND s.sale_price IS NOT NULL AND s.sale_price < s.regular_price) AS variation_on_sale,
         (SELECT COALESCE(json_agg(to_jsonb(c) ORDER BY g.position), '[]')
          FROM products c JOIN grouped_children g ON g.child_id = c.id WHERE g.parent_id = p.id
            AND c.status = 'publish') AS grouped
       FROM products p WHERE p.${by} = $1 AND p.type <> 'variation' AND p.status = 'publish'`,
      values: [key],
    });
    const found = rows[0] as DetailRow | undefined;
    if (!found) return null;
    const { row } = found;
    const attributes: ProductAttribute[] = found.attributes.map((attribute) => ({
      id: attribute.id,
      slug: attribute.slug,
      name: attribute.name,
      swatchType: attribute.swatch_type,
      visible: attribute.visible === 1,
      forVariations: attribute.for_variations === 1,
      options: attribute.options.map(toAttributeOption),
    }));
    const terms = found.terms.map(toTerm);
    const groupedChildren = row.type === 'grouped' ? await this.#toSummaries(found.grouped) : [];
    return {
      ...toSummary(row, found.images[0], () => found.variation_on_sale),
      description: row.description,
      images: found.images.map(toImage),
      categories: terms.filter((term) => term.taxonomy === 'product_cat'),
      tags: terms.filter((term) => term.taxonomy === 'product_tag'),
      brands: terms.filter((term) => term.taxonomy === 'product_brand'),
      vendor: found.vendor ? toVendor(found.vendor) : null,
      attributes,
      variations: row.type === 'variable' ? toVariations(found.variations, attributes) : [],
      groupedChildren,
      externalUrl: row.external_url,
      buttonText: row.button_text,
      virtual: row.is_virtual === 1,
      downloadable: row.is_downloadable === 1,
      downloads: found.downloads,
      stockQuantity: row.stock_quantity,
      soldIndividually: row.sold_individually === 1,
    };
  }
}

/** What #detail's statement answers: the product row and its parts as JSON. */
interface DetailRow {
  row: ProductRow;
  images: ImageRow[];
  terms: TermPathRow[];
  vendor: VendorRow | null;
  attributes: {
    id: number;
    slug: string;
    name: string;
    swatch_type: SwatchType;
    visible: number;
    for_variations: number;
    options: AttributeTermRow[];
  }[];
  downloads: Download[];
  variations: {
    row: ProductRow;
    values: { attribute: string; value: string | null }[];
    image: ImageRow | null;
  }[];
  variation_on_sale: boolean;
  grouped: ProductRow[];
}

type TermPathRow = TermRow & { path: string[] };

/*
 * A term's path (its ancestors' slugs, then its own) for the term aliased `t`, in the statement that reads it: a
 * recursive walk up the parents, bounded so a cycle in imported data cannot loop.
 */
const TERM_PATH_EXPRESSION = `(WITH RECURSIVE up(id, slug, parent_id, depth) AS (
    SELECT t.id, t.slug, t.parent_id, 0
    UNION ALL SELECT x.id, x.slug, x.parent_id, up.depth + 1 FROM terms x JOIN up ON x.id = up.parent_id
    WHERE up.depth < 20)
  SELECT array_to_json(array_agg(slug ORDER BY depth DESC)) FROM up)`;
const TERM_PATH = `${TERM_PATH_EXPRESSION} AS path`;

function toTerm(row: TermPathRow): Term {
  return {
    id: row.id,
    taxonomy: row.taxonomy,
    slug: row.slug,
    name: row.name,
    parentId: row.parent_id,
    description: row.description,
    path: row.path,
  };
}

function toVariations(rows: DetailRow['variations'], attributes: ProductAttribute[]): Variation[] {
  const variationAttributes = attributes.filter((attribute) => attribute.forVariations);
  return rows.map(({ row, values, image }) => toVariation(row, values, image, variationAttributes));
}
