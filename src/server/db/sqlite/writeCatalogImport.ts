import type Database from 'better-sqlite3';
import { ShopError } from '../../../shared/errors/ShopError';
import { cleanForSlug } from '../../../shared/validation/cleanForSlug';
import {
  type CatalogImport,
  describeReference,
  type ImportProduct,
  type ImportRowError,
  type ImportSummary,
  type ProductReference,
} from '../../catalog/import/catalogImport';
import { placeholderColor } from '../../catalog/placeholderColor';
import { sanitizeRichText } from '../../catalog/sanitizeRichText';
import { checkPostPassword, hashPostPassword } from '../../content/postPassword';
import { refreshDerivedFields } from './refreshDerivedFields';

/**
 * Writes an import into SQLite. Runs inside the caller's transaction; any ShopError thrown here rolls the whole
 * import back. Products are matched by SKU, then by ID, so a re-import updates rows instead of duplicating them.
 */
export function writeCatalogImport(
  database: Database.Database,
  { products, site }: CatalogImport,
  onProgress: (done: number, total: number) => void,
): ImportSummary {
  const db = withStatementCache(database);
  const summary: ImportSummary = { created: 0, updated: 0, variations: 0, categories: 0, posts: 0 };
  const errors: ImportRowError[] = [];
  const total = products.length;
  let done = 0;

  const terms = new TermWriter(db);
  for (const category of site.categories) {
    terms.category(splitPath(category.path), category.description);
  }
  for (const brand of site.brands) terms.brand(brand.name, brand.slug, brand.description);

  const upsertVendor = db.prepare(
    `INSERT INTO vendors (slug, name, store_url, city) VALUES (@slug, @name, @storeUrl, @city)
     ON CONFLICT (slug) DO UPDATE SET name = excluded.name, store_url = excluded.store_url, city = excluded.city`,
  );
  for (const vendor of site.vendors) upsertVendor.run(vendor);

  const attributes = new AttributeWriter(db, site.attributes);

  // Parents and simple products first, so variations and grouped products can find them whatever the row order.
  const ordered = [...products].sort(
    (a, b) => Number(a.type === 'variation') - Number(b.type === 'variation'),
  );
  const idByCsvId = new Map<number, number>();
  const idBySku = new Map<string, number>();
  const findExisting = db.prepare('SELECT id, slug, type FROM products WHERE sku = ?');
  const findById = db.prepare('SELECT id, slug, type, sku FROM products WHERE id = ?');

  const resolve = (reference: ProductReference): number | undefined => {
    if ('sku' in reference) {
      return (
        idBySku.get(reference.sku) ?? (findExisting.get(reference.sku) as { id: number } | undefined)?.id
      );
    }
    return (
      idByCsvId.get(reference.csvId) ?? (findById.get(reference.csvId) as { id: number } | undefined)?.id
    );
  };

  // Products whose listing price and stock are recomputed at the end, once their variations and children exist.
  const touchedProducts = new Set<number>();
  for (const product of ordered) {
    let parentId: number | null = null;
    if (product.type === 'variation' && product.parent) {
      parentId = resolve(product.parent) ?? null;
      const parentType =
        parentId === null ? null : (findById.get(parentId) as { type: string } | undefined)?.type;
      if (parentId === null || parentType !== 'variable') {
        errors.push({
          line: product.line,
          column: 'Parent',
          message: `No variable product "${describeReference(product.parent)}" to attach this variation to`,
        });
        continue;
      }
      touchedProducts.add(parentId);
    }

    const existing =
      (product.sku !== null ? findExisting.get(product.sku) : undefined) ??
      (product.csvId !== null ? findById.get(product.csvId) : undefined);
    const row = existing as { id: number; slug: string | null; sku?: string | null } | undefined;
    // An ID that belongs to another product (another SKU) is not ours to overwrite.
    const sameProduct =
      row && (product.sku === null || row.sku === undefined || row.sku === null || row.sku === product.sku);
    const id = writeProduct(
      db,
      product,
      sameProduct ? row : undefined,
      parentId,
      site.products[product.sku ?? ''],
    );
    if (sameProduct && row) summary.updated++;
    else summary.created++;
    if (product.type === 'variation') summary.variations++;
    if (product.csvId !== null) idByCsvId.set(product.csvId, id);
    if (product.sku !== null) idBySku.set(product.sku, id);

    writeRelations(db, id, product, terms, attributes);
    if (product.type !== 'variation') touchedProducts.add(id);
    done++;
    onProgress(done, total);
  }

  // Grouped children, and which attributes of variable parents their variations use.
  const clearChildren = db.prepare('DELETE FROM grouped_children WHERE parent_id = ?');
  const addChild = db.prepare(
    'INSERT INTO grouped_children (parent_id, child_id, position) VALUES (?, ?, ?)',
  );
  for (const product of products) {
    if (product.type !== 'grouped') continue;
    const parentId = resolve(product.sku !== null ? { sku: product.sku } : { csvId: product.csvId ?? -1 });
    if (parentId === undefined) continue;
    clearChildren.run(parentId);
    product.groupedChildren.forEach((reference, position) => {
      const childId = resolve(reference);
      if (childId === undefined) {
        errors.push({
          line: product.line,
          column: 'Grouped products',
          message: `No product "${describeReference(reference)}" to group`,
        });
      } else addChild.run(parentId, childId, position);
    });
  }
  const markVariationAttributes = db.prepare(
    `UPDATE product_attributes SET for_variations = EXISTS (
       SELECT 1 FROM products v JOIN variation_attributes va ON va.variation_id = v.id
       WHERE v.parent_id = product_attributes.product_id AND va.attribute_id = product_attributes.attribute_id)
     WHERE product_id = ?`,
  );
  for (const productId of touchedProducts) {
    markVariationAttributes.run(productId);
    refreshDerivedFields(db, productId);
  }

  if (errors.length > 0) {
    throw new ShopError('import_failed', `${errors.length} row(s) could not be imported`, { errors });
  }

  writeSidecarProducts(db, site.products, site.vendors.length > 0 || Object.keys(site.products).length > 0);
  const upsertPost = db.prepare(
    `INSERT INTO posts (type, slug, title, excerpt, content, password_hash, published_at)
     VALUES (@type, @slug, @title, @excerpt, @content, @passwordHash, @publishedAt)
     ON CONFLICT (slug) DO UPDATE SET type = excluded.type, title = excluded.title, excerpt = excluded.excerpt,
       content = excluded.content, password_hash = excluded.password_hash, published_at = excluded.published_at`,
  );
  const storedPassword = db.prepare('SELECT password_hash FROM posts WHERE slug = ?').pluck();
  for (const post of site.posts) {
    // An unchanged password keeps its hash, so visitors who unlocked the page stay unlocked after a re-import.
    const stored = storedPassword.get(post.slug) as string | null | undefined;
    const keep = post.password !== undefined && stored && checkPostPassword(post.password, stored);
    upsertPost.run({
      type: post.type,
      slug: post.slug,
      title: post.title,
      excerpt: post.excerpt,
      content: sanitizeRichText(post.content),
      passwordHash: keep ? stored : post.password ? hashPostPassword(post.password) : null,
      publishedAt: post.publishedAt,
    });
    summary.posts++;
  }
  summary.categories = terms.categoryCount();
  return summary;
}

