import {
  attributeFieldName,
  type Download,
  type Post,
  type ProductAttribute,
  type ProductDetail,
  type ProductOrdering,
  type ProductSummary,
  type SwatchType,
  type Taxonomy,
  type Term,
  type Variation,
  type Vendor,
} from '../../../shared/catalog/types';
import type { CatalogImport, ImportSummary } from '../../catalog/import/catalogImport';
import { placeholderColor } from '../../catalog/placeholderColor';
import type { CatalogRepository, ImagePlaceholder, ProductList, ProductListQuery } from '../repositories';
import {
  type AttributeTermRow,
  type PostRow,
  type ProductRow,
  type TermRow,
  toAttributeOption,
  toImage,
  toPost,
  toVendor,
  type VendorRow,
  VISIBLE_IN,
} from '../sqlite/SqliteCatalogRepository';
import { importCatalogThroughSqlite } from './importCatalogPg';
import { queryNamed } from './namedQuery';
import type { PgPool } from './openPostgres';

// As the SQLite adapter orders; `lower()` stands in for SQLite's COLLATE NOCASE.
const ORDER_BY: Record<ProductOrdering, string> = {
  menu_order: 'p.menu_order ASC, lower(p.name) ASC, p.id ASC',
  popularity: 'p.total_sales DESC, p.id DESC',
  rating: 'p.rating_average DESC, p.rating_count DESC, p.id DESC',
  date: 'p.created_at DESC, p.id DESC',
  price: 'p.price_min IS NULL, p.price_min ASC, p.id ASC',
  'price-desc': 'p.price_max IS NULL, p.price_max DESC, p.id DESC',
};

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
    const where = [
      "p.type <> 'variation'",
      "p.status = 'publish'",
      `p.visibility IN (${VISIBLE_IN[query.context].map((v) => `'${v}'`).join(', ')})`,
    ];
    const params: Record<string, unknown> = {};
    if (query.featured) where.push('p.featured = 1');
    if (query.vendorId !== undefined) {
      where.push('p.vendor_id = @vendorId');
      params.vendorId = query.vendorId;
    }
    if (query.term) {
      // Categories include their descendants, as WooCommerce's archives do.
      where.push(`p.id IN (SELECT product_id FROM product_terms WHERE term_id IN (
        WITH RECURSIVE tree(id) AS (SELECT @termId::bigint UNION ALL SELECT t.id FROM terms t JOIN tree ON t.parent_id = tree.id)
        SELECT id FROM tree))`);
      params.termId = query.term.id;
    }
    let orderBy = ORDER_BY[query.orderby];
    if (query.ids) {
      // Search results: the index already applied search visibility and ranked them.
      where.push('p.id = ANY(@ids::bigint[])');
      params.ids = [...query.ids];
      if (query.relevance) orderBy = `array_position(@ids::bigint[], p.id), ${orderBy}`;
    }
    const whereSql = where.join(' AND ');
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
    const row = await this.#row<ProductRow>(
      "SELECT * FROM products WHERE slug = $1 AND type <> 'variation' AND status = 'publish'",
      [slug],
    );
    return row ? this.#toDetail(row) : null;
  }

  async getProductById(id: number): Promise<ProductDetail | null> {
    const row = await this.#row<ProductRow>(
      "SELECT * FROM products WHERE id = $1 AND type <> 'variation' AND status = 'publish'",
      [id],
    );
    return row ? this.#toDetail(row) : null;
  }

  async getTermByPath(taxonomy: Taxonomy, path: readonly string[]): Promise<Term | null> {
    let parentId: number | null = null;
    let row: TermRow | undefined;
    // Each segment must be a child of the one before, so /product-category/a/b/ cannot reach an unrelated b.
    for (const [index, slug] of path.entries()) {
      row =
        index === 0 && path.length === 1
          ? await this.#row<TermRow>('SELECT * FROM terms WHERE taxonomy = $1 AND slug = $2', [
              taxonomy,
              slug,
            ])
          : await this.#row<TermRow>(
              'SELECT * FROM terms WHERE taxonomy = $1 AND slug = $2 AND parent_id IS NOT DISTINCT FROM $3::bigint',
              [taxonomy, slug, parentId],
            );
      if (!row) return null;
      parentId = row.id;
    }
    return row ? ((await this.#toTerms([row]))[0] ?? null) : null;
  }

  async listTerms(taxonomy: Taxonomy): Promise<Term[]> {
    const rows = await this.#rows<TermRow>(
      'SELECT * FROM terms WHERE taxonomy = $1 ORDER BY lower(name), id',
      [taxonomy],
    );
    return this.#toTerms(rows);
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
    return row ? { ...toPost(row), passwordHash: row.password_hash } : null;
  }

  async listPosts(type: Post['type'], limit: number): Promise<Post[]> {
    const rows = await this.#rows<PostRow>(
      'SELECT * FROM posts WHERE type = $1 ORDER BY published_at DESC LIMIT $2',
      [type, limit],
    );
    return rows.map(toPost);
  }

  async getImagePlaceholder(imageId: number): Promise<ImagePlaceholder | null> {
    const row = await this.#row<ImagePlaceholder>(
      `SELECT COALESCE(parent.name, p.name) AS label, i.color FROM product_images i
       JOIN products p ON p.id = i.product_id LEFT JOIN products parent ON parent.id = p.parent_id WHERE i.id = $1`,
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

  async importCatalog(
    catalog: CatalogImport,
    onProgress: (done: number, total: number) => void = () => {},
  ): Promise<ImportSummary> {
    return importCatalogThroughSqlite(this.#pool, catalog, onProgress);
  }

  /*
   * Batched reads (issue 12 speed): on PostgreSQL every query is a round trip, so the rows a page needs are read
   * per set of products/terms (`= ANY($1)`) instead of once per row as the SQLite adapter does. The results are
   * the same (pgRepositories.test.ts compares them with SQLite's).
   */

  /** The first image of each product (by position), keyed by product id. */
  async #firstImages(productIds: readonly number[]): Promise<Map<number, { id: number; alt: string }>> {
    if (productIds.length === 0) return new Map();
    const rows = await this.#rows<{ product_id: number; id: number; alt: string }>(
      `SELECT DISTINCT ON (product_id) product_id, id, alt FROM product_images
       WHERE product_id = ANY($1::bigint[]) ORDER BY product_id, position, id`,
      [productIds],
    );
    return new Map(rows.map((row) => [row.product_id, { id: row.id, alt: row.alt }]));
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
    return rows.map((row) => {
      let regular: number | null = null;
      let onSale = false;
      if (row.type === 'simple' || row.type === 'external') {
        onSale = row.sale_price !== null && row.regular_price !== null && row.sale_price < row.regular_price;
        regular = onSale ? row.regular_price : null;
      } else if (row.type === 'variable') onSale = onSaleVariable.has(row.id);
      const image = images.get(row.id);
      return {
        id: row.id,
        type: row.type === 'variation' ? 'simple' : row.type,
        slug: row.slug,
        name: row.name,
        sku: row.sku,
        featured: row.featured === 1,
        visibility: row.visibility,
        shortDescription: row.short_description,
        price: { min: row.price_min, max: row.price_max, regular, onSale },
        stockStatus: row.stock_status,
        image: image ? toImage(image) : null,
        ratingAverage: row.rating_average,
        ratingCount: row.rating_count,
        totalSales: row.total_sales,
      };
    });
  }

  async #toDetail(row: ProductRow): Promise<ProductDetail> {
    const [[summary], imageRows, termRows, vendorRow, attributes, downloads, variationRows, groupedRows] =
      await Promise.all([
        this.#toSummaries([row]),
        this.#rows<{ id: number; alt: string }>(
          'SELECT id, alt FROM product_images WHERE product_id = $1 ORDER BY position',
          [row.id],
        ),
        this.#rows<TermRow>(
          'SELECT t.* FROM terms t JOIN product_terms pt ON pt.term_id = t.id WHERE pt.product_id = $1 ORDER BY lower(t.name), t.id',
          [row.id],
        ),
        row.vendor_id === null
          ? Promise.resolve(undefined)
          : this.#row<VendorRow>('SELECT * FROM vendors WHERE id = $1', [row.vendor_id]),
        this.#attributes(row.id),
        this.#rows<Download>(
          'SELECT name, url FROM product_downloads WHERE product_id = $1 ORDER BY position',
          [row.id],
        ),
        row.type === 'variable'
          ? this.#rows<ProductRow>(
              "SELECT * FROM products WHERE parent_id = $1 AND type = 'variation' AND status = 'publish' ORDER BY menu_order, id",
              [row.id],
            )
          : Promise.resolve([]),
        row.type === 'grouped'
          ? this.#rows<ProductRow>(
              "SELECT p.* FROM products p JOIN grouped_children g ON g.child_id = p.id WHERE g.parent_id = $1 AND p.status = 'publish' ORDER BY g.position",
              [row.id],
            )
          : Promise.resolve([]),
      ]);
    const [terms, variations, groupedChildren] = await Promise.all([
      this.#toTerms(termRows),
      this.#variations(variationRows, attributes),
      this.#toSummaries(groupedRows),
    ]);
    return {
      ...(summary as ProductSummary),
      description: row.description,
      images: imageRows.map(toImage),
      categories: terms.filter((term) => term.taxonomy === 'product_cat'),
      tags: terms.filter((term) => term.taxonomy === 'product_tag'),
      brands: terms.filter((term) => term.taxonomy === 'product_brand'),
      vendor: vendorRow ? toVendor(vendorRow) : null,
      attributes,
      variations,
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

  /** A product's attributes with their options: two queries in parallel whatever the number of attributes. */
  async #attributes(productId: number): Promise<ProductAttribute[]> {
    const [rows, optionRows] = await Promise.all([
      this.#rows<{
        id: number;
        slug: string;
        name: string;
        swatch_type: SwatchType;
        visible: number;
        for_variations: number;
      }>(
        `SELECT a.id, a.slug, a.name, a.swatch_type, pa.visible, pa.for_variations FROM product_attributes pa
         JOIN attributes a ON a.id = pa.attribute_id WHERE pa.product_id = $1 ORDER BY pa.position`,
        [productId],
      ),
      this.#rows<AttributeTermRow & { attribute_id: number }>(
        `SELECT pat.attribute_id, t.id, t.slug, t.name, t.color, t.image, t.swatch_type FROM product_attribute_terms pat
         JOIN attribute_terms t ON t.id = pat.term_id WHERE pat.product_id = $1
         ORDER BY pat.attribute_id, pat.position`,
        [productId],
      ),
    ]);
    const options = new Map<number, AttributeTermRow[]>();
    for (const { attribute_id, ...option } of optionRows) {
      const list = options.get(attribute_id);
      if (list) list.push(option);
      else options.set(attribute_id, [option]);
    }
    return rows.map((row) => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      swatchType: row.swatch_type,
      visible: row.visible === 1,
      forVariations: row.for_variations === 1,
      options: (options.get(row.id) ?? []).map(toAttributeOption),
    }));
  }

  /** Variations with their chosen values and first images: two queries for all of them. */
  async #variations(rows: readonly ProductRow[], attributes: ProductAttribute[]): Promise<Variation[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [valueRows, images] = await Promise.all([
      this.#rows<{ variation_id: number; attribute: string; value: string | null }>(
        `SELECT va.variation_id, a.slug AS attribute, t.slug AS value FROM variation_attributes va
         JOIN attributes a ON a.id = va.attribute_id LEFT JOIN attribute_terms t ON t.id = va.term_id
         WHERE va.variation_id = ANY($1::bigint[])`,
        [ids],
      ),
      this.#firstImages(ids),
    ]);
    const values = new Map<number, Map<string, string>>();
    for (const entry of valueRows) {
      const chosen = values.get(entry.variation_id) ?? new Map<string, string>();
      values.set(entry.variation_id, chosen.set(entry.attribute, entry.value ?? ''));
    }
    const variationAttributes = attributes.filter((attribute) => attribute.forVariations);
    return rows.map((row) => {
      const chosen = values.get(row.id) ?? new Map<string, string>();
      const inStock = row.stock_status !== 'outofstock';
      const stockLeft = row.stock_quantity !== null && row.stock_quantity > 0 ? row.stock_quantity : null;
      const imageRow = images.get(row.id);
      return {
        id: row.id,
        sku: row.sku,
        // Every attribute the parent varies by is present; one the variation leaves open is '' ("any").
        attributes: Object.fromEntries(
          variationAttributes.map((attribute) => [
            attributeFieldName(attribute.slug),
            chosen.get(attribute.slug) ?? '',
          ]),
        ),
        price: row.sale_price ?? row.regular_price,
        regularPrice: row.regular_price,
        salePrice: row.sale_price,
        is_in_stock: inStock,
        max_qty: row.sold_individually === 1 ? 1 : stockLeft,
        variation_stock_left: stockLeft,
        image: imageRow ? toImage(imageRow) : null,
      };
    });
  }

  /** Terms with their paths: the ancestors of all of them in one recursive query. */
  async #toTerms(rows: readonly TermRow[]): Promise<Term[]> {
    if (rows.length === 0) return [];
    // Bounded depth guards against a cycle in imported data.
    const ancestorRows = await this.#rows<{ origin: number; slug: string }>(
      `WITH RECURSIVE up(origin, id, slug, parent_id, depth) AS (
         SELECT id, id, slug, parent_id, 0 FROM terms WHERE id = ANY($1::bigint[])
         UNION ALL SELECT up.origin, t.id, t.slug, t.parent_id, up.depth + 1 FROM terms t JOIN up ON t.id = up.parent_id
         WHERE up.depth < 20)
       SELECT origin, slug FROM up WHERE depth > 0 ORDER BY origin, depth DESC`,
      [rows.map((row) => row.id)],
    );
    const ancestors = new Map<number, string[]>();
    for (const { origin, slug } of ancestorRows) {
      const list = ancestors.get(origin);
      if (list) list.push(slug);
      else ancestors.set(origin, [slug]);
    }
    return rows.map((row) => ({
      id: row.id,
      taxonomy: row.taxonomy,
      slug: row.slug,
      name: row.name,
      parentId: row.parent_id,
      description: row.description,
      path: [...(ancestors.get(row.id) ?? []), row.slug],
    }));
  }
}
