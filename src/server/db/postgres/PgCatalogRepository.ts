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
  SUMMARY_COLUMNS,
  type SummaryRow,
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
  ImportCatalogOptions,
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

/**
 * Products a term holds up to which its listing reads them first and sorts them (about 2 ms at 300), rather than walking
 * the listing's order until a page of them turned up: the walk reads about (page end) × catalog ÷ term rows, which for
 * a term of 2 products among 20,000 was the whole catalog (90–170 ms), while for a term of 6,572 the products-first
 * read took 28 ms against the walk's 0.5.
 */
const FEW_IN_TERM = 300;

/** The PostgreSQL catalog: the same queries and row mapping as SqliteCatalogRepository. */
export class PgCatalogRepository implements CatalogRepository {
  #pool: PgPool;
  readonly #fewInTerm: number;

  /** `fewInTerm`: FEW_IN_TERM unless a test reads every term's listing both ways. */
  constructor(pool: PgPool, options: { fewInTerm?: number } = {}) {
    this.#pool = pool;
    this.#fewInTerm = options.fewInTerm ?? FEW_IN_TERM;
  }

  /** Rows of a statement: its text and values, or a named (prepared) statement's config. */
  async #rows<T>(sql: string | QueryConfig, params: unknown[] = []): Promise<T[]> {
    return (typeof sql === 'string' ? await this.#pool.query(sql, params) : await this.#pool.query(sql))
      .rows as T[];
  }

  async #row<T>(sql: string | QueryConfig, params: unknown[] = []): Promise<T | undefined> {
    return (await this.#rows<T>(sql, params))[0];
  }