function writeProduct(
  db: Database.Database,
  product: ImportProduct,
  existing: { id: number; slug: string | null } | undefined,
  parentId: number | null,
  meta: { totalSales?: number } | undefined,
): number {
  const values = {
    type: product.type,
    parentId,
    sku: product.sku,
    name: product.name,
    status: product.published ? 'publish' : 'draft',
    featured: Number(product.featured),
    visibility: product.visibility,
    shortDescription: sanitizeRichText(product.shortDescription),
    description: sanitizeRichText(product.description),
    regularPrice: product.regularPrice,
    salePrice: product.salePrice,
    stockStatus: product.stockStatus,
    stockQuantity: product.stockQuantity,
    soldIndividually: Number(product.soldIndividually),
    virtual: Number(product.virtual),
    downloadable: Number(product.downloadable),
    externalUrl: product.externalUrl,
    buttonText: product.buttonText,
    menuOrder: product.position,
    totalSales: meta?.totalSales ?? null,
  };
  if (existing) {
    db.prepare(
      `UPDATE products SET type = @type, parent_id = @parentId, sku = @sku, name = @name, status = @status,
         featured = @featured, visibility = @visibility, short_description = @shortDescription,
         description = @description, regular_price = @regularPrice, sale_price = @salePrice,
         stock_status = @stockStatus, stock_quantity = @stockQuantity, sold_individually = @soldIndividually,
         is_virtual = @virtual, is_downloadable = @downloadable, external_url = @externalUrl,
         button_text = @buttonText, menu_order = @menuOrder,
         total_sales = COALESCE(@totalSales, total_sales)
       WHERE id = @id`,
    ).run({ ...values, id: existing.id });
    return existing.id;
  }
  const idTaken =
    product.csvId !== null && db.prepare('SELECT 1 FROM products WHERE id = ?').get(product.csvId);
  const slug = product.type === 'variation' ? null : uniqueSlug(db, product.name);
  const result = db
    .prepare(
      `INSERT INTO products (id, type, parent_id, sku, slug, name, status, featured, visibility, short_description,
         description, regular_price, sale_price, stock_status, stock_quantity, sold_individually, is_virtual,
         is_downloadable, external_url, button_text, menu_order, total_sales)
       VALUES (@id, @type, @parentId, @sku, @slug, @name, @status, @featured, @visibility, @shortDescription,
         @description, @regularPrice, @salePrice, @stockStatus, @stockQuantity, @soldIndividually, @virtual,
         @downloadable, @externalUrl, @buttonText, @menuOrder, COALESCE(@totalSales, 0))`,
    )
    .run({ ...values, id: idTaken ? null : product.csvId, slug });
  return Number(result.lastInsertRowid);
}

