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
    const [count] = await queryNamed<{ n: number }>(
      this.#pool,
      `SELECT COUNT(*) AS n FROM products p WHERE ${whereSql}`,
      params,
    );
    const rows = await queryNamed<ProductRow>(
      this.#pool,
      `SELECT p.* FROM products p WHERE ${whereSql} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`,
      { ...params, limit: query.perPage, offset: (query.page - 1) * query.perPage },
    );
    return { items: await Promise.all(rows.map((row) => this.#toSummary(row))), total: count?.n ?? 0 };
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
    return row ? this.#toTerm(row) : null;
  }

  async listTerms(taxonomy: Taxonomy): Promise<Term[]> {
    const rows = await this.#rows<TermRow>(
      'SELECT * FROM terms WHERE taxonomy = $1 ORDER BY lower(name), id',
      [taxonomy],
    );
    return Promise.all(rows.map((row) => this.#toTerm(row)));
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

  async #toSummary(row: ProductRow): Promise<ProductSummary> {
    const image = await this.#row<{ id: number; alt: string }>(
      'SELECT id, alt FROM product_images WHERE product_id = $1 ORDER BY position LIMIT 1',
      [row.id],
    );
    let regular: number | null = null;
    let onSale = false;
    if (row.type === 'simple' || row.type === 'external') {
      onSale = row.sale_price !== null && row.regular_price !== null && row.sale_price < row.regular_price;
      regular = onSale ? row.regular_price : null;
    } else if (row.type === 'variable') {
      onSale =
        (
          await this.#row<{ on_sale: boolean }>(
            "SELECT EXISTS (SELECT 1 FROM products WHERE parent_id = $1 AND status = 'publish' AND sale_price IS NOT NULL AND sale_price < regular_price) AS on_sale",
            [row.id],
          )
        )?.on_sale === true;
    }
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
  }

  async #toDetail(row: ProductRow): Promise<ProductDetail> {
    const [summary, imageRows, termRows, vendorRow, attributes, downloads] = await Promise.all([
      this.#toSummary(row),
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
    ]);
    const terms = await Promise.all(termRows.map((term) => this.#toTerm(term)));
    const groupedChildren =
      row.type === 'grouped'
        ? await Promise.all(
            (
              await this.#rows<ProductRow>(
                "SELECT p.* FROM products p JOIN grouped_children g ON g.child_id = p.id WHERE g.parent_id = $1 AND p.status = 'publish' ORDER BY g.position",
                [row.id],
              )
            ).map((child) => this.#toSummary(child)),
          )
        : [];
    return {
      ...summary,
      description: row.description,
      images: imageRows.map(toImage),
      categories: terms.filter((term) => term.taxonomy === 'product_cat'),
      tags: terms.filter((term) => term.taxonomy === 'product_tag'),
      brands: terms.filter((term) => term.taxonomy === 'product_brand'),
      vendor: vendorRow ? toVendor(vendorRow) : null,
      attributes,
      variations: row.type === 'variable' ? await this.#variations(row.id, attributes) : [],
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

  async #attributes(productId: number): Promise<ProductAttribute[]> {
    const rows = await this.#rows<{
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
    );
    return Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        slug: row.slug,
        name: row.name,
        swatchType: row.swatch_type,
        visible: row.visible === 1,
        forVariations: row.for_variations === 1,
        options: (
          await this.#rows<AttributeTermRow>(
            `SELECT t.id, t.slug, t.name, t.color, t.image, t.swatch_type FROM product_attribute_terms pat
             JOIN attribute_terms t ON t.id = pat.term_id WHERE pat.product_id = $1 AND pat.attribute_id = $2
             ORDER BY pat.position`,
            [productId, row.id],
          )
        ).map(toAttributeOption),
      })),
    );
  }

  async #variations(productId: number, attributes: ProductAttribute[]): Promise<Variation[]> {
    const rows = await this.#rows<ProductRow>(
      "SELECT * FROM products WHERE parent_id = $1 AND type = 'variation' AND status = 'publish' ORDER BY menu_order, id",
      [productId],
    );
    const variationAttributes = attributes.filter((attribute) => attribute.forVariations);
    return Promise.all(
      rows.map(async (row) => {
        const [values, imageRow] = await Promise.all([
          this.#rows<{ attribute: string; value: string | null }>(
            `SELECT a.slug AS attribute, t.slug AS value FROM variation_attributes va
             JOIN attributes a ON a.id = va.attribute_id LEFT JOIN attribute_terms t ON t.id = va.term_id
             WHERE va.variation_id = $1`,
            [row.id],
          ),
          this.#row<{ id: number; alt: string }>(
            'SELECT id, alt FROM product_images WHERE product_id = $1 ORDER BY position LIMIT 1',
            [row.id],
          ),
        ]);
        const chosen = new Map(values.map((entry) => [entry.attribute, entry.value ?? '']));
        const inStock = row.stock_status !== 'outofstock';
        const stockLeft = row.stock_quantity !== null && row.stock_quantity > 0 ? row.stock_quantity : null;
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
      }),
    );
  }

  async #toTerm(row: TermRow): Promise<Term> {
    // The term's ancestors in one recursive query (bounded depth guards against a cycle in imported data).
    const ancestors = await this.#rows<{ slug: string }>(
      `WITH RECURSIVE up(id, slug, parent_id, depth) AS (
         SELECT id, slug, parent_id, 0 FROM terms WHERE id = $1
         UNION ALL SELECT t.id, t.slug, t.parent_id, up.depth + 1 FROM terms t JOIN up ON t.id = up.parent_id
         WHERE up.depth < 20)
       SELECT slug FROM up WHERE depth > 0 ORDER BY depth DESC`,
      [row.id],
    );
    return {
      id: row.id,
      taxonomy: row.taxonomy,
      slug: row.slug,
      name: row.name,
      parentId: row.parent_id,
      description: row.description,
      path: [...ancestors.map((a) => a.slug), row.slug],
    };
  }
}
