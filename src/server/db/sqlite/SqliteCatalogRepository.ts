import type Database from 'better-sqlite3';
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
  SUMMARY_COLUMNS as CARD_FIELDS,
  type SummaryRow as CardFields,
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
  VARIATION_COLUMNS,
  type VariationRow,
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
  type AdminWriteStep,
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
import { checkpointAfterImport } from './checkpointAfterImport';
import { importHandedOver } from './handOffImportSqlite';
import { refreshDerivedFields } from './refreshDerivedFields';
import type { SqliteImportHandoffs } from './SqliteImportHandoffs';
import { writeCatalogImport } from './writeCatalogImport';

/** The product aliased `p`'s first image, as JSON (id, alt, stored_key), or null. */
const FIRST_IMAGE = `(SELECT json_object('id', i.id, 'alt', i.alt, 'stored_key', i.stored_key) FROM product_images i
  WHERE i.product_id = p.id ORDER BY i.position LIMIT 1)`;

/**
 * What a product card needs besides the product's row, read in the row's statement: its first image, and whether it
 * is variable with a published variation on sale.
 */
const SUMMARY_COLUMNS = `${FIRST_IMAGE} AS first_image,
  (p.type = 'variable' AND EXISTS (SELECT 1 FROM products s WHERE s.parent_id = p.id AND s.status = 'publish'
    AND s.sale_price IS NOT NULL AND s.sale_price < s.regular_price)) AS variation_on_sale`;

type SummaryRow = ProductRow & { first_image: string | null; variation_on_sale: number };

/** A card's own columns (listings read only these, not the description and the rest of the row). */
const CARD_COLUMNS = CARD_FIELDS.map((field) => `p.${field}`).join(', ');
type CardRow = CardFields & { first_image: string | null; variation_on_sale: number };