function uniqueSlug(db: Database.Database, name: string): string {
  const base = cleanForSlug(name) || 'product';
  const taken = db.prepare('SELECT 1 FROM products WHERE slug = ?');
  let slug = base;
  for (let n = 2; taken.get(slug); n++) slug = `${base}-${n}`;
  return slug;
}

function writeRelations(
  db: Database.Database,
  id: number,
  product: ImportProduct,
  terms: TermWriter,
  attributes: AttributeWriter,
) {
  db.prepare('DELETE FROM product_terms WHERE product_id = ?').run(id);
  const link = db.prepare('INSERT OR IGNORE INTO product_terms (product_id, term_id) VALUES (?, ?)');
  for (const path of product.categories) link.run(id, terms.category(path));
  for (const tag of product.tags) link.run(id, terms.tag(tag));
  for (const brand of product.brands) link.run(id, terms.brand(brand));

  // Images are updated in place, so their ids (and the /images/{id}.svg addresses pages link to) survive a re-import.
  const upsertImage = db.prepare(
    `INSERT INTO product_images (product_id, position, source_url, alt, color) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (product_id, position) DO UPDATE SET source_url = excluded.source_url, alt = excluded.alt,
       color = excluded.color`,
  );
  product.images.forEach((url, position) => {
    upsertImage.run(id, position, url, product.name, placeholderColor(url, product.name));
  });
  db.prepare('DELETE FROM product_images WHERE product_id = ? AND position >= ?').run(
    id,
    product.images.length,
  );

  db.prepare('DELETE FROM product_downloads WHERE product_id = ?').run(id);
  const addDownload = db.prepare(
    'INSERT INTO product_downloads (product_id, position, name, url) VALUES (?, ?, ?, ?)',
  );
  for (const [position, download] of product.downloads.entries()) {
    addDownload.run(id, position, download.name, download.url);
  }

  if (product.type === 'variation') attributes.writeVariation(id, product);
  else attributes.writeProduct(id, product);
}