  async countProducts(): Promise<number> {
    return (await this.#row<{ n: number }>("SELECT COUNT(*) AS n FROM products WHERE type <> 'variation'"))
      ?.n as number;
  }

  async listProducts(query: ProductListQuery): Promise<ProductList> {
    const offset = (query.page - 1) * query.perPage;
    // One statement reads the page's rows, then each card's first image and sale flag for those rows only (the
    // inner query picks the page, so an ordering that sorts every match does not run the subqueries for each),
    // a prepared one: a listing's few texts are parsed once per connection. Only the columns a card
    // shows travel back: every column is a value the client parses per row (the description the longest).
    const page = (listing: ReturnType<typeof productListSql>) =>
      queryNamed<SummaryRow & SummaryExtras>(
        this.#pool,
        `SELECT ${SUMMARY_COLUMNS.map((column) => `p.${column}`).join(', ')}, ${firstImageOf('p')} AS first_image, ${variationOnSaleOf('p')} AS variation_on_sale
       FROM (SELECT p.* FROM products p WHERE ${listing.where} ORDER BY ${listing.orderBy} LIMIT @limit OFFSET @offset) p
       ORDER BY ${listing.orderBy}`,
        { ...listing.params, limit: query.perPage, offset },
        { prepare: true },
      );
    const listing = productListSql(query, 'postgres');
    const count = () =>
      queryNamed<{ n: number }>(
        this.#pool,
        `SELECT COUNT(*) AS n FROM products p WHERE ${listing.where}`,
        listing.params,
        {
          prepare: true,
        },
      ).then((rows) => rows[0]?.n ?? 0);
    const summaries = (rows: (SummaryRow & SummaryExtras)[]) =>
      rows.map((row) => toSummary(row, row.first_image ?? undefined, () => row.variation_on_sale));
    // Given ids that all fit on the first page (a product page's lists, a page of search results), the page holds
    // every match: its length is the total, and the count would be one more round trip for nothing.
    if (query.ids && offset === 0 && query.ids.length <= query.perPage) {
      const rows = await page(listing);
      return { items: summaries(rows), total: rows.length };
    }
    // A term's listing counts first: its count tells a small term, whose page is read from its products rather than
    // by walking the listing's order (productListSql `fewInTerm`).
    if (query.term) {
      const total = await count();
      const fewInTerm = total <= this.#fewInTerm;
      const rows = await page(fewInTerm ? productListSql(query, 'postgres', { fewInTerm }) : listing);
      return { items: summaries(rows), total };
    }
    // The count and the page in parallel: two round trips at once rather than one after the other.
    const [rows, total] = await Promise.all([page(listing), count()]);
    return { items: summaries(rows), total };
  }

  async getProductBySlug(slug: string): Promise<ProductDetail | null> {
    return this.#detail('slug', slug);
  }

  async getProductById(id: number): Promise<ProductDetail | null> {
    return this.#detail('id', id);
  }

  async getTermByPath(taxonomy: Taxonomy, path: readonly string[]): Promise<Term | null> {
    if (path.length === 0) return null;
    // One statement walks the path from its first segment down: each segment must be a child of the one before,
    // so /product-category/a/b/ cannot reach an unrelated b. A single segment is any term of that slug; the first
    // of several is a top-level term.
    const row = await this.#row<TermPathRow>({
      name: 'catalog-term-by-path',
      text: `WITH RECURSIVE segments(slugs, taxonomy) AS (SELECT $2::text[], $1::text),
        walk(id, depth) AS (
          SELECT t.id, 1 FROM segments s JOIN terms t ON t.taxonomy = s.taxonomy AND t.slug = s.slugs[1]
          WHERE cardinality(s.slugs) = 1 OR t.parent_id IS NULL
          UNION ALL
          SELECT t.id, walk.depth + 1 FROM walk CROSS JOIN segments s
          JOIN terms t ON t.parent_id = walk.id AND t.taxonomy = s.taxonomy AND t.slug = s.slugs[walk.depth + 1]
          WHERE walk.depth < cardinality(s.slugs))
        SELECT t.*, ${TERM_PATH} FROM walk JOIN terms t ON t.id = walk.id
        WHERE walk.depth = (SELECT cardinality(slugs) FROM segments)`,
      values: [taxonomy, path],
    });
    return row ? toTerm(row) : null;
  }

  async listTerms(taxonomy: Taxonomy): Promise<Term[]> {
    // Every page reads the category menu: a prepared statement. Each term's path is walked here over the listed
    // terms rather than by a recursive subquery per term on the server, the same walk (at most 20 ancestors, so a
    // cycle in imported data ends). A parent the list lacks (another taxonomy's, in odd data) is read as before.
    const rows = await this.#rows<TermRow>({
      name: 'catalog-terms-rows',
      text: 'SELECT t.* FROM terms t WHERE t.taxonomy = $1 ORDER BY lower(t.name), t.id',
      values: [taxonomy],
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    const terms: Term[] = [];
    for (const row of rows) {
      const path = [row.slug];
      let parentId = row.parent_id;
      for (let depth = 0; parentId !== null && depth < 20; depth++) {
        const parent = byId.get(parentId);
        if (!parent) return this.#listTermsWalkedByServer(taxonomy);
        path.unshift(parent.slug);
        parentId = parent.parent_id;
      }
      terms.push(toTerm({ ...row, path }));
    }
    return terms;
  }

  async #listTermsWalkedByServer(taxonomy: Taxonomy): Promise<Term[]> {
    const rows = await this.#rows<TermPathRow>({
      name: 'catalog-terms',
      text: `SELECT t.*, ${TERM_PATH} FROM terms t WHERE t.taxonomy = $1 ORDER BY lower(t.name), t.id`,
      values: [taxonomy],
    });
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
    options: ImportCatalogOptions = {},
  ): Promise<ImportSummary> {
    return importCatalogPg(this.#pool, catalog, onProgress, { handoffWaitMs: options.handoffWaitMs });
  }

  /**
   * A product page's product in one statement: the row and, as JSON, its images, terms with their paths, vendor,
   * attributes with options, downloads, variations with their values and first images, and grouped children
   * with what their cards show.
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
         (SELECT COALESCE(json_agg(to_jsonb(c) || jsonb_build_object('first_image', ${firstImageOf('c')},
            'variation_on_sale', ${variationOnSaleOf('c')}) ORDER BY g.position), '[]')
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
    const groupedChildren =
      row.type === 'grouped'
        ? found.grouped.map((child) =>
            toSummary(child, child.first_image ?? undefined, () => child.variation_on_sale),
          )
        : [];
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
  grouped: (ProductRow & SummaryExtras)[];
}

type TermPathRow = TermRow & { path: string[] };

type QueryConfig = { name: string; text: string; values: unknown[] };

/** What a listing row carries beside the product's columns: the card's first image and the sale flag. */
interface SummaryExtras {
  first_image: ImageRow | null;
  variation_on_sale: boolean;
}

/** The first image (by position) of the product aliased `alias`, as JSON, or null. */
const firstImageOf = (
  alias: string,
) => `(SELECT json_build_object('id', i.id, 'alt', i.alt, 'stored_key', i.stored_key)
  FROM product_images i WHERE i.product_id = ${alias}.id ORDER BY i.position, i.id LIMIT 1)`;

/** Whether the product aliased `alias` is variable with a published variation on sale (what its card shows). */
const variationOnSaleOf = (alias: string) => `(${alias}.type = 'variable' AND EXISTS (SELECT 1 FROM products s
  WHERE s.parent_id = ${alias}.id AND s.status = 'publish' AND s.sale_price IS NOT NULL
  AND s.sale_price < s.regular_price))`;

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