/** Rows by a key, each group in the rows' order (Map.groupBy, which Node 20 lacks). */
function groupBy<Row, Key>(rows: readonly Row[], keyOf: (row: Row) => Key): Map<Key, Row[]> {
  const groups = new Map<Key, Row[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

export class SqliteCatalogRepository implements CatalogRepository {
  #db: Database.Database;
  /** Imports handed to the server processes (a file-backed shop only). */
  #handoffs: SqliteImportHandoffs | undefined;
  constructor(db: Database.Database, handoffs?: SqliteImportHandoffs) {
    this.#handoffs = handoffs;
    this.#db = db;
  }

  async countProducts(): Promise<number> {
    return this.#db
      .prepare("SELECT COUNT(*) FROM products WHERE type <> 'variation'")
      .pluck()
      .get() as number;
  }

  async listProducts(query: ProductListQuery): Promise<ProductList> {
    const { where: whereSql, orderBy, params } = productListSql(query, 'sqlite');
    const offset = (query.page - 1) * query.perPage;
    // One statement: the page's ids are picked first (sorting ids only, however many products match), then their
    // cards' columns with each one's first image and sale flag, for those rows only.
    // The page size is written into the statement, not bound: SQLite plans a constant LIMIT better (the statement
    // took half the time on the demo catalog's home page). It is an integer checked here, from a setting, a list's
    // length or an API's validated per_page (at most 100), so few statements; the offset stays bound.
    if (!Number.isSafeInteger(query.perPage) || query.perPage < 1)
      throw new RangeError(`perPage must be a positive integer, not ${query.perPage}`);
    const rows = this.#db
      .prepare(
        `SELECT ${CARD_COLUMNS}, ${SUMMARY_COLUMNS}
         FROM (SELECT p.id FROM products p WHERE ${whereSql} ORDER BY ${orderBy} LIMIT ${query.perPage} OFFSET @offset) page
         JOIN products p ON p.id = page.id
         ORDER BY ${orderBy}`,
      )
      .all({ ...params, offset }) as CardRow[];
    // Given ids that all fit on the first page (a product page's lists, a page of search results), the page holds
    // every match: its length is the total.
    const countNeeded = !(query.ids && offset === 0 && query.ids.length <= query.perPage);
    const total = countNeeded
      ? (this.#db.prepare(`SELECT COUNT(*) FROM products p WHERE ${whereSql}`).pluck().get(params) as number)
      : rows.length;
    return { items: rows.map((row) => this.#toSummary(row)), total };
  }

  async getProductBySlug(slug: string): Promise<ProductDetail | null> {
    const row = this.#db
      .prepare(
        `SELECT p.*, ${SUMMARY_COLUMNS} FROM products p
         WHERE p.slug = ? AND p.type <> 'variation' AND p.status = 'publish'`,
      )
      .get(slug) as SummaryRow | undefined;
    return row ? this.#toDetail(row) : null;
  }

  async getProductById(id: number): Promise<ProductDetail | null> {
    const row = this.#db
      .prepare(
        `SELECT p.*, ${SUMMARY_COLUMNS} FROM products p
         WHERE p.id = ? AND p.type <> 'variation' AND p.status = 'publish'`,
      )
      .get(id) as SummaryRow | undefined;
    return row ? this.#toDetail(row) : null;
  }

  async getTermByPath(taxonomy: Taxonomy, path: readonly string[]): Promise<Term | null> {
    let parentId: number | null = null;
    let row: TermRow | undefined;
    // Each segment must be a child of the one before, so /product-category/a/b/ cannot reach an unrelated b.
    for (const [index, slug] of path.entries()) {
      row = this.#db
        .prepare(
          index === 0 && path.length === 1
            ? 'SELECT * FROM terms WHERE taxonomy = ? AND slug = ? AND (? IS NULL OR 1)'
            : 'SELECT * FROM terms WHERE taxonomy = ? AND slug = ? AND parent_id IS ?',
        )
        .get(taxonomy, slug, parentId) as TermRow | undefined;
      if (!row) return null;
      parentId = row.id;
    }
    return row ? this.#toTerm(row) : null;
  }

  async listTerms(taxonomy: Taxonomy): Promise<Term[]> {
    const rows = this.#db
      .prepare('SELECT * FROM terms WHERE taxonomy = ? ORDER BY name COLLATE NOCASE')
      .all(taxonomy) as TermRow[];
    return rows.map((row) => this.#toTerm(row));
  }

  async getVendorBySlug(slug: string): Promise<Vendor | null> {
    const row = this.#db.prepare('SELECT * FROM vendors WHERE slug = ?').get(slug) as VendorRow | undefined;
    return row ? toVendor(row) : null;
  }

  async listVendors(): Promise<Vendor[]> {
    return (this.#db.prepare('SELECT * FROM vendors ORDER BY name').all() as VendorRow[]).map(toVendor);
  }

  async getPostBySlug(slug: string) {
    const row = this.#db.prepare('SELECT * FROM posts WHERE slug = ?').get(slug) as PostRow | undefined;
    return row ? { ...toPost(row), ...protectedParts(row) } : null;
  }

  async listPosts(type: Post['type'], limit: number): Promise<Post[]> {
    const rows = this.#db
      .prepare('SELECT * FROM posts WHERE type = ? ORDER BY published_at DESC LIMIT ?')
      .all(type, limit) as PostRow[];
    return rows.map(toPost);
  }

  async listSitemapProducts(limit: number): Promise<SitemapProduct[]> {
    return this.#db
      .prepare(`SELECT slug, updated_at AS updatedAt FROM products ${SITEMAP_PRODUCTS_WHERE} LIMIT ?`)
      .all(limit) as SitemapProduct[];
  }

  async getImagePlaceholder(imageId: number): Promise<ImagePlaceholder | null> {
    const row = this.#db
      .prepare(
        `SELECT COALESCE(parent.name, p.name) AS label, i.color FROM product_images i
         JOIN products p ON p.id = i.product_id LEFT JOIN products parent ON parent.id = p.parent_id
         WHERE i.id = ? AND ${PUBLISHED_IMAGE_OWNER}`,
      )
      .get(imageId) as ImagePlaceholder | undefined;
    return row ?? null;
  }

  async getSwatchImagePlaceholder(termId: number): Promise<ImagePlaceholder | null> {
    const row = this.#db
      .prepare('SELECT name, image FROM attribute_terms WHERE id = ? AND image IS NOT NULL')
      .get(termId) as { name: string; image: string } | undefined;
    return row ? { label: row.name, color: placeholderColor(row.image, row.name) } : null;
  }

  async importCatalog(
    catalog: CatalogImport,
    onProgress: (done: number, total: number) => void = () => {},
    options: ImportCatalogOptions = {},
  ): Promise<ImportSummary> {
    // A connection of its own may stay in its transaction while the server processes build from its documents.
    const side = options.ownConnection ? this.#handoffs?.fileIfOpens() : null;
    const summary = side
      ? await importHandedOver(this.#db, side, catalog, onProgress, { waitMs: options.handoffWaitMs })
      : // IMMEDIATE: the import reads the catalog to plan, then writes; a deferred transaction would fail outright
        // (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out) if a shopper's write committed in between.
        this.#db.transaction(() => writeCatalogImport(this.#db, catalog, onProgress)).immediate();
    // Its own process copies what it wrote into the database file, rather than a server's next write.
    if (options.ownConnection) await checkpointAfterImport(this.#db);
    return summary;
  }

  #read: SqlRead = async <T>(sql: string, params: Record<string, unknown> = {}) =>
    this.#db.prepare(sql).all(params) as T[];

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
    return this.#db.prepare(TRASH_PRODUCT).all({ id, now, nowIso: new Date(now).toISOString() }).length > 0;
  }

  async deleteProduct(id: number) {
    return this.#db.prepare(DELETE_PRODUCT).all({ id }).length > 0;
  }

  async saveAdminProduct(id: number | null, change: AdminProductChange): Promise<AdminSaveResult> {
    const plan = await planAdminProductSave(this.#read, id, change);
    if ('fieldErrors' in plan) return { ok: false, fieldErrors: plan.fieldErrors };
    try {
      // Synchronous: nothing else runs on the connection between the plan's statements.
      const savedId = this.#db.transaction((steps: AdminWriteStep[]) => {
        let newId: number | null = null;
        for (const step of steps) {
          if (step.kind === 'refresh') {
            refreshDerivedFields(this.#db, step.productId === id ? (id as number) : (newId ?? -1));
            continue;
          }
          const statement = this.#db.prepare(step.sql);
          const params = resolveStepParams(step.params, newId);
          if (step.returnsId) newId = (statement.get(params) as { id: number }).id;
          else statement.run(params);
        }
        return id ?? (newId as number);
      })(plan.steps);
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
    this.#db.prepare(INSERT_IMPORT_JOB).run(job);
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
    this.#db
      .prepare(UPDATE_IMPORT_JOB)
      .run({ ...job, summary: job.summary === null ? null : JSON.stringify(job.summary) });
  }

  async getImportJob(id: string) {
    return getImportJob(this.#read, id);
  }

  #toSummary(row: CardRow): ProductSummary {
    return toSummary(
      row,
      row.first_image === null ? undefined : (JSON.parse(row.first_image) as ImageRow),
      () => row.variation_on_sale === 1,
    );
  }

  #toDetail(row: SummaryRow): ProductDetail {
    const summary = this.#toSummary(row);
    const images = (
      this.#db
        .prepare('SELECT id, alt, stored_key FROM product_images WHERE product_id = ? ORDER BY position')
        .all(row.id) as ImageRow[]
    ).map(toImage);
    const terms = (
      this.#db
        .prepare(
          'SELECT t.* FROM terms t JOIN product_terms pt ON pt.term_id = t.id WHERE pt.product_id = ? ORDER BY t.name COLLATE NOCASE',
        )
        .all(row.id) as TermRow[]
    ).map((term) => this.#toTerm(term));
    const vendorRow =
      row.vendor_id === null
        ? undefined
        : (this.#db.prepare('SELECT * FROM vendors WHERE id = ?').get(row.vendor_id) as
            | VendorRow
            | undefined);
    const attributes = this.#attributes(row.id);
    const groupedChildren =
      row.type === 'grouped'
        ? (
            this.#db
              .prepare(
                `SELECT p.*, ${SUMMARY_COLUMNS} FROM products p JOIN grouped_children g ON g.child_id = p.id
                 WHERE g.parent_id = ? AND p.status = 'publish' ORDER BY g.position`,
              )
              .all(row.id) as SummaryRow[]
          ).map((child) => this.#toSummary(child))
        : [];
    const downloads = this.#db
      .prepare('SELECT name, url FROM product_downloads WHERE product_id = ? ORDER BY position')
      .all(row.id) as Download[];
    return {
      ...summary,
      description: row.description,
      images,
      categories: terms.filter((term) => term.taxonomy === 'product_cat'),
      tags: terms.filter((term) => term.taxonomy === 'product_tag'),
      brands: terms.filter((term) => term.taxonomy === 'product_brand'),
      vendor: vendorRow ? toVendor(vendorRow) : null,
      attributes,
      variations: row.type === 'variable' ? this.#variations(row.id, attributes) : [],
      groupedChildren,
      externalUrl: row.external_url,
      buttonText: row.button_text,
      virtual: row.is_virtual === 1,
      downloadable: row.is_downloadable === 1,
      downloads,
      stockQuantity: row.stock_quantity,
      soldIndividually: row.sold_individually === 1,
    };
  }

  #attributes(productId: number): ProductAttribute[] {
    const rows = this.#db
      .prepare(
        `SELECT a.id, a.slug, a.name, a.swatch_type, pa.visible, pa.for_variations FROM product_attributes pa
         JOIN attributes a ON a.id = pa.attribute_id WHERE pa.product_id = ? ORDER BY pa.position`,
      )
      .all(productId) as {
      id: number;
      slug: string;
      name: string;
      swatch_type: SwatchType;
      visible: number;
      for_variations: number;
    }[];
    if (rows.length === 0) return [];
    // Every attribute's options in one read, each attribute's in its own order.
    const optionsOf = groupBy(
      this.#db
        .prepare(
          `SELECT pat.attribute_id, t.id, t.slug, t.name, t.color, t.image, t.swatch_type
           FROM product_attribute_terms pat JOIN attribute_terms t ON t.id = pat.term_id
           WHERE pat.product_id = ? ORDER BY pat.attribute_id, pat.position`,
        )
        .all(productId) as (AttributeTermRow & { attribute_id: number })[],
      (option) => option.attribute_id,
    );
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      swatchType: row.swatch_type,
      visible: row.visible === 1,
      forVariations: row.for_variations === 1,
      options: (optionsOf.get(row.id) ?? []).map(toAttributeOption),
    }));
  }

  #variations(productId: number, attributes: ProductAttribute[]): Variation[] {
    // The variations with their images, then all their attribute values: two reads, however many variations. Only
    // the columns a variation shows (every column of a dozen rows was most of the read).
    const rows = this.#db
      .prepare(
        `SELECT ${VARIATION_COLUMNS.map((column) => `p.${column}`).join(', ')}, ${FIRST_IMAGE} AS first_image
         FROM products p
         WHERE p.parent_id = ? AND p.type = 'variation' AND p.status = 'publish' ORDER BY p.menu_order, p.id`,
      )
      .all(productId) as (VariationRow & { first_image: string | null })[];
    if (rows.length === 0) return [];
    const valuesOf = groupBy(
      this.#db
        .prepare(
          `SELECT va.variation_id, a.slug AS attribute, t.slug AS value FROM variation_attributes va
           JOIN attributes a ON a.id = va.attribute_id LEFT JOIN attribute_terms t ON t.id = va.term_id
           WHERE va.variation_id IN (SELECT id FROM products WHERE parent_id = ? AND type = 'variation')`,
        )
        .all(productId) as { variation_id: number; attribute: string; value: string | null }[],
      (value) => value.variation_id,
    );
    const variationAttributes = attributes.filter((attribute) => attribute.forVariations);
    return rows.map((row) =>
      toVariation(
        row,
        valuesOf.get(row.id) ?? [],
        row.first_image === null ? null : (JSON.parse(row.first_image) as ImageRow),
        variationAttributes,
      ),
    );
  }

  #toTerm(row: TermRow): Term {
    const path = [row.slug];
    let parentId = row.parent_id;
    // Bounded walk up the hierarchy, guarding against a cycle in imported data.
    for (let depth = 0; parentId !== null && depth < 20; depth++) {
      const parent = this.#db.prepare('SELECT slug, parent_id FROM terms WHERE id = ?').get(parentId) as
        | { slug: string; parent_id: number | null }
        | undefined;
      if (!parent) break;
      path.unshift(parent.slug);
      parentId = parent.parent_id;
    }
    return {
      id: row.id,
      taxonomy: row.taxonomy,
      slug: row.slug,
      name: row.name,
      parentId: row.parent_id,
      description: row.description,
      path,
    };
  }
}