function writeSidecarProducts(
  db: Database.Database,
  products: CatalogImport['site']['products'],
  hasMeta: boolean,
) {
  if (!hasMeta) return;
  const update = db.prepare(
    `UPDATE products SET
       vendor_id = COALESCE((SELECT id FROM vendors WHERE slug = @vendor), vendor_id),
       rating_average = COALESCE(@average, rating_average), rating_count = COALESCE(@count, rating_count)
     WHERE sku = @sku`,
  );
  for (const [sku, meta] of Object.entries(products)) {
    update.run({
      sku,
      vendor: meta.vendor ?? null,
      average: meta.rating?.average ?? null,
      count: meta.rating?.count ?? null,
    });
  }
}

function splitPath(path: string): string[] {
  return path
    .split('>')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** Finds or creates taxonomy terms by name (and path, for hierarchical categories). */
class TermWriter {
  #db: Database.Database;
  #cache = new Map<string, number>();
  #categories = new Set<number>();
  constructor(db: Database.Database) {
    this.#db = db;
  }

  category(path: string[], description?: string): number {
    let parentId: number | null = null;
    for (const [index, name] of path.entries()) {
      const isLeaf = index === path.length - 1;
      parentId = this.#ensure(
        'product_cat',
        name,
        cleanForSlug(path.slice(0, index + 1).join('-')),
        parentId,
        isLeaf ? description : undefined,
        cleanForSlug(name),
      );
      this.#categories.add(parentId);
    }
    if (parentId === null) throw new ShopError('import_failed', 'An empty category path');
    return parentId;
  }

  tag(name: string): number {
    return this.#ensure('product_tag', name, cleanForSlug(name), null);
  }

  brand(name: string, slug?: string, description?: string): number {
    return this.#ensure('product_brand', name, slug ?? cleanForSlug(name), null, description);
  }

  categoryCount(): number {
    return this.#categories.size;
  }

  /**
   * Categories are found by name under their parent. A new one gets the plain slug of its name when it is free
   * (WooCommerce's URLs), and the slug of its whole path when another branch already uses that name.
   */
  #ensure(
    taxonomy: string,
    name: string,
    fallbackSlug: string,
    parentId: number | null,
    description?: string,
    preferredSlug?: string,
  ): number {
    const cacheKey = `${taxonomy}\u0000${parentId ?? ''}\u0000${name.toLowerCase()}`;
    const cached = this.#cache.get(cacheKey);
    if (cached !== undefined && description === undefined) return cached;
    const found = this.#db
      .prepare(
        `SELECT id FROM terms WHERE taxonomy = ? AND lower(name) = lower(?) AND parent_id IS ?
         UNION ALL SELECT id FROM terms WHERE taxonomy = ? AND slug = ? AND ? IS NULL AND parent_id IS NULL LIMIT 1`,
      )
      .get(taxonomy, name, parentId, taxonomy, fallbackSlug, parentId) as { id: number } | undefined;
    let id: number;
    if (found) {
      id = found.id;
      if (description !== undefined && description !== '') {
        this.#db.prepare('UPDATE terms SET description = ? WHERE id = ?').run(description, id);
      }
    } else {
      const taken = this.#db.prepare('SELECT 1 FROM terms WHERE taxonomy = ? AND slug = ?');
      const first = preferredSlug ?? fallbackSlug;
      let slug = taken.get(taxonomy, first) ? fallbackSlug : first;
      for (let n = 2; taken.get(taxonomy, slug); n++) slug = `${fallbackSlug}-${n}`;
      id = Number(
        this.#db
          .prepare('INSERT INTO terms (taxonomy, slug, name, parent_id, description) VALUES (?, ?, ?, ?, ?)')
          .run(taxonomy, slug || 'term', name, parentId, description ?? '').lastInsertRowid,
      );
    }
    this.#cache.set(cacheKey, id);
    return id;
  }
}

/** Global attributes and their terms, with swatch types and colours from the sidecar. */
class AttributeWriter {
  #db: Database.Database;
  #settings: CatalogImport['site']['attributes'];
  constructor(db: Database.Database, settings: CatalogImport['site']['attributes']) {
    this.#db = db;
    this.#settings = settings;
  }

  writeProduct(productId: number, product: ImportProduct) {
    this.#db.prepare('DELETE FROM product_attribute_terms WHERE product_id = ?').run(productId);
    this.#db.prepare('DELETE FROM product_attributes WHERE product_id = ?').run(productId);
    const addAttribute = this.#db.prepare(
      'INSERT INTO product_attributes (product_id, attribute_id, position, visible) VALUES (?, ?, ?, ?)',
    );
    const addTerm = this.#db.prepare(
      'INSERT OR IGNORE INTO product_attribute_terms (product_id, attribute_id, term_id, position) VALUES (?, ?, ?, ?)',
    );
    product.attributes.forEach((attribute, position) => {
      const attributeId = this.#attribute(attribute.name);
      addAttribute.run(productId, attributeId, position, Number(attribute.visible));
      attribute.values.forEach((value, termPosition) => {
        addTerm.run(productId, attributeId, this.#term(attributeId, attribute.name, value), termPosition);
      });
    });
  }

  writeVariation(variationId: number, product: ImportProduct) {
    this.#db.prepare('DELETE FROM variation_attributes WHERE variation_id = ?').run(variationId);
    const add = this.#db.prepare(
      'INSERT INTO variation_attributes (variation_id, attribute_id, term_id) VALUES (?, ?, ?)',
    );
    for (const attribute of product.attributes) {
      const attributeId = this.#attribute(attribute.name);
      const value = attribute.values[0];
      add.run(
        variationId,
        attributeId,
        value === undefined ? null : this.#term(attributeId, attribute.name, value),
      );
    }
  }

  #attribute(name: string): number {
    const slug = cleanForSlug(name) || 'attribute';
    const swatchType = this.#settings[name]?.swatchType ?? 'select';
    this.#db
      .prepare(
        `INSERT INTO attributes (slug, name, swatch_type) VALUES (?, ?, ?)
         ON CONFLICT (slug) DO UPDATE SET swatch_type = CASE WHEN ? THEN excluded.swatch_type ELSE swatch_type END`,
      )
      .run(slug, name, swatchType, Number(name in this.#settings));
    return (this.#db.prepare('SELECT id FROM attributes WHERE slug = ?').get(slug) as { id: number }).id;
  }

  #term(attributeId: number, attributeName: string, value: string): number {
    const slug = cleanForSlug(value) || 'value';
    const look = this.#settings[attributeName]?.terms[value];
    this.#db
      .prepare(
        `INSERT INTO attribute_terms (attribute_id, slug, name, color, image, swatch_type) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (attribute_id, slug) DO UPDATE SET
           color = COALESCE(excluded.color, color), image = COALESCE(excluded.image, image),
           swatch_type = COALESCE(excluded.swatch_type, swatch_type)`,
      )
      .run(attributeId, slug, value, look?.color ?? null, look?.image ?? null, look?.swatchType ?? null);
    return (
      this.#db
        .prepare('SELECT id FROM attribute_terms WHERE attribute_id = ? AND slug = ?')
        .get(attributeId, slug) as {
        id: number;
      }
    ).id;
  }
}

/**
 * The same database with `prepare` memoized for the length of one import: compiling a statement (and the search
 * index's triggers on the tables it writes) cost more than running it, once per row of a 100,000-product import.
 */
function withStatementCache(db: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  return new Proxy(db, {
    get(target, property) {
      if (property === 'prepare') {
        return (sql: string) => {
          let statement = statements.get(sql);
          if (!statement) {
            statement = target.prepare(sql);
            statements.set(sql, statement);
          }
          return statement;
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
